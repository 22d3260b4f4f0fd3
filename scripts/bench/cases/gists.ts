// Gist cases: the single read, the public listing over 100,000 gists, sustained creates and updates, and how the
// single read scales from 1,000 to 1,000,000 gists.
import { httpCase } from '../http-case.js';
import { probeLatency, type LoadRequest, type LoadResult, type RawRequest } from '../load.js';
import { peakRssMiB, type HubletServer } from '../processes.js';
import { createUsers, seedGists, withDb } from '../seed.js';
import type { BenchCase, BenchContext } from '../types.js';

/** Three files of about 700 bytes each (~2 KB of content), as a small real gist. */
export const THREE_FILES: Record<string, { content: string }> = {
  'README.md': { content: `# Notes\n\n${'Some words about this snippet, and how to run it. '.repeat(14)}\n` },
  'main.py': { content: `def main():\n${'    print("hello, world")  # greet\n'.repeat(20)}\nmain()\n` },
  'config.json': { content: `{\n${Array.from({ length: 24 }, (_, i) => `  "key${i}": "value number ${i}"`).join(',\n')}\n}\n` },
};

const auth = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/vnd.service+json' });
const jsonAuth = (token: string) => ({ ...auth(token), 'content-type': 'application/json' });

/** Creates the measured gist (three files) through the API; returns its id. */
async function threeFileGist(api: BenchContext['api']): Promise<string> {
  return (await api('POST', '/gists', { description: 'bench gist', public: true, files: THREE_FILES })).id as string;
}

/**
 * A server holding `count` gists: ten owners and a one-file template through the API, the rest seeded in bulk into
 * its database, then a restart (so the server starts on the seeded database). Returns the measured gist's id.
 */
async function seededServer(ctx: BenchContext, server: HubletServer, count: number): Promise<{ gistId: string; seedSeconds: number }> {
  const api = (method: string, p: string, body?: unknown) => ctx.apiOn(server, method, p, body);
  const owners = await createUsers(api, 'seed', 10);
  const template = await api('POST', '/gists', { description: 'template', public: true, files: { 'notes.md': { content: `# Seeded\n\n${'A line of a seeded gist.\n'.repeat(4)}` } } });
  const gistId = await threeFileGist(api);
  const t0 = performance.now();
  await withDb(server.databaseUrl, (db) => seedGists(db, { count: count - 2, templateGistId: template.id as string, ownerIds: owners }));
  const seedSeconds = Math.round((performance.now() - t0) / 100) / 10;
  await server.restart();
  return { gistId, seedSeconds };
}

const getGist = httpCase({
  name: 'GET /gists/{id} (3 files, ~2 KB), 50 connections',
  target: '≥ 0.5× baseline; p99 ≤ 10 ms',
  async setup(ctx) {
    const id = await threeFileGist(ctx.api);
    return [{ path: `/gists/${id}`, headers: auth(ctx.server.adminToken) }];
  },
});

const publicList = httpCase({
  name: 'GET /gists/public?per_page=100 on 100,000 gists',
  target: '≥ 0.3× baseline',
  freshServer: true,
  async setup(ctx) {
    await seededServer(ctx, ctx.server, 100_000);
    return [{ path: '/gists/public?per_page=100', headers: auth(ctx.server.adminToken) }];
  },
});

const createGists = httpCase({
  name: 'POST /gists (2 small files, git revision written)',
  target: '≥ 500 creates/s sustained over 30 s',
  unit: 'creates/s',
  durationSec: { full: 30, quick: 1 },
  async setup(ctx) {
    const body = JSON.stringify({ description: 'created under load', public: true, files: { 'a.txt': { content: 'first file\n' }, 'b.md': { content: '# second\n' } } });
    return [{ method: 'POST', path: '/gists', headers: jsonAuth(ctx.server.adminToken), body }];
  },
});

const updateGists = httpCase({
  name: 'PATCH /gists/{id} (a file changed: a revision)',
  target: '≥ 400 updates/s',
  unit: 'updates/s',
  async setup(ctx) {
    // One gist per connection, so the per-gist write lock measures writes, not a queue on one gist.
    const ids: string[] = [];
    for (let i = 0; i < ctx.settings.connections; i++) ids.push((await ctx.api('POST', '/gists', { public: true, files: { 'a.txt': { content: 'v0\n' }, 'b.txt': { content: 'stays\n' } } })).id as string);
    let n = 0;
    const setupRequest = (req: RawRequest): RawRequest => {
      n++;
      return { ...req, path: `/gists/${ids[n % ids.length]}`, body: JSON.stringify({ files: { 'a.txt': { content: `revision ${n}\n` } } }) };
    };
    return [{ method: 'PATCH', path: `/gists/${ids[0]}`, headers: jsonAuth(ctx.server.adminToken), body: '{}', setupRequest }];
  },
});

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * p50 of the single read on a big database against the same read on a small one, measured in alternating rounds.
 * Both servers run without the response cache (HUBLET_RESPONSE_CACHE_MB=0): every read goes to the database, which is
 * what this case is about (with the cache, both answer from memory alike).
 */
const scale: BenchCase = {
  name: 'GET /gists/{id} at 1,000,000 gists vs at 1,000',
  target: 'p50 within 1.2× of the same case at 1,000 gists',
  async run(ctx) {
    const large = ctx.quick ? 10_000 : 1_000_000;
    const small = 1_000;
    const uncached = { HUBLET_RESPONSE_CACHE_MB: '0' };
    const [bigServer, smallServer] = [await ctx.startServer(uncached), await ctx.startServer(uncached)];
    const big = await seededServer(ctx, bigServer, large);
    const little = await seededServer(ctx, smallServer, small);
    const settings = { ...ctx.settings, connections: 10 };
    const request = (server: HubletServer, id: string): LoadRequest => ({ path: `/gists/${id}`, headers: auth(server.adminToken) });
    const rounds: { big: LoadResult[]; small: LoadResult[] } = { big: [], small: [] };
    // Alternating rounds, so a noisy neighbour slows both sides alike; the warm-up runs before each round.
    for (let i = 0; i < (ctx.quick ? 1 : 3); i++) {
      rounds.small.push(await probeLatency(smallServer.url, request(smallServer, little.gistId), settings));
      rounds.big.push(await probeLatency(bigServer.url, request(bigServer, big.gistId), settings));
    }
    const p50 = { big: median(rounds.big.map((r) => r.p50)), small: median(rounds.small.map((r) => r.p50)) };
    const p99 = median(rounds.big.map((r) => r.p99));
    const rps = median(rounds.big.map((r) => r.rps));
    const problems = [...rounds.big, ...rounds.small].reduce((n, r) => n + r.errors + r.non2xx, 0);
    return {
      case: `GET /gists/{id} at ${large.toLocaleString('en')} gists vs at ${small.toLocaleString('en')} (response cache off)`,
      unit: 'req/s',
      value: rps,
      p50: p50.big,
      p99,
      ratio: Math.round((p50.big / p50.small) * 100) / 100,
      ratioOf: `p50 vs ${small.toLocaleString('en')} gists`,
      peakRssMiB: peakRssMiB(bigServer.pid),
      target: 'p50 within 1.2× of the same case at 1,000 gists',
      note: `10 connections; p50 ${p50.big} ms at ${large.toLocaleString('en')} gists vs ${p50.small} ms at ${small.toLocaleString('en')} (${small.toLocaleString('en')}: ${median(rounds.small.map((r) => r.rps))} req/s); seeded in ${big.seedSeconds} s${problems ? `; ${problems} errors/non-2xx` : ''}`,
      details: { rounds, seedSeconds: big.seedSeconds },
    };
  },
};

export const gistCases: BenchCase[] = [getGist, publicList, createGists, updateGists, scale];
