// What the repository commands share (`repo …` and `admin repo import`): the API's repository shape, OWNER/NAME, the acting user, how a repository is shown.
import type { Client } from '../../client.js';
import { CliExit, EXIT, expectOk } from '../../output.js';

export interface Repo {
  id: number;
  name: string;
  full_name: string;
  private: boolean;
  visibility: string;
  description: string | null;
  homepage: string | null;
  default_branch: string;
  clone_url: string;
  html_url: string;
  language: string | null;
  size: number;
  archived: boolean;
  pushed_at: string;
  created_at: string;
  updated_at: string;
  owner: { login: string; type: string };
  permissions?: { admin: boolean; push: boolean; pull: boolean };
}

/** `OWNER/NAME` → its parts (NAME alone: the acting user's own repository). */
export function repoSpec(v: string): { owner?: string; name: string } {
  const parts = v.split('/');
  if (parts.length === 1 && parts[0]) return { name: parts[0] };
  if (parts.length === 2 && parts[0] && parts[1]) return { owner: parts[0], name: parts[1] };
  throw new CliExit(EXIT.usage, `hublet: expected OWNER/NAME, got ${JSON.stringify(v)}`);
}

/** `OWNER/NAME`, both parts required. */
export function fullSpec(v: string): { owner: string; name: string } {
  const spec = repoSpec(v);
  if (!spec.owner) throw new CliExit(EXIT.usage, `hublet: expected OWNER/NAME, got ${JSON.stringify(v)}`);
  return spec as { owner: string; name: string };
}

/** The acting user's login. */
export async function whoAmI(client: Client): Promise<string> {
  return (expectOk(await client.request('GET', '/user')).body as { login: string }).login;
}

export const repoPath = (spec: { owner: string; name: string }) =>
  `/repos/${encodeURIComponent(spec.owner)}/${encodeURIComponent(spec.name)}`;

/** Prints one repository as `field: value` lines. */
export function printRepo(out: NodeJS.WritableStream, r: Repo): void {
  const lines: [string, string][] = [
    ['name', r.full_name],
    ['description', r.description ?? ''],
    ['visibility', r.visibility + (r.archived ? ' (archived)' : '')],
    ['default branch', r.default_branch],
    ['clone url', r.clone_url],
    ['language', r.language ?? ''],
    ['size', `${r.size} KB`],
    ['pushed', r.pushed_at],
    ['created', r.created_at],
  ];
  if (r.homepage) lines.splice(2, 0, ['homepage', r.homepage]);
  if (r.permissions) lines.push(['your access', r.permissions.admin ? 'admin' : r.permissions.push ? 'write' : 'read']);
  const width = Math.max(...lines.map(([k]) => k.length));
  for (const [k, v] of lines) out.write(`${`${k}:`.padEnd(width + 2)}${v}\n`);
}
