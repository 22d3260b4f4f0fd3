// `hublet migration download ID [--org ORG] [-o FILE]`: the archive, resuming a partial file, with a progress bar on a terminal.
//
// The same way in both modes: GET …/archive answers with a redirect to a signed URL, which is fetched (HEAD for its
// size, then GET, with Range and If-Range to resume) where the client reaches it: remotely the URL itself; locally the
// same path on the client's loopback gateway into the in-process app, which streams it from the archive store.
import fs from 'node:fs';
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import { withClient, type Factory } from '../factory.js';
import { bytes, Progress } from './progress.js';
import { basePath, migrationId, withOrgOption, type ScopeOptions } from './shared.js';

interface DownloadOptions extends ScopeOptions {
  client: Client;
  id: string;
  /** Where to save it (default migration_archive_ID.tar.gz). */
  output?: string;
  json: boolean;
}

interface Source {
  size: number;
  etag: string | undefined;
  /** The bytes from `start` on (If-Range: a different file answers whole, and that is refused). */
  open(start: number): Promise<AsyncIterable<Uint8Array>>;
}

/** The signed URL as the client reaches it, asked once for its size and validator. */
async function archiveSource(client: Client, location: string): Promise<Source> {
  const target = await client.reach(location);
  const auth: Record<string, string> = target.token ? { authorization: `Bearer ${target.token}` } : {};
  const { request } = await import('undici');
  const head = await request(target.url, { method: 'HEAD', headers: auth });
  await head.body.dump();
  if (head.statusCode !== 200) throw new CliExit(EXIT.error, `hublet: the archive answered ${head.statusCode}`);
  const size = Number(head.headers['content-length']);
  const etag = head.headers.etag as string | undefined;
  return {
    size,
    etag,
    async open(start) {
      const range: Record<string, string> = start > 0 ? { range: `bytes=${start}-`, ...(etag ? { 'if-range': etag } : {}) } : {};
      const res = await request(target.url, { headers: { ...range, ...auth } });
      if ((start > 0 && res.statusCode !== 206) || (start === 0 && res.statusCode !== 200)) {
        await res.body.dump();
        throw new CliExit(EXIT.error, `hublet: the archive answered ${res.statusCode}`);
      }
      return res.body;
    },
  };
}

async function runDownload(opts: DownloadOptions, io: IO): Promise<void> {
  const { client, id } = opts;
  const res = await client.request('GET', `${basePath(opts)}/${id}/archive`);
  if (res.status !== 302) {
    expectOk(res);
    throw new CliExit(EXIT.error, `hublet: expected a redirect to the archive, got ${res.status}`);
  }
  const source = await archiveSource(client, res.headers.location);
  const file = opts.output ?? `migration_archive_${id}.tar.gz`;
  let have = fs.existsSync(file) ? fs.statSync(file).size : 0;
  if (have > source.size) have = 0;
  const progress = new Progress(io);
  const started = Date.now();
  let received = 0;
  const draw = (force = false) => {
    const done = have + received;
    const width = 30;
    const filled = source.size ? Math.round((done / source.size) * width) : width;
    const rate = received / Math.max(0.001, (Date.now() - started) / 1000);
    progress.update(`[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${bytes(done)} / ${bytes(source.size)}  ${bytes(Math.round(rate))}/s`, force);
  };
  if (have < source.size) {
    const body = await source.open(have);
    const out = fs.createWriteStream(file, { flags: have > 0 ? 'a' : 'w' });
    try {
      for await (const chunk of body) {
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
        received += chunk.length;
        draw();
      }
    } finally {
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    }
    draw(true);
    progress.done();
  }
  const size = fs.statSync(file).size;
  if (size !== source.size) throw new CliExit(EXIT.error, `hublet: the download stopped at ${bytes(size)} of ${bytes(source.size)}; run the command again to resume`);
  if (opts.json) printJson(io.stdout, { id: Number(id), file, size, resumed_from: have });
  else io.stdout.write(`${file}: ${bytes(size)}${have > 0 ? ` (resumed at ${bytes(have)})` : ''}\n`);
}

export function registerDownload(migration: Command, f: Factory): void {
  withOrgOption(
    migration
      .command('download')
      .argument('<id>', 'migration id', migrationId)
      .description('download the archive (resumes a partial file)')
      .option('-o, --output <file>', 'where to save it (default migration_archive_ID.tar.gz)'),
  ).action(async (id: string, flags: ScopeOptions & { output?: string }, command: Command) =>
    withClient(command, f, (client, g) => runDownload({ org: flags.org, output: flags.output, client, id, json: Boolean(g.json) }, f.io)),
  );
}
