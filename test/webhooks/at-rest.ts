// What a database keeps on disk, as someone with the files would read it: every file of the data dir (SQLite file, WAL,
// shm, git data) or `pg_dump` of the PostgreSQL database; and a check that none of some strings appears in those bytes.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { onPostgres } from '../helpers/database.js';

const PG_DUMPS = ['/usr/lib/postgresql/15/bin/pg_dump', '/usr/bin/pg_dump'];

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() ? [p] : [];
  });
}

/** pg_dump of the database; a missing pg_dump fails the test (it never skips). */
async function pgDump(databaseUrl: string): Promise<Buffer> {
  const bin = PG_DUMPS.find((p) => fs.existsSync(p));
  if (!bin) throw new Error(`pg_dump not found (looked at ${PG_DUMPS.join(', ')})`);
  const { stdout } = await promisify(execFile)(bin, ['--no-owner', databaseUrl], { encoding: 'buffer', maxBuffer: 512 * 1024 * 1024 });
  return stdout;
}

/** Every stored byte: on SQLite each file of the data dir apart from the key file, on PostgreSQL a dump. */
async function storedBytes(s: { dataDir: string; databaseUrl: string }): Promise<{ name: string; bytes: Buffer }[]> {
  if (onPostgres) return [{ name: 'pg_dump', bytes: await pgDump(s.databaseUrl) }];
  return filesUnder(s.dataDir)
    .filter((f) => path.basename(f) !== 'secret.key')
    .map((f) => ({ name: path.relative(s.dataDir, f), bytes: fs.readFileSync(f) }));
}

/** Which of `needles` appear in which stored file (expected: none). */
export async function foundAtRest(s: { dataDir: string; databaseUrl: string }, needles: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const { name, bytes } of await storedBytes(s))
    for (const n of needles) if (bytes.includes(Buffer.from(n, 'utf8'))) found.push(`${n} in ${name}`);
  return found;
}

/** The SQLite file and its WAL must exist for a grep of them to mean anything. */
export function expectSqliteFiles(s: { dataDir: string; databaseUrl: string }): void {
  if (onPostgres) return;
  expect(fs.existsSync(s.databaseUrl)).toBe(true);
  expect(fs.existsSync(`${s.databaseUrl}-wal`)).toBe(true);
}
