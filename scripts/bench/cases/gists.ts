// Gist cases: the single read, the public listing over 100,000 gists, sustained creates and updates, and how the
// single read scales from 1,000 to 1,000,000 gists.
import { atLeast, atMost, describeGoals } from '../goals.js';
import { httpCase } from '../http-case.js';
import { probeLatency, type LoadRequest, type RawRequest } from '../load.js';
import { peakRssMiB, type HubletServer } from '../processes.js';
import { createUsers, seedGists, withDb } from '../seed.js';
import { median, rowOf, significant, type Round } from '../stats.js';
import type { BenchCase, BenchContext } from '../types.js';

/** Three files of about 700 bytes each (~2 KB of content), as a small real gist. */
const THREE_FILES: Record<string, { content: string }> = {
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
  const template = await api('POST', '/gists', {
    description: 'template',
    public: true,
    files: { 'notes.md': { content: `# Seeded\n\n${'A line of a seeded gist.\n'.repeat(4)}` } },
  });
  const gistId = await threeFileGist(api);
  const t0 = performance.now();
  await withDb(server.databaseUrl, (db) => seedGists(db, { count: count - 2, templateGistId: template.id as string, ownerIds: owners }));
  const seedSeconds = Math.round((performance.now() - t0) / 100) / 10;
  await server.restart();
  return { gistId, seedSeconds };
}

const getGist = httpCase({
  name: 'GET /gists/{id} (3 files, ~2 KB), 50 connections',
  goals: [atLeast('ratio', 0.5, '× baseline'), atMost('p99', 10, ' ms', 'p99 ')],
  async setup(ctx) {
    const id = await threeFileGist(ctx.api);
    return [{ path: `/gists/${id}`, headers: auth(ctx.server.adminToken) }];
  },
});

const publicList = httpCase({
  name: 'GET /gists/public?per_page=100 on 100,000 gists',
  rowName: (ctx) =>
    ctx.quick ? 'GET /gists/public?per_page=100 on 3,000 gists (QUICK)' : 'GET /gists/public?per_page=100 on 100,000 gists',
  goals: [atLeast('ratio', 0.3, '× baseline')],
  freshServer: true,
  async setup(ctx) {
    // QUICK seeds 10,000 (the harness is what it proves): seeding 100,000 alone takes about 8 s of its minute.
    await seededServer(ctx, ctx.server, ctx.quick ? 3_000 : 100_000);
    return [{ path: '/gists/public?per_page=100', headers: auth(ctx.server.adminToken) }];
  },
});

const createGists = httpCase({
  name: 'POST /gists (2 small files, git revision written), 20 connections',
  // Issue 28: group commit (src/gists/group-commit.ts), 20 writers.
  goals: [atLeast('value', 800, ' creates/s sustained over 30 s'), atMost('p99', 100, ' ms', 'p99 ')],
  connections: 20,
  unit: 'creates/s',
  // Three rounds of 10 s back to back: 30 s of sustained creates, reported as the median of its three thirds.
  durationSec: { full: 10, quick: 0.5 },
  sustained: true,
  async setup(ctx) {
    const body = JSON.stringify({
      description: 'created under load',
      public: true,
      files: { 'a.txt': { content: 'first file\n' }, 'b.md': { content: '# second\n' } },
    });
    return [{ method: 'POST', path: '/gists', headers: jsonAuth(ctx.server.adminToken), body }];
  },
});

/**
 * The gists the PATCH case spreads its updates over. Every answer to an update carries the gist's whole history (as
 * GitHub's does), so with one gist per connection each had ~400 revisions by the last round and the answers grew from
 * 4.5 KB to ~400 KB: the rounds fell from 530 to 250 updates/s as the case went on, measuring the serialization of
 * ever longer histories rather than the write. Over 1,000 gists each gets ~15 revisions in the case's 30 s.
 */
const UPDATED_GISTS = 1_000;

const updateGists = httpCase({
  name: 'PATCH /gists/{id} (a file changed: a revision), 20 connections over 1,000 gists',
  goals: [atLeast('value', 600, ' updates/s'), atMost('p99', 100, ' ms', 'p99 ')],
  connections: 20,
  unit: 'updates/s',
  async setup(ctx) {
    // Many gists, so the per-gist write lock measures writes, not a queue on one gist (and the histories stay short).
    const create = async () =>
      (await ctx.api('POST', '/gists', { public: true, files: { 'a.txt': { content: 'v0\n' }, 'b.txt': { content: 'stays\n' } } }))
        .id as string;
    const ids: string[] = [];
    for (let i = 0; i < (ctx.quick ? 40 : UPDATED_GISTS); i += 50) ids.push(...(await Promise.all(Array.from({ length: 50 }, create))));
    let n = 0;
    const setupRequest = (req: RawRequest): RawRequest => {
      n++;
      return {
        ...req,
        path: `/gists/${ids[n % ids.length]}`,
        body: JSON.stringify({ files: { 'a.txt': { content: `revision ${n}\n` } } }),
      };
    };
    return [{ method: 'PATCH', path: `/gists/${ids[0]}`, headers: jsonAuth(ctx.server.adminToken), body: '{}', setupRequest }];
  },
});

const SCALE_GOALS = [atMost('ratio', 1.2, '× the same read at 1,000 gists', 'p50 ')];

/**
 * p50 of the single read on a big database against the same read on a small one, measured in alternating rounds.
 * Both servers run without the response cache (HUBLET_RESPONSE_CACHE_MB=0): every read goes to the database, which is
 * what this case is about (with the cache, both answer from memory alike).
 */
const scale: BenchCase = {
  name: 'GET /gists/{id} at 1,000,000 gists vs at 1,000',
  target: describeGoals(SCALE_GOALS),
  goals: SCALE_GOALS,
  async run(ctx) {
    const large = ctx.quick ? 3_000 : 1_000_000;
    const small = 1_000;
    const uncached = { HUBLET_RESPONSE_CACHE_MB: '0' };
    const [bigServer, smallServer] = [await ctx.startServer(uncached), await ctx.startServer(uncached)];
    const big = await seededServer(ctx, bigServer, large);
    const little = await seededServer(ctx, smallServer, small);
    const request = (server: HubletServer, id: string): LoadRequest => ({ path: `/gists/${id}`, headers: auth(server.adminToken) });
    const rounds: Round[] = [];
    const settings = { ...ctx.settings, connections: 10, warmupSec: 0 };
    // Both warm up first; then alternating rounds, so a noisy neighbour slows both sides of a round's ratio alike.
    if (ctx.settings.warmupSec > 0) {
      const warmUp = { ...settings, durationSec: ctx.settings.warmupSec };
      await probeLatency(smallServer.url, request(smallServer, little.gistId), warmUp);
      await probeLatency(bigServer.url, request(bigServer, big.gistId), warmUp);
    }
    for (let i = 0; i < ctx.rounds; i++) {
      const s = await probeLatency(smallServer.url, request(smallServer, little.gistId), settings);
      const b = await probeLatency(bigServer.url, request(bigServer, big.gistId), settings);
      rounds.push({
        value: b.rps,
        p50: b.p50,
        p99: b.p99,
        ratio: significant(b.p50 / s.p50),
        smallRps: s.rps,
        smallP50: s.p50,
        smallP99: s.p99,
        problems: b.errors + b.non2xx + s.errors + s.non2xx,
      });
    }
    const problems = rounds.reduce((n, r) => n + r.problems, 0);
    const smallP50 = median(rounds.map((r) => r.smallP50));
    return rowOf({
      case: `GET /gists/{id} at ${large.toLocaleString('en')} gists vs at ${small.toLocaleString('en')} (response cache off)`,
      unit: 'req/s',
      rounds,
      ratioOf: `p50 vs ${small.toLocaleString('en')} gists`,
      peakRssMiB: peakRssMiB(bigServer.pid),
      goals: SCALE_GOALS,
      target: describeGoals(SCALE_GOALS),
      note: `10 connections; p50 ${median(rounds.map((r) => r.p50))} ms at ${large.toLocaleString('en')} gists vs ${smallP50} ms at ${small.toLocaleString('en')} (${small.toLocaleString('en')}: ${median(rounds.map((r) => r.smallRps))} req/s); seeded in ${big.seedSeconds} s${problems ? `; ${problems} errors/non-2xx` : ''}`,
      details: { seedSeconds: big.seedSeconds, roundSeconds: ctx.settings.durationSec },
    });
  },
};

export const gistCases: BenchCase[] = [getGist, publicList, createGists, updateGists, scale];
