// What an import does with each record of an archive (ghe-migrator's conflicts step): the proposed action for every user,
// organization and repository (`import`, `map` onto an existing one, `rename`, `skip`), edited by a migration map and
// checked as a whole before anything is written.
import { findAccount } from '../../accounts/store.js';
import { loginProblem } from '../../accounts/logins.js';
import type { Db } from '../../db/connect.js';
import type { UserRow } from '../../db/schema.js';
import type { RepositoryRow } from '../../db/tables/repos.js';
import { HttpError, ValidationFailed, type FieldError } from '../../core/errors.js';
import type { Urls } from '../../core/urls.js';
import { repositoryName } from '../../repos/names.js';
import { findRepository } from '../../repos/store.js';
import { normalizedTopics } from '../../repos/topics.js';
import type { ImportAction, MapRow, ModelName } from './csv.js';
import { lastSegment, type ArchiveContents, type ArchiveOrganization, type ArchiveRepository, type ArchiveUser } from './layout.js';

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

/** How a URL or login is compared: case-insensitive, without trailing slashes. */
const key = (s: string) => s.replace(/\/+$/, '').toLowerCase();

const mapError = (message: string, value?: string): FieldError => ({ resource: 'Migration', field: 'map', code: 'invalid', message, ...(value ? { value } : {}) });

/** The account a row's target URL names (its last path segment). */
const targetLogin = (url: string) => lastSegment(url);

/** A repository target URL's owner and name (its last two path segments). */
function targetRepository(url: string): { owner: string; name: string } {
  const parts = url.replace(/\/+$/, '').split('/');
  return { owner: parts.at(-2) ?? '', name: parts.at(-1) ?? '' };
}

/**
 * Plans the import of `contents` into this server: the default for every record (import; map an existing account of
 * the same kind and login; rename an account whose login another kind holds to the first free `<login>-N`; skip a
 * repository that exists, so a re-run skips what it imported), then `edits` (rows of a migration map, by model and
 * source URL) applied and checked. Every problem is one 422 listing them all.
 */
export async function planImport(db: Db, urls: Urls, contents: ArchiveContents, edits: readonly MapRow[]): Promise<ImportPlan> {
  const errors: FieldError[] = [];
  const editFor = new Map<string, MapRow>();
  for (const e of edits) editFor.set(`${e.model_name} ${key(e.source_url)}`, e);
  const used = new Set<string>();
  const claimed = new Set<string>(); // logins this import gives to new accounts
  const take = (model: ModelName, url: string) => {
    const k = `${model} ${key(url)}`;
    used.add(k);
    return editFor.get(k);
  };

  async function freeLogin(login: string): Promise<string> {
    for (let n = 1; n < 1000; n++) {
      const candidate = `${login.slice(0, 35)}-${n}`;
      if (!claimed.has(key(candidate)) && !(await findAccount(db, candidate))) return candidate;
    }
    return `${login}-imported`;
  }

  async function planAccount<S extends { url: string; login: string }>(model: 'user' | 'organization', source: S): Promise<PlannedAccount<S>> {
    const type = model === 'user' ? 'User' : 'Organization';
    const existing = await findAccount(db, source.login);
    let plan: PlannedAccount<S>;
    if (!existing) plan = { source, action: 'import', login: source.login };
    else if (existing.type === type) plan = { source, action: 'map', login: existing.login, existing };
    else plan = { source, action: 'rename', login: await freeLogin(source.login) };
    const edit = take(model, source.url);
    if (edit) {
      const login = edit.recommended_action === 'map' || edit.recommended_action === 'rename' ? targetLogin(edit.target_url) : source.login;
      const target = edit.recommended_action === 'skip' ? undefined : await findAccount(db, login);
      plan = { source, action: edit.recommended_action, login: target?.login ?? login, existing: edit.recommended_action === 'map' ? target : undefined };
      if (edit.recommended_action === 'map' && target?.type !== type) errors.push(mapError(`${model} ${source.login}: there is no ${model} ${login} to map onto`, edit.target_url));
      if ((edit.recommended_action === 'import' || edit.recommended_action === 'rename') && target) errors.push(mapError(`${model} ${source.login}: ${login} already exists`, edit.target_url));
    }
    if (plan.action === 'import' || plan.action === 'rename') {
      const problem = loginProblem(plan.login, type);
      if (problem) errors.push(mapError(`${model} ${source.login}: ${problem.message ?? 'the login is missing'}`, plan.login));
      if (claimed.has(key(plan.login))) errors.push(mapError(`${model} ${source.login}: another record of this import is given the login ${plan.login}`, plan.login));
      claimed.add(key(plan.login));
    }
    return plan;
  }

  const byUrl = new Map<string, PlannedAccount<unknown>>();
  const byLogin = new Map<string, PlannedAccount<unknown>>();
  const remember = (p: PlannedAccount<{ url: string; login: string }>) => {
    byUrl.set(key(p.source.url), p);
    byLogin.set(key(p.source.login), p);
  };
  const seen = new Set<string>();
  const users: PlannedAccount<ArchiveUser>[] = [];
  for (const u of contents.users) {
    if (seen.has(key(u.login))) continue;
    seen.add(key(u.login));
    const p = await planAccount('user', u);
    users.push(p);
    remember(p);
  }
  const organizations: PlannedAccount<ArchiveOrganization>[] = [];
  for (const o of contents.organizations) {
    if (seen.has(key(o.login))) continue;
    seen.add(key(o.login));
    const p = await planAccount('organization', o);
    organizations.push(p);
    remember(p);
  }
  const account = (url: string) => byUrl.get(key(url)) ?? byLogin.get(key(lastSegment(url)));

  const repositories: PlannedRepository[] = [];
  const names = new Set<string>();
  for (const source of contents.repositories) {
    const fullName = `${lastSegment(source.owner)}/${source.name}`;
    let owner: PlannedRepository['owner'] | undefined = account(source.owner);
    if (!owner) {
      // An owner the archive has no record of: an account of that login here, if there is one.
      const existing = await findAccount(db, lastSegment(source.owner));
      owner = { login: existing?.login ?? lastSegment(source.owner), existing, action: 'map' };
    }
    const ownerRow = owner.action === 'map' ? owner.existing : undefined;
    const ownerWritable = owner.action !== 'skip' && (owner.action !== 'map' || ownerRow !== undefined);
    const existing = ownerRow ? await findRepository(db, ownerRow.id, source.name) : undefined;
    let plan: PlannedRepository = { source, owner, name: source.name, action: !ownerWritable || existing ? 'skip' : 'import', existing, topics: [] };
    const edit = take('repository', source.url);
    if (edit) {
      const target = edit.recommended_action === 'rename' || edit.recommended_action === 'map' ? targetRepository(edit.target_url) : { owner: owner.login, name: source.name };
      if (edit.recommended_action !== 'skip' && key(target.owner) !== key(owner.login)) {
        errors.push(mapError(`repository ${fullName}: its target must be under ${owner.login}, where its owner goes`, edit.target_url));
      }
      const there = ownerRow && edit.recommended_action !== 'skip' ? await findRepository(db, ownerRow.id, target.name) : undefined;
      plan = { ...plan, action: edit.recommended_action, name: target.name, existing: there };
      if (edit.recommended_action === 'map' && !there) errors.push(mapError(`repository ${fullName}: there is no repository ${owner.login}/${target.name} to map onto`, edit.target_url));
      if ((edit.recommended_action === 'import' || edit.recommended_action === 'rename') && !ownerWritable) {
        errors.push(mapError(`repository ${fullName}: its owner ${owner.login} is skipped or does not exist`, edit.source_url));
      }
      if ((edit.recommended_action === 'import' || edit.recommended_action === 'rename') && there) errors.push(mapError(`repository ${fullName}: ${owner.login}/${target.name} already exists`, edit.target_url));
    }
    if (plan.action === 'import' || plan.action === 'rename') {
      try {
        plan.name = repositoryName(plan.name);
        plan.topics = normalizedTopics(source.topics);
      } catch (err) {
        const said = err instanceof HttpError ? JSON.stringify(err.extra.errors ?? err.message) : String(err);
        errors.push(mapError(`repository ${fullName}: ${said}`, plan.name));
      }
      const k = `${key(owner.login)}/${key(plan.name)}`;
      if (names.has(k)) errors.push(mapError(`repository ${fullName}: another record of this import is given the name ${owner.login}/${plan.name}`, plan.name));
      names.add(k);
    }
    repositories.push(plan);
  }

  for (const e of edits) {
    if (!used.has(`${e.model_name} ${key(e.source_url)}`)) errors.push(mapError(`the map names a ${e.model_name} the archive does not have`, e.source_url));
  }
  if (errors.length) throw new ValidationFailed(errors, 'The migration map cannot be applied');

  const html = (p: string) => urls.html(p);
  const rows: MapRow[] = [
    ...users.map((p) => ({ model_name: 'user' as const, source_url: p.source.url, target_url: html(`/${p.login}`), recommended_action: p.action })),
    ...organizations.map((p) => ({ model_name: 'organization' as const, source_url: p.source.url, target_url: html(`/${p.login}`), recommended_action: p.action })),
    ...repositories.map((p) => ({ model_name: 'repository' as const, source_url: p.source.url, target_url: html(`/${p.owner.login}/${p.name}`), recommended_action: p.action })),
  ];
  return { users, organizations, repositories, rows, account };
}
