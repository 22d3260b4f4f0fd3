// How the repo commands read OWNER/NAME and show a repository (shared by `repo` and `admin repo`).
import { CliExit, EXIT } from '../output.js';

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


/** Prints one repository as `field: value` lines. */
export function printRepo(r: Repo): void {
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
  for (const [k, v] of lines) process.stdout.write(`${`${k}:`.padEnd(width + 2)}${v}\n`);
}
