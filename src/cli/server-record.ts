// The public URL `hublet serve` last used on a data dir, recorded there as `server.json` once it listens (the port 0
// picked, https with TLS, or --base-url), so that local mode's links (clone URLs, webhook payloads, a gist clone's
// origin) point at the running server rather than at the default port. A file, not a database row: it belongs to the
// data dir whatever the database is, and is read before the database is opened.
import fs from 'node:fs';
import path from 'node:path';

const FILE = 'server.json';

interface ServerRecord {
  base_url: string;
  port: number;
  pid: number;
  started_at: string;
}

function serverRecordPath(dataDir: string): string {
  return path.join(dataDir, FILE);
}

/** What the last `serve` recorded in this data dir, if anything readable. */
export function readServerRecord(dataDir: string): ServerRecord | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(serverRecordPath(dataDir), 'utf8')) as ServerRecord;
    return typeof parsed.base_url === 'string' && parsed.base_url ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Records the URL a server now listening uses (written whole: a temporary file renamed into place). */
export function writeServerRecord(dataDir: string, baseUrl: string, port: number, now: Date): void {
  const file = serverRecordPath(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  const record: ServerRecord = { base_url: baseUrl, port, pid: process.pid, started_at: now.toISOString() };
  fs.writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`);
  fs.renameSync(tmp, file);
}
