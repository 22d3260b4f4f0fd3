// Gist search on 100,000 gists: `GET /search/gists?q=…` with a common word (in about two thirds of the gists), a rare
// word (in a handful) and a word with a qualifier (`language:python`), each measured with a closed loop of 10
// connections (as the other latency case); the row's p99 is the worst of the three. The gists are written straight into the
// database through the gists store (insertFiles writes the files and their search documents, as every write does),
// a transaction of 1,000 at a time: descriptions of a few words and 1–3 files of a few hundred bytes of code or notes
// in a vocabulary of about 3,000 words drawn with Zipf-like odds. Seeded gists have no git repository (nothing here
// opens one).
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { isPostgresDb } from '../../../src/db/dialect.js';
import { insertFiles, insertRevisions } from '../../../src/gists/store.js';
import { fileRow } from '../../../src/gists/write.js';
import type { GistFileRow, GistRevisionRow, GistRow } from '../../../src/db/tables/gists.js';
import { atMost, describeGoals } from '../goals.js';
import { probeLatency, type LoadRequest } from '../load.js';
import { peakRssMiB } from '../processes.js';
import { createUsers, withDb } from '../seed.js';
import { median, rowOf, type Round } from '../stats.js';
import type { BenchCase } from '../types.js';

const WORDS = `data value list item user name file path config request response error result query table index key map
string number count total time date start end size type node tree cache queue event handler client server socket
buffer stream token session header body json yaml html text line word page view model state store action input output
parse format render build test check load save read write open close send fetch update delete create insert select
filter sort merge split join find match replace append remove clear reset init setup run exec call apply bind
async await promise callback timeout retry loop range array object class module package import export default public
private static const let var def func lambda yield print log debug info warn trace assert raise throw catch finally
null true false none self this super new return break continue switch case else while for each`.split(/\s+/);

const PROSE = `the a an of to in and or for with on at by from as is are was be this that it its into over under
about after before between through during without within among across simple quick small large fast slow better
notes snippet example helper script tool utility function method approach way idea trick fix workaround
problem solution setup guide howto tutorial reference cheat sheet list of useful commands working with using`.split(/\s+/);

/** About 3,000 words: the lists above, and identifiers made of two of them (as code has). */
const VOCABULARY = [...WORDS, ...PROSE, ...WORDS.flatMap((a, i) => WORDS.slice(i % 7, (i % 7) + 14).map((b) => `${a}_${b}`))];

/** The common word (in the templates of most languages), the rare one (about one gist in 20,000) and the qualified one. */
const COMMON = 'return';
const RARE = 'zyzzyva';
const QUALIFIED = `config language:python`;

/** A deterministic generator, so every run seeds the same words. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generator(seed: number) {
  const rnd = random(seed);
  const word = () => VOCABULARY[Math.floor(rnd() ** 3 * VOCABULARY.length)];
  const words = (n: number) => Array.from({ length: n }, word).join(' ');
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
  const files: [string, () => string][] = [
    [
      'py',
      () =>
        `def ${word()}_${word()}(${word()}, ${word()}):\n    """${words(6)}"""\n    ${word()} = ${word()}.${word()}(${word()})\n    if ${word()}:\n        return ${word()}\n    return [${word()} for ${word()} in ${word()}]\n`,
    ],
    [
      'js',
      () =>
        `export async function ${word()}(${word()}) {\n  // ${words(6)}\n  const ${word()} = await ${word()}.${word()}(${word()});\n  if (!${word()}) throw new Error('${words(3)}');\n  return ${word()}.${word()};\n}\n`,
    ],
    [
      'go',
      () =>
        `func ${word()}(${word()} string) (int, error) {\n\t// ${words(6)}\n\t${word()} := ${word()}.${word()}(${word()})\n\treturn len(${word()}), nil\n}\n`,
    ],
    ['sh', () => `#!/bin/sh\n# ${words(6)}\nset -e\n${word()}=$(${word()} --${word()} "$1")\necho "${words(4)}" >> ${word()}.log\n`],
    ['md', () => `# ${words(3)}\n\n${words(25)}.\n\n- ${words(5)}\n- ${words(5)}\n\n${words(20)}.\n`],
    [
      'sql',
      () =>
        `select ${word()}, count(*) from ${word()}\nwhere ${word()} = '${word()}'\ngroup by ${word()} order by 2 desc; -- ${words(5)}\n`,
    ],
    ['yml', () => `${word()}:\n  ${word()}: ${word()}\n  ${word()}: [${word()}, ${word()}]\n# ${words(6)}\n`],
  ];
  return {
    description: () => words(2 + Math.floor(rnd() * 5)),
    files(rare: boolean): { name: string; content: string }[] {
      const n = 1 + Math.floor(rnd() * 3);
      return Array.from({ length: n }, (_, i) => {
        const [ext, body] = pick(files);
        const content = body() + (rare && i === 0 ? `# ${RARE}\n` : '');
        return { name: `${word().replace(/_/g, '-')}${i}.${ext}`, content };
      });
    },
  };
}

/** git's blob id of some bytes. */
const blobSha = (content: Buffer) => crypto.createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');

/** Adds `count` public gists of `owners` (in turn), 1,000 to a transaction, their search documents written with them. */
async function seedSearchable(databaseUrl: string, owners: number[], count: number): Promise<void> {
  const gen = generator(42);
  const base = Date.parse('2025-01-01T00:00:00Z');
  await withDb(databaseUrl, async (db) => {
    for (let from = 0; from < count; from += 1000) {
      const gists: GistRow[] = [];
      const files: GistFileRow[] = [];
      const revisions: GistRevisionRow[] = [];
      for (let i = from; i < Math.min(count, from + 1000); i++) {
        const id = crypto.randomBytes(16).toString('hex');
        const at = new Date(base + i * 1000).toISOString();
        const head = crypto.randomBytes(20).toString('hex');
        const owner = owners[i % owners.length];
        gists.push({
          id,
          owner_id: owner,
          description: gen.description(),
          public: 1,
          fork_of: null,
          head_sha: head,
          comments: 0,
          created_at: at,
          updated_at: at,
        });
        let lines = 0;
        for (const f of gen.files(i % 20_000 === 7)) {
          const bytes = Buffer.from(f.content);
          files.push(await fileRow(id, f.name, bytes, blobSha(bytes)));
          lines += f.content.split('\n').length - 1;
        }
        revisions.push({
          gist_id: id,
          version: head,
          position: 0,
          user_id: owner,
          committed_at: at,
          additions: lines,
          deletions: 0,
          total: lines,
        });
      }
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < gists.length; i += 100)
          await trx
            .insertInto('gists')
            .values(gists.slice(i, i + 100))
            .execute();
        await insertFiles(trx, files);
        await insertRevisions(trx, revisions);
      });
    }
    // PostgreSQL's autovacuum would analyze the new rows soon after; do it now so plans are the steady state's.
    if (isPostgresDb(db)) await sql`analyze`.execute(db);
  });
}

const GOALS = [atMost('p99', 50, ' ms (the worst of the three queries)', 'p99 ')];

const searchCase: BenchCase = {
  name: 'GET /search/gists on 100,000 gists (common word, rare word, qualifier)',
  target: describeGoals(GOALS),
  goals: GOALS,
  freshServer: true,
  async run(ctx) {
    const count = ctx.quick ? 3_000 : 100_000;
    const owners = await createUsers(ctx.api, 'seeker', 10);
    const t0 = performance.now();
    await seedSearchable(ctx.server.databaseUrl, owners, count);
    const seedSeconds = Math.round((performance.now() - t0) / 100) / 10;
    await ctx.server.restart();
    const headers = { authorization: `Bearer ${ctx.server.adminToken}`, accept: 'application/vnd.service+json' };
    const queries = { common: COMMON, rare: RARE, qualifier: QUALIFIED };
    const request = (q: string): LoadRequest => ({ path: `/search/gists?q=${encodeURIComponent(q)}`, headers });
    const totals: Record<string, number> = {};
    for (const [name, q] of Object.entries(queries)) {
      const res = await fetch(ctx.server.url + request(q).path, { headers });
      const body = (await res.json()) as { total_count?: number };
      if (res.status !== 200) throw new Error(`${q}: ${res.status} ${JSON.stringify(body)}`);
      totals[name] = body.total_count ?? 0;
    }
    const settings = { ...ctx.settings, connections: 10, warmupSec: 0 };
    if (ctx.settings.warmupSec > 0)
      for (const q of Object.values(queries))
        await probeLatency(ctx.server.url, request(q), { ...settings, durationSec: ctx.settings.warmupSec });
    const rounds: Round[] = [];
    for (let i = 0; i < ctx.rounds; i++) {
      const round: Round = {};
      for (const [name, q] of Object.entries(queries)) {
        const r = await probeLatency(ctx.server.url, request(q), settings);
        Object.assign(round, {
          [`${name}Rps`]: r.rps,
          [`${name}P50`]: r.p50,
          [`${name}P99`]: r.p99,
          [`${name}Problems`]: r.errors + r.non2xx,
        });
      }
      round.p99 = Math.max(round.commonP99, round.rareP99, round.qualifierP99);
      round.p50 = Math.max(round.commonP50, round.rareP50, round.qualifierP50);
      round.value = Math.min(round.commonRps, round.rareRps, round.qualifierRps);
      rounds.push(round);
    }
    const m = (k: string) => median(rounds.map((r) => r[k]));
    const problems = rounds.reduce((n, r) => n + r.commonProblems + r.rareProblems + r.qualifierProblems, 0);
    return rowOf({
      case: `GET /search/gists on ${count.toLocaleString('en')} gists (common word, rare word, qualifier)${ctx.quick ? ' (QUICK)' : ''}`,
      unit: 'req/s',
      rounds,
      peakRssMiB: peakRssMiB(ctx.server.pid),
      goals: GOALS,
      target: describeGoals(GOALS),
      note:
        `10 connections; "${COMMON}" (${totals.common} matches) p50 ${m('commonP50')} / p99 ${m('commonP99')} ms, ${m('commonRps')} req/s; ` +
        `"${RARE}" (${totals.rare}) p50 ${m('rareP50')} / p99 ${m('rareP99')} ms, ${m('rareRps')} req/s; ` +
        `"${QUALIFIED}" (${totals.qualifier}) p50 ${m('qualifierP50')} / p99 ${m('qualifierP99')} ms, ${m('qualifierRps')} req/s; ` +
        `throughput column: the slowest query's; seeded in ${seedSeconds} s${problems ? `; ${problems} errors/non-2xx` : ''}`,
      details: { seedSeconds, totals, roundSeconds: ctx.settings.durationSec },
    });
  },
};

export const searchCases: BenchCase[] = [searchCase];
