// What the `migration` commands share: the API's migration shape, ids, paths, pagination, how a migration is shown, and
// the hint for a migration not found in the scope asked (a user migration without --org, an organization's with it).
import { InvalidArgumentError, type Command } from 'commander';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import type { ApiResponse, Client } from '../../client.js';
import type { ClientOptions } from '../factory.js';

export interface Migration {
  id: number;
  guid: string;
  /** The migration's API URL. */
  url: string;
  state: 'pending' | 'exporting' | 'exported' | 'failed';
  owner: { login: string; type: string };
  repositories?: { full_name: string }[];
  lock_repositories: boolean;
  exclude_git_data: boolean;
  exclude_metadata: boolean;
  org_metadata_only: boolean;
  archive_url?: string;
  failure_reason?: string;
  created_at: string;
  updated_at: string;
}

/** `--org ORG`: an organization's migrations; without it (and only then), the signed-in user's. */
export interface ScopeOptions {
  org?: string;
}

/** What a command about one migration gets: the client, --json, whose migration (--org) and its id. */
export interface MigrationOptions extends ClientOptions, ScopeOptions {
  id: string;
}

/** The queue exports run on: locally the command runs it (Client.settle). */
export const EXPORT_QUEUES = ['migration-export'];

export function migrationId(v: string): string {
  if (!/^[1-9]\d{0,15}$/.test(v)) throw new InvalidArgumentError('expected a migration id (a positive integer)');
  return v;
}

/** Adds `--org` to a command that acts on one owner's migrations. */
export const withOrgOption = (c: Command) => c.option('--org <org>', "an organization's migration (without it: your own user migration)");

/** `/orgs/ORG/migrations` with --org, else the signed-in user's `/user/migrations`. */
export function basePath(opts: ScopeOptions): string {
  return opts.org ? `/orgs/${encodeURIComponent(opts.org)}/migrations` : '/user/migrations';
}

/** Every page of a list (per_page=100, following `Link: rel="next"`); `check` turns an error response into the command's error. */
export async function allPages<T>(
  client: Client,
  path: string,
  check: (res: ApiResponse) => Promise<ApiResponse> = async (res) => expectOk(res),
): Promise<T[]> {
  const out: T[] = [];
  let next: string | undefined = `${path}${path.includes('?') ? '&' : '?'}per_page=100`;
  while (next) {
    const res = await check(await client.request('GET', next));
    out.push(...(res.body as T[]));
    const link = /<([^>]+)>;\s*rel="next"/.exec(res.headers.link ?? '');
    next = link ? new URL(link[1]).pathname + new URL(link[1]).search : undefined;
  }
  return out;
}

/** What to try when migration `id` is not found where the options looked; `owner` is an owner the command line named. */
function notFoundHint(opts: ScopeOptions, id: string, owner?: string): string {
  if (opts.org)
    return `hublet: migration ${id} not found for organization ${opts.org} (only its owners see its migrations); for your own user migration leave out --org`;
  return `hublet: migration ${id} not found for your user; for an organization's migration add --org ${owner ?? 'ORG'}`;
}

/** expectOk, the API's error followed by the hint above when the response is a 404 of the migration itself. */
function expectFound(res: ApiResponse, opts: ScopeOptions, id: string, owner?: string): ApiResponse {
  try {
    return expectOk(res);
  } catch (err) {
    if (err instanceof CliExit && res.status === 404) throw new CliExit(err.code, `${err.message}\n${notFoundHint(opts, id, owner)}`);
    throw err;
  }
}

/**
 * expectOk for a request about something under migration `id` (its archive, a lock): a 404 gets the hint when the
 * migration itself is not found either (asked once more), not when only the thing under it is missing.
 */
export async function expectMigrationOk(
  client: Client,
  opts: ScopeOptions,
  id: string,
  res: ApiResponse,
  owner?: string,
): Promise<ApiResponse> {
  if (res.status !== 404) return expectOk(res);
  const itself = await client.request('GET', `${basePath(opts)}/${id}?exclude=repositories`);
  return itself.status === 404 ? expectFound(res, opts, id, owner) : expectOk(res);
}

export async function getMigration(client: Client, opts: ScopeOptions, id: string, exclude = true, owner?: string): Promise<Migration> {
  return expectFound(await client.request('GET', `${basePath(opts)}/${id}${exclude ? '?exclude=repositories' : ''}`), opts, id, owner)
    .body as Migration;
}

function describeMigration(m: Migration): string {
  const lines = [`migration ${m.id} (${m.owner.login}): ${m.state}`, `  guid: ${m.guid}`];
  if (m.repositories) lines.push(`  repositories: ${m.repositories.map((r) => r.full_name).join(', ') || '(none)'}`);
  const flags = (['lock_repositories', 'exclude_git_data', 'exclude_metadata', 'org_metadata_only'] as const).filter((f) => m[f]);
  if (flags.length) lines.push(`  flags: ${flags.join(', ')}`);
  if (m.failure_reason) lines.push(`  reason: ${m.failure_reason}`);
  if (m.archive_url)
    lines.push(`  archive: ready (hublet migration download ${m.id}${m.owner.type === 'Organization' ? ` --org ${m.owner.login}` : ''})`);
  lines.push(`  created: ${m.created_at}`, `  updated: ${m.updated_at}`);
  return `${lines.join('\n')}\n`;
}

/** Prints a migration; exit 1 when it failed. */
export function finish(io: IO, m: Migration, json: boolean): void {
  if (json) printJson(io.stdout, m);
  else io.stdout.write(describeMigration(m));
  if (m.state === 'failed')
    throw new CliExit(EXIT.error, `hublet: migration ${m.id} failed${m.failure_reason ? `: ${m.failure_reason}` : ''}`);
}
