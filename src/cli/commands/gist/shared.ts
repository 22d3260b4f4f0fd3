// What the `gist` commands share: the API's gist shapes, ids, file arguments, stdin, and list pagination.
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '../../client.js';
import { readAll, type IO } from '../../io.js';
import { CliExit, EXIT, expectOk } from '../../output.js';

export interface GistFile {
  filename: string;
  type: string;
  language: string | null;
  raw_url: string;
  size: number;
  truncated?: boolean;
  content?: string;
  encoding?: string;
}

export interface Commit {
  version: string;
  committed_at: string;
  user: { login: string } | null;
  change_status: { total: number; additions: number; deletions: number };
  url: string;
}

export interface Gist {
  id: string;
  url: string;
  html_url: string;
  git_pull_url: string;
  description: string | null;
  public: boolean;
  files: Record<string, GistFile>;
  owner: { login: string } | null;
  created_at: string;
  updated_at: string;
  truncated: boolean;
  history?: Commit[];
}

/** A gist id as typed, or a gist URL (`…/gist/ID`, `…/gists/ID`, `…/ID.git`), like `gh` accepts. */
export function gistId(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  const id = trimmed.includes('/') ? trimmed.slice(trimmed.lastIndexOf('/') + 1) : trimmed;
  return id.replace(/\.git$/, '');
}

/** A path segment: percent-encoded, dots too, so `.` or `..` can never climb out of `/gists/`. */
export function seg(value: string): string {
  return encodeURIComponent(value).replaceAll('.', '%2E');
}

export const gistPath = (id: string) => `/gists/${seg(gistId(id))}`;

export async function getGist(client: Client, id: string, headers: Record<string, string> = {}): Promise<Gist> {
  return expectOk(await client.request('GET', gistPath(id), { headers })).body as Gist;
}

/** base64 content gives a file's exact bytes (text or not); the API cuts content at 1 MiB. */
export const BASE64 = { accept: 'application/vnd.service.base64+json' };

/** The raw_url as a path the client can request (the server's base URL may carry a path prefix). */
function rawPath(gist: Gist, rawUrl: string): string {
  const base = gist.url.slice(0, gist.url.length - `/gists/${gist.id}`.length);
  return base && rawUrl.startsWith(`${base}/`) ? rawUrl.slice(base.length) : new URL(rawUrl).pathname;
}

export async function fileBytes(client: Client, gist: Gist, file: GistFile): Promise<Buffer> {
  if (!file.truncated) return Buffer.from(file.content ?? '', file.encoding === 'base64' ? 'base64' : 'utf8');
  // Cut at 1 MiB: the raw URL serves the whole file.
  return Buffer.from(expectOk(await client.request('GET', rawPath(gist, file.raw_url))).text, 'utf8');
}

/** A file named on the command line, as UTF-8 text (the API's `content` is a string); unreadable or binary: exit 2. */
export function readTextFile(file: string): { filename: string; content: string } {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    throw new CliExit(EXIT.usage, `hublet: cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { filename: path.basename(file), content: utf8(bytes, file) };
}

/** Everything on stdin, as UTF-8 text. */
export async function readStdin(io: IO): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readAll(io.stdin);
  } catch (err) {
    throw new CliExit(EXIT.usage, `hublet: cannot read stdin: ${err instanceof Error ? err.message : String(err)}`);
  }
  return utf8(bytes, 'stdin');
}

/** Bytes as text when they are UTF-8 without NUL (a byte order mark kept); undefined for binary content. */
export function asText(bytes: Buffer): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return text.includes('\0') ? undefined : text;
  } catch {
    return undefined;
  }
}

function utf8(bytes: Buffer, what: string): string {
  const text = asText(bytes);
  if (text === undefined) throw new CliExit(EXIT.usage, `hublet: ${what} is binary; gists take text here (push binary files with git)`);
  return text;
}

/**
 * Follows a list's pages (`page`, `per_page`; next while the `Link` header names one) until `limit` items pass `keep`.
 */
export async function collectPages<T>(client: Client, listPath: string, limit: number, keep?: (item: T) => boolean): Promise<T[]> {
  const out: T[] = [];
  // Filtered lists take full pages; otherwise no bigger page than the limit needs.
  const perPage = keep || !Number.isFinite(limit) ? 100 : Math.min(100, Math.max(1, limit));
  for (let page = 1; out.length < limit; page++) {
    const sep = listPath.includes('?') ? '&' : '?';
    const res = expectOk(await client.request('GET', `${listPath}${sep}per_page=${perPage}&page=${page}`));
    for (const item of res.body as T[]) {
      if (out.length >= limit) break;
      if (!keep || keep(item)) out.push(item);
    }
    if (!/rel="next"/.test(res.headers.link ?? '')) break;
  }
  return out;
}

/** `n file(s)` for tables. */
export function fileCount(g: Pick<Gist, 'files'>): string {
  const n = Object.keys(g.files).length;
  return `${n} ${n === 1 ? 'file' : 'files'}`;
}

/** File names in byte order, as `gh` lists them. */
export function sortedNames(files: Record<string, unknown>): string[] {
  return Object.keys(files).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
