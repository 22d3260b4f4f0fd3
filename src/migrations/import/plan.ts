// What an import does with each record of an archive (ghe-migrator's conflicts step): the proposed action for every user,
// organization and repository (`import`, `map` onto an existing one, `rename`, `skip`), edited by a migration map and
// checked as a whole before anything is written. Pure: it decides from the archive, the map and what this server has
// (`Existing`), and names what it still needs to know (`missing`); service.ts reads that and plans again.
import { loginProblem } from '../../accounts/logins.js';
import type { UserRow } from '../../db/schema.js';
import type { RepositoryRow } from '../../db/tables/repos.js';
import { HttpError, ValidationFailed, type FieldError } from '../../core/errors.js';
import type { Urls } from '../../core/urls.js';
import { repositoryName } from '../../repos/names.js';
import { normalizedTopics } from '../../repos/names.js';
import type { ImportAction, MapRow, ModelName } from './csv.js';
import type { ArchiveContents, ArchiveOrganization, ArchiveRepository, ArchiveUser } from './layout.js';

export interface PlannedAccount<S> {
  source: S;
  action: ImportAction;
  /** The login it has here: the source's (import), another (rename), the existing account's (map); for skip, the source's. */
  login: string;
  /** The account it is mapped onto. */
  existing?: UserRow;
}

export interface PlannedRepository {
  source: ArchiveRepository;
  action: ImportAction;
  owner: PlannedAccount<unknown> | { login: string; existing?: UserRow; action: 'map' };
  name: string;
  existing?: RepositoryRow;
  /** Topics as hublet keeps them (lowercased, each once). */
  topics: string[];
}

export interface ImportPlan {
  users: PlannedAccount<ArchiveUser>[];
  organizations: PlannedAccount<ArchiveOrganization>[];
  repositories: PlannedRepository[];
  /** Every record with its action, as the conflicts CSV lists them. */
  rows: MapRow[];
  /** The planned account for a user or organization URL (or login) the archive names. */
  account(url: string): PlannedAccount<unknown> | undefined;
}

/**
 * The accounts and repositories of this server the plan has asked about, by `accountKey` and `repositoryKey`: the row,
 * or null when there is none.
 */
export interface Existing {
  accounts: ReadonlyMap<string, UserRow | null>;
  repositories: ReadonlyMap<string, RepositoryRow | null>;
}

/** Something the plan needs to know and `Existing` does not say yet: an account by login, a repository by owner and name. */
export type Lookup = { kind: 'account'; login: string } | { kind: 'repository'; ownerId: number; name: string };

/** The plan, or what to read before planning again. */
export type PlanOutcome = { plan: ImportPlan } | { missing: Lookup[] };

/** Keys of `Existing`: logins and repository names are not case sensitive. */
export const accountKey = (login: string) => login.toLowerCase();
export const repositoryKey = (ownerId: number, name: string) => `${ownerId} ${name.toLowerCase()}`;

/** How a URL or login is compared: case-insensitive, without trailing slashes. */
const key = (s: string) => s.replace(/\/+$/, '').toLowerCase();

const mapError = (message: string, value?: string): FieldError => ({
  resource: 'Migration',
  field: 'map',
  code: 'invalid',
  message,
  ...(value ? { value } : {}),
});

/** The last segment of a URL's path (`https://host/acme` → `acme`): the account a URL names. */
function lastSegment(url: string): string {
  return url.replace(/\/+$/, '').split('/').pop() ?? '';
}

/** A repository target URL's owner and name (its last two path segments). */
function targetRepository(url: string): { owner: string; name: string } {
  const parts = url.replace(/\/+$/, '').split('/');
  return { owner: parts.at(-2) ?? '', name: parts.at(-1) ?? '' };
}

/** One planning pass: what it knows and lacks, the map by record and which rows it used, the logins it gave, the problems. */
interface Pass {
  existing: Existing;
  missing: Lookup[];
  edits: Map<string, MapRow>;
  used: Set<string>;
  /** Logins this import gives to new accounts. */
  claimed: Set<string>;
  /** Owner and name of every repository this import creates. */
  names: Set<string>;
  errors: FieldError[];
}

function startPass(edits: readonly MapRow[], existing: Existing): Pass {
  const byRecord = new Map<string, MapRow>();
  for (const e of edits) byRecord.set(`${e.model_name} ${key(e.source_url)}`, e);
  return { existing, missing: [], edits: byRecord, used: new Set(), claimed: new Set(), names: new Set(), errors: [] };
}

/** The map's row for a record, noted as used. */
function editFor(pass: Pass, model: ModelName, url: string): MapRow | undefined {
  const k = `${model} ${key(url)}`;
  pass.used.add(k);
  return pass.edits.get(k);
}

/** The account `login` names here; one not asked about yet is noted missing and taken as absent for this pass. */
function accountHere(pass: Pass, login: string): UserRow | undefined {
  const row = pass.existing.accounts.get(accountKey(login));
  if (row === undefined) pass.missing.push({ kind: 'account', login });
  return row ?? undefined;
}

/** The repository `name` of the account `ownerId` here, as accountHere finds accounts. */
function repositoryHere(pass: Pass, ownerId: number, name: string): RepositoryRow | undefined {
  const row = pass.existing.repositories.get(repositoryKey(ownerId, name));
  if (row === undefined) pass.missing.push({ kind: 'repository', ownerId, name });
  return row ?? undefined;
}

/** The first `<login>-N` no account here has and no other record of this import is given. */
function freeLogin(pass: Pass, login: string): string {
  for (let n = 1; n < 1000; n++) {
    const candidate = `${login.slice(0, 35)}-${n}`;
    if (!pass.claimed.has(key(candidate)) && !accountHere(pass, candidate)) return candidate;
  }
  return `${login}-imported`;
}

type AccountModel = 'user' | 'organization';
type AccountSource = { url: string; login: string };

/** Without a map row: import; map onto an account of the same kind and login; rename when another kind holds the login. */
function defaultAccount<S extends AccountSource>(pass: Pass, type: UserRow['type'], source: S): PlannedAccount<S> {
  const existing = accountHere(pass, source.login);
  if (!existing) return { source, action: 'import', login: source.login };
  if (existing.type === type) return { source, action: 'map', login: existing.login, existing };
  return { source, action: 'rename', login: freeLogin(pass, source.login) };
}

/** The map row's action, checked: a map needs an account of the kind to map onto, an import or rename a login nobody has. */
function editedAccount<S extends AccountSource>(
  pass: Pass,
  model: AccountModel,
  type: UserRow['type'],
  source: S,
  edit: MapRow,
): PlannedAccount<S> {
  const action = edit.recommended_action;
  const login = action === 'map' || action === 'rename' ? lastSegment(edit.target_url) : source.login;
  const target = action === 'skip' ? undefined : accountHere(pass, login);
  if (action === 'map' && target?.type !== type)
    pass.errors.push(mapError(`${model} ${source.login}: there is no ${model} ${login} to map onto`, edit.target_url));
  if ((action === 'import' || action === 'rename') && target)
    pass.errors.push(mapError(`${model} ${source.login}: ${login} already exists`, edit.target_url));
  return { source, action, login: target?.login ?? login, existing: action === 'map' ? target : undefined };
}

/** One user or organization record: its map row or the default; a login it creates must be valid and given once. */
function planAccount<S extends AccountSource>(pass: Pass, model: AccountModel, source: S): PlannedAccount<S> {
  const type = model === 'user' ? 'User' : 'Organization';
  const edit = editFor(pass, model, source.url);
  const plan = edit ? editedAccount(pass, model, type, source, edit) : defaultAccount(pass, type, source);
  if (plan.action === 'import' || plan.action === 'rename') {
    const problem = loginProblem(plan.login, type);
    if (problem) pass.errors.push(mapError(`${model} ${source.login}: ${problem.message ?? 'the login is missing'}`, plan.login));
    if (pass.claimed.has(key(plan.login)))
      pass.errors.push(mapError(`${model} ${source.login}: another record of this import is given the login ${plan.login}`, plan.login));
    pass.claimed.add(key(plan.login));
  }
  return plan;
}

/** The records of one kind, in the archive's order; a login already planned (as either kind) is passed over. */
function planAccounts<S extends AccountSource>(
  pass: Pass,
  model: AccountModel,
  sources: readonly S[],
  seen: Set<string>,
): PlannedAccount<S>[] {
  const planned: PlannedAccount<S>[] = [];
  for (const source of sources) {
    if (seen.has(key(source.login))) continue;
    seen.add(key(source.login));
    planned.push(planAccount(pass, model, source));
  }
  return planned;
}

/** Finds a planned account by the URL a record names, else by that URL's last segment as a login (the later record wins). */
function accountFinder(planned: readonly PlannedAccount<AccountSource>[]): ImportPlan['account'] {
  const byUrl = new Map<string, PlannedAccount<unknown>>();
  const byLogin = new Map<string, PlannedAccount<unknown>>();
  for (const p of planned) {
    byUrl.set(key(p.source.url), p);
    byLogin.set(key(p.source.login), p);
  }
  return (url) => byUrl.get(key(url)) ?? byLogin.get(key(lastSegment(url)));
}

/** A repository record with where its owner goes. */
interface RepositoryRecord {
  source: ArchiveRepository;
  owner: PlannedRepository['owner'];
  /** `<owner login>/<name>` as the archive names it (for messages). */
  fullName: string;
  /** The existing account it goes into (its owner mapped). */
  ownerRow?: UserRow;
  /** Whether its owner is there or is created: not skipped, and not mapped onto nothing. */
  ownerWritable: boolean;
}

/** The record's owner: the account planned for it, else (an owner the archive has no record of) an account of that login here. */
function repositoryRecord(pass: Pass, source: ArchiveRepository, account: ImportPlan['account']): RepositoryRecord {
  let owner: PlannedRepository['owner'] | undefined = account(source.owner);
  if (!owner) {
    const existing = accountHere(pass, lastSegment(source.owner));
    owner = { login: existing?.login ?? lastSegment(source.owner), existing, action: 'map' };
  }
  const ownerRow = owner.action === 'map' ? owner.existing : undefined;
  const ownerWritable = owner.action !== 'skip' && (owner.action !== 'map' || ownerRow !== undefined);
  return { source, owner, fullName: `${lastSegment(source.owner)}/${source.name}`, ownerRow, ownerWritable };
}

/** Without a map row: import, or skip when the owner is not written or the repository exists (a re-run skips what it imported). */
function defaultRepository(pass: Pass, r: RepositoryRecord): PlannedRepository {
  const existing = r.ownerRow ? repositoryHere(pass, r.ownerRow.id, r.source.name) : undefined;
  return {
    source: r.source,
    owner: r.owner,
    name: r.source.name,
    action: !r.ownerWritable || existing ? 'skip' : 'import',
    existing,
    topics: [],
  };
}

/** The map row's action, checked: its target under the owner's login, a repository there to map onto, none to import over. */
function editedRepository(pass: Pass, r: RepositoryRecord, edit: MapRow): PlannedRepository {
  const { owner, fullName } = r;
  const action = edit.recommended_action;
  const target = action === 'rename' || action === 'map' ? targetRepository(edit.target_url) : { owner: owner.login, name: r.source.name };
  if (action !== 'skip' && key(target.owner) !== key(owner.login)) {
    pass.errors.push(mapError(`repository ${fullName}: its target must be under ${owner.login}, where its owner goes`, edit.target_url));
  }
  const there = r.ownerRow && action !== 'skip' ? repositoryHere(pass, r.ownerRow.id, target.name) : undefined;
  if (action === 'map' && !there)
    pass.errors.push(mapError(`repository ${fullName}: there is no repository ${owner.login}/${target.name} to map onto`, edit.target_url));
  if ((action === 'import' || action === 'rename') && !r.ownerWritable) {
    pass.errors.push(mapError(`repository ${fullName}: its owner ${owner.login} is skipped or does not exist`, edit.source_url));
  }
  if ((action === 'import' || action === 'rename') && there)
    pass.errors.push(mapError(`repository ${fullName}: ${owner.login}/${target.name} already exists`, edit.target_url));
  return { source: r.source, owner, name: target.name, action, existing: there, topics: [] };
}

/** A repository this import creates: its name by GitHub's rules, its topics by hublet's, the name given once per owner. */
function nameCreated(pass: Pass, r: RepositoryRecord, plan: PlannedRepository): void {
  try {
    plan.name = repositoryName(plan.name);
    plan.topics = normalizedTopics(r.source.topics);
  } catch (err) {
    const said = err instanceof HttpError ? JSON.stringify(err.extra.errors ?? err.message) : String(err);
    pass.errors.push(mapError(`repository ${r.fullName}: ${said}`, plan.name));
  }
  const k = `${key(plan.owner.login)}/${key(plan.name)}`;
  if (pass.names.has(k))
    pass.errors.push(
      mapError(`repository ${r.fullName}: another record of this import is given the name ${plan.owner.login}/${plan.name}`, plan.name),
    );
  pass.names.add(k);
}

/** One repository record: its map row or the default. */
function planRepository(pass: Pass, source: ArchiveRepository, account: ImportPlan['account']): PlannedRepository {
  const r = repositoryRecord(pass, source, account);
  const edit = editFor(pass, 'repository', source.url);
  const plan = edit ? editedRepository(pass, r, edit) : defaultRepository(pass, r);
  if (plan.action === 'import' || plan.action === 'rename') nameCreated(pass, r, plan);
  return plan;
}

/** A map row naming a record the archive does not have is a mistake. */
function checkEditsUsed(pass: Pass, edits: readonly MapRow[]): void {
  for (const e of edits) {
    if (!pass.used.has(`${e.model_name} ${key(e.source_url)}`))
      pass.errors.push(mapError(`the map names a ${e.model_name} the archive does not have`, e.source_url));
  }
}

/** The conflicts CSV's rows: every record, where it goes on this server and its action. */
function conflictRows(urls: Urls, plan: Omit<ImportPlan, 'rows' | 'account'>): MapRow[] {
  const html = (p: string) => urls.html(p);
  return [
    ...plan.users.map((p) => ({
      model_name: 'user' as const,
      source_url: p.source.url,
      target_url: html(`/${p.login}`),
      recommended_action: p.action,
    })),
    ...plan.organizations.map((p) => ({
      model_name: 'organization' as const,
      source_url: p.source.url,
      target_url: html(`/${p.login}`),
      recommended_action: p.action,
    })),
    ...plan.repositories.map((p) => ({
      model_name: 'repository' as const,
      source_url: p.source.url,
      target_url: html(`/${p.owner.login}/${p.name}`),
      recommended_action: p.action,
    })),
  ];
}

/**
 * Plans the import of `contents` into this server: the default for every record (import; map an existing account of
 * the same kind and login; rename an account whose login another kind holds to the first free `<login>-N`; skip a
 * repository that exists, so a re-run skips what it imported), or the row of `edits` (a migration map, by model and
 * source URL) for it, checked. Every problem is one 422 listing them all. While `existing` lacks an answer the plan
 * needs, the outcome is the lookups to make instead (nothing is judged from a pass that lacked one).
 */
export function planImport(contents: ArchiveContents, edits: readonly MapRow[], existing: Existing, urls: Urls): PlanOutcome {
  const pass = startPass(edits, existing);
  const seen = new Set<string>();
  const users = planAccounts(pass, 'user', contents.users, seen);
  const organizations = planAccounts(pass, 'organization', contents.organizations, seen);
  const account = accountFinder([...users, ...organizations]);
  const repositories = contents.repositories.map((source) => planRepository(pass, source, account));
  checkEditsUsed(pass, edits);
  if (pass.missing.length) return { missing: pass.missing };
  if (pass.errors.length) throw new ValidationFailed(pass.errors, 'The migration map cannot be applied');
  return { plan: { users, organizations, repositories, rows: conflictRows(urls, { users, organizations, repositories }), account } };
}
