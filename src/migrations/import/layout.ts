// Reading an unpacked migration archive in GitHub's layout (hublet's exports and GitHub's): schema.json's version, the
// user, organization and repository records, and a count of every other kind of record it holds (which hublet does not model).
import fs from 'node:fs';
import path from 'node:path';
import type { ArchivedHook } from '../../core/contributions.js';
import { archiveRefused } from './extract.js';

/** `schema.json` versions this importer reads: GitHub's 1.x layout (hublet writes 1.0.1). */
const SCHEMA_VERSION = /^1\.\d+\.\d+$/;

export interface ArchiveUser {
  url: string;
  login: string;
  name: string | null;
  company: string | null;
  website: string | null;
  location: string | null;
  email: string | null;
}

export interface ArchiveOrganization {
  url: string;
  login: string;
  name: string | null;
  description: string | null;
  website: string | null;
  location: string | null;
  email: string | null;
  /** Members by their user URL; `admin` is an owner. */
  members: { user: string; role: 'admin' | 'member' }[];
  /** Webhooks the record carries (GitHub's archives may; hublet's do not), never with a secret. */
  webhooks: ArchivedHook[];
}

export interface ArchiveRepository {
  url: string;
  /** The owner's URL. */
  owner: string;
  name: string;
  description: string | null;
  homepage: string | null;
  private: boolean;
  hasIssues: boolean;
  hasWiki: boolean;
  hasDownloads: boolean;
  archived: boolean;
  defaultBranch: string | null;
  topics: string[];
  /** The bare repository in the unpacked archive, when the archive has its git data. */
  gitDir: string | null;
  /** Per-repository records hublet does not model (labels, collaborators, webhooks, public_keys …) by kind. */
  extras: Record<string, number>;
}

export interface ArchiveContents {
  version: string;
  users: ArchiveUser[];
  organizations: ArchiveOrganization[];
  repositories: ArchiveRepository[];
  /** Everything else the archive holds, by kind (`issues`, `pull_requests`, `wikis`, `attachments`, …), with counts. */
  unmodeled: Record<string, number>;
}

type Rec = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);

function add(counts: Record<string, number>, kind: string, n: number): void {
  if (n > 0) counts[kind] = (counts[kind] ?? 0) + n;
}

async function readJson(file: string, name: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.promises.readFile(file, 'utf8'));
  } catch {
    throw archiveRefused(`${name} is not valid JSON`);
  }
}

function records(value: unknown, name: string): Rec[] {
  if (!Array.isArray(value) || value.some((r) => r === null || typeof r !== 'object' || Array.isArray(r)))
    throw archiveRefused(`${name} is not a list of records`);
  return value as Rec[];
}

function required(r: Rec, field: string, name: string): string {
  const v = r[field];
  if (typeof v !== 'string' || v === '') throw archiveRefused(`a record in ${name} has no ${field}`);
  return v;
}

/** What user and organization records share: the login (required), the URL (else `/<login>`), name, website, location. */
function accountFields(r: Rec, name: string) {
  const login = required(r, 'login', name);
  return { url: str(r.url) ?? `/${login}`, login, name: str(r.name), website: str(r.website), location: str(r.location) };
}

function user(r: Rec, name: string): ArchiveUser {
  const account = accountFields(r, name);
  const emails = Array.isArray(r.emails) ? (r.emails as Rec[]) : [];
  const primary = emails.find((e) => e?.primary) ?? emails[0];
  return { ...account, company: str(r.company), email: str(primary?.address) };
}

function organization(r: Rec, name: string): ArchiveOrganization {
  const account = accountFields(r, name);
  const members = (Array.isArray(r.members) ? (r.members as Rec[]) : [])
    .filter((m) => m && typeof m.user === 'string' && m.state !== 'pending')
    .map((m) => ({ user: m.user as string, role: m.role === 'admin' ? ('admin' as const) : ('member' as const) }));
  return {
    ...account,
    description: str(r.description),
    email: str(r.email),
    members,
    webhooks: Array.isArray(r.webhooks) ? (r.webhooks as unknown[]).map(webhook) : [],
  };
}

/**
 * A webhook record of GitHub's archives (`payload_url`, `content_type`, `event_types`, `enable_ssl_verification`; the
 * REST shape's `config.url`, `events`, `insecure_ssl` too). Nothing is checked here: the webhooks area's rules decide.
 */
function webhook(value: unknown): ArchivedHook {
  const r = value !== null && typeof value === 'object' ? (value as Rec) : {};
  const config = r.config !== null && typeof r.config === 'object' ? (r.config as Rec) : {};
  const events = Array.isArray(r.event_types) ? r.event_types : Array.isArray(r.events) ? r.events : ['push'];
  const insecure = [r.insecure_ssl, config.insecure_ssl].some((v) => v === '1' || v === 1 || v === true);
  return {
    url: str(r.payload_url) ?? str(r.url) ?? str(config.url) ?? '',
    events: events.filter((e): e is string => typeof e === 'string'),
    contentType: /json/i.test(str(r.content_type) ?? str(config.content_type) ?? '') ? 'json' : 'form',
    insecureSsl: r.enable_ssl_verification === false || insecure,
  };
}

/** The directory a `git_url` (`tarball://root/repositories/o/n.git`) names inside `root`, when it is there. */
function gitDirOf(root: string, gitUrl: string | null): string | null {
  const rel = gitUrl?.startsWith('tarball://root/') ? gitUrl.slice('tarball://root/'.length) : null;
  if (!rel || rel.split('/').includes('..') || !/^repositories\/[^/]+\/[^/]+\.git$/.test(rel)) return null;
  const dir = path.join(root, rel);
  return fs.existsSync(path.join(dir, 'HEAD')) ? dir : null;
}

const REPOSITORY_EXTRAS = ['labels', 'collaborators', 'webhooks', 'public_keys', 'protected_branches', 'milestones', 'releases', 'teams'];

function repository(root: string, r: Rec, name: string): ArchiveRepository {
  const repoName = required(r, 'name', name);
  const owner = required(r, 'owner', name);
  const extras: Record<string, number> = {};
  for (const kind of REPOSITORY_EXTRAS) if (Array.isArray(r[kind])) add(extras, `repository ${kind}`, (r[kind] as unknown[]).length);
  const topics = Array.isArray(r.repository_topics)
    ? (r.repository_topics as Rec[]).map((t) => (typeof t === 'string' ? t : str(t?.name))).filter((t): t is string => Boolean(t))
    : [];
  return {
    url: str(r.url) ?? `${owner}/${repoName}`,
    owner,
    name: repoName,
    description: str(r.description),
    homepage: str(r.website) ?? str(r.homepage),
    private: bool(r.private, false),
    hasIssues: bool(r.has_issues, true),
    hasWiki: bool(r.has_wiki, true),
    hasDownloads: bool(r.has_downloads, true),
    archived: bool(r.is_archived, false),
    defaultBranch: str(r.default_branch),
    topics,
    gitDir: gitDirOf(root, str(r.git_url)),
    extras,
  };
}

/** Counts the files under `dir` (attachments). */
async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for (const e of await fs.promises.readdir(dir, { withFileTypes: true }))
    n += e.isDirectory() ? await countFiles(path.join(dir, e.name)) : 1;
  return n;
}

/**
 * Reads the unpacked archive at `root`. Refused (422): no `schema.json` or a version other than 1.x, a records file that
 * is not a list of records, a record without its identifying field. Record files are read one at a time.
 */
export async function readArchive(root: string): Promise<ArchiveContents> {
  const schemaFile = path.join(root, 'schema.json');
  if (!fs.existsSync(schemaFile)) throw archiveRefused('it has no schema.json (not a migration archive)');
  const schema = (await readJson(schemaFile, 'schema.json')) as Rec | null;
  const version = typeof schema?.version === 'string' ? schema.version : '';
  if (!SCHEMA_VERSION.test(version))
    throw archiveRefused(`schema.json says version ${JSON.stringify(schema?.version ?? null)}; this importer reads versions 1.x`);

  const out: ArchiveContents = { version, users: [], organizations: [], repositories: [], unmodeled: {} };
  const files = (await fs.promises.readdir(root)).filter((f) => /^[a-z_]+_\d{6}\.json$/.test(f)).sort();
  for (const file of files) {
    const kind = file.replace(/_\d{6}\.json$/, '');
    const list = records(await readJson(path.join(root, file), file), file);
    if (kind === 'users') out.users.push(...list.map((r) => user(r, file)));
    else if (kind === 'organizations') out.organizations.push(...list.map((r) => organization(r, file)));
    else if (kind === 'repositories') out.repositories.push(...list.map((r) => repository(root, r, file)));
    else add(out.unmodeled, kind, list.length);
  }
  for (const r of out.repositories) for (const [kind, n] of Object.entries(r.extras)) add(out.unmodeled, kind, n);
  // Wikis are bare repositories beside the code (`<name>.wiki.git`); attachments are files under attachments/.
  const reposDir = path.join(root, 'repositories');
  if (fs.existsSync(reposDir)) {
    for (const owner of await fs.promises.readdir(reposDir)) {
      const ownerDir = path.join(reposDir, owner);
      if (!fs.statSync(ownerDir).isDirectory()) continue;
      add(out.unmodeled, 'wikis', (await fs.promises.readdir(ownerDir)).filter((n) => n.endsWith('.wiki.git')).length);
    }
  }
  // Attachment records (`attachments_000001.json`) when there are any, else the attachment files themselves.
  if (!out.unmodeled.attachments && fs.existsSync(path.join(root, 'attachments')))
    add(out.unmodeled, 'attachments', await countFiles(path.join(root, 'attachments')));
  return out;
}
