// What the `migration` commands share: the API's migration shape, ids, paths, pagination, and how a migration is shown.
import { InvalidArgumentError, type Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';

export interface Migration {
  id: number;
  guid: string;
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

/** `--org ORG`: an organization's migrations; without it, the signed-in user's. */
export interface ScopeOptions {
  org?: string;
}

/** The queue exports run on: locally the command runs it (Client.settle). */
export const EXPORT_QUEUES = ['migration-export'];

export function migrationId(v: string): string {
  if (!/^[1-9]\d{0,15}$/.test(v)) throw new InvalidArgumentError('expected a migration id (a positive integer)');
  return v;
}

/** Adds `--org` to a command that acts on one owner's migrations. */
export const withOrgOption = (c: Command) => c.option('--org <org>', 'an organization migration (default: your own user migrations)');

/** `/orgs/ORG/migrations` with --org, else the signed-in user's `/user/migrations`. */
export function basePath(opts: ScopeOptions): string {
  return opts.org ? `/orgs/${encodeURIComponent(opts.org)}/migrations` : '/user/migrations';
}

/** Every page of a list (per_page=100, following `Link: rel="next"`). */
export async function allPages<T>(client: Client, path: string): Promise<T[]> {
  const out: T[] = [];
  let next: string | undefined = `${path}${path.includes('?') ? '&' : '?'}per_page=100`;
  while (next) {
    const res = expectOk(await client.request('GET', next));
    out.push(...(res.body as T[]));
    const link = /<([^>]+)>;\s*rel="next"/.exec(res.headers.link ?? '');
    next = link ? new URL(link[1]).pathname + new URL(link[1]).search : undefined;
  }
  return out;
}

export async function getMigration(client: Client, opts: ScopeOptions, id: string, exclude = true): Promise<Migration> {
  return expectOk(await client.request('GET', `${basePath(opts)}/${id}${exclude ? '?exclude=repositories' : ''}`)).body as Migration;
}

function describeMigration(m: Migration): string {
  const lines = [`migration ${m.id} (${m.owner.login}): ${m.state}`, `  guid: ${m.guid}`];
  if (m.repositories) lines.push(`  repositories: ${m.repositories.map((r) => r.full_name).join(', ') || '(none)'}`);
  const flags = (['lock_repositories', 'exclude_git_data', 'exclude_metadata', 'org_metadata_only'] as const).filter((f) => m[f]);
  if (flags.length) lines.push(`  flags: ${flags.join(', ')}`);
  if (m.failure_reason) lines.push(`  reason: ${m.failure_reason}`);
  if (m.archive_url) lines.push(`  archive: ready (hublet migration download ${m.id}${m.owner.type === 'Organization' ? ` --org ${m.owner.login}` : ''})`);
  lines.push(`  created: ${m.created_at}`, `  updated: ${m.updated_at}`);
  return `${lines.join('\n')}\n`;
}

/** Prints a migration; exit 1 when it failed. */
export function finish(io: IO, m: Migration, json: boolean): void {
  if (json) printJson(io.stdout, m);
  else io.stdout.write(describeMigration(m));
  if (m.state === 'failed') throw new CliExit(EXIT.error, `hublet: migration ${m.id} failed${m.failure_reason ? `: ${m.failure_reason}` : ''}`);
}
