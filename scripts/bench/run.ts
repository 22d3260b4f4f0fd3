// `make bench`: runs every case against a real `hublet serve` and a same-run baseline, in rounds (3 in a full run, 1 in
// QUICK); prints a markdown table (median with min–max, the load average before each case) and writes the same as JSON,
// every round included, under bench/results/. Three full runs make docs/performance.md's table: combine.ts.
// Usage: run.ts [--quick] [--database postgres://…] [--processes N] [--only SUBSTRING[|SUBSTRING…]] [--label NAME]
//   [--profile DIR] [--rounds N] [--round-seconds S]
// --processes N (PostgreSQL only) runs each server under test as N `hublet serve` processes on one data dir and database,
// the load spread evenly over them (rows say so); the baseline stays one process.
// HUBLET_BENCH_BIN=tsx measures bin/hublet (sources through tsx) instead of dist/hublet.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accountCases } from './cases/accounts.js';
import { areaReadCases } from './cases/area-reads.js';
import { gistCases } from './cases/gists.js';
import { hookCases } from './cases/hooks.js';
import { migrationCases } from './cases/migrations.js';
import { searchCases } from './cases/search.js';
import { startupCases } from './cases/startup.js';
import { webCases } from './cases/web.js';
import { hubletCommand, startHublet, type HubletServer } from './processes.js';
import { spreadOf } from './stats.js';
import { markdownTable } from './table.js';
import type { BenchCase, BenchContext, CaseResult } from './types.js';

const CASES: BenchCase[] = [
  ...startupCases,
  ...accountCases,
  ...areaReadCases,
  ...gistCases,
  ...searchCases,
  ...hookCases,
  ...migrationCases,
  ...webCases,
];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const quick = process.argv.includes('--quick');
const database = arg('--database');
/** Cases whose name contains any of these `|`-separated substrings. */
const only = arg('--only')?.split('|');
/** Server processes per installation under test (several need --database). */
const processes = Number(arg('--processes')) || 1;
if (processes > 1 && !database)
  throw new Error('--processes needs --database postgres://… (several servers share one PostgreSQL database)');
/** Writes bench/results/<label>.json instead of latest*.json (runs kept for before/after comparisons). */
const label = arg('--label');
/** Servers run under `node --cpu-prof` into this directory (summarise with profile-summary.ts). */
const profileDir = arg('--profile');
if (profileDir) process.env.HUBLET_BENCH_PROFILE = path.resolve(profileDir);
// QUICK keeps every case brief (under 60 s in all): it proves the harness works, its numbers are not judged.
// A full run measures each HTTP case in 3 rounds of 5 s after one 3 s warm-up per side (about as long as the single 10 s
// round it replaced, with a spread to show); --rounds N changes the count (1 for a profile, say).
// --round-seconds S changes the rounds' length (cases with their own length, POST /gists, keep it).
const settings = quick ? { connections: 50, durationSec: 0.5, warmupSec: 0.25 } : { connections: 50, durationSec: 5, warmupSec: 3 };
if (Number(arg('--round-seconds')) > 0) settings.durationSec = Number(arg('--round-seconds'));
const rounds = Number(arg('--rounds')) || (quick ? 1 : 3);
/** CPU cores and model: each row says which machine it ran on. */
const cpus = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}`;

async function jsonRequest(server: HubletServer, method: string, p: string, body?: unknown, token = server.adminToken): Promise<any> {
  const res = await fetch(server.url + p, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/vnd.service+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

function context(server: HubletServer, extra: HubletServer[]): BenchContext {
  return {
    server,
    settings,
    rounds,
    quick,
    api: (method, p, body, token) => jsonRequest(server, method, p, body, token),
    apiOn: (other, method, p, body, token) => jsonRequest(other, method, p, body, token),
    async startServer(env) {
      const s = await startHublet({ database, env });
      extra.push(s);
      return s;
    },
  };
}

async function main(): Promise<void> {
  const selected = CASES.filter((c) => !only || only.some((o) => c.name.includes(o)));
  const results: CaseResult[] = [];
  const started = Date.now();
  let shared: HubletServer | undefined;
  try {
    for (const c of selected) {
      // Read before the case starts anything (its own servers, seeding); the previous case's load is still in it.
      const load1m = Math.round(os.loadavg()[0] * 100) / 100;
      const own = c.freshServer || c.serverEnv;
      const fresh = own ? await startHublet({ database, env: c.serverEnv, processes }) : undefined;
      if (!fresh && !shared && !c.noServer) shared = await startHublet({ database, processes });
      const server = fresh ?? shared ?? (undefined as unknown as HubletServer);
      const extra: HubletServer[] = [];
      process.stderr.write(`… ${c.name}\n`);
      const t0 = Date.now();
      let rows: CaseResult[];
      try {
        rows = [await c.run(context(server, extra))].flat();
      } catch (err) {
        rows = [
          {
            case: c.name,
            unit: '',
            value: NaN,
            target: c.target,
            goals: c.goals,
            note: `FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
          },
        ];
      } finally {
        await Promise.all([fresh, ...extra].map((s) => s?.stop()));
      }
      for (const result of rows) {
        const caseName = processes > 1 ? `${result.case} [${processes} processes]` : result.case;
        results.push({ ...result, case: caseName, machine: cpus, load1m, load1mAfter: Math.round(os.loadavg()[0] * 100) / 100 });
      }
      process.stderr.write(`  (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
    }
  } finally {
    await shared?.stop();
  }
  const machine = `${cpus}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${hubletCommand().label}, ${database ? 'PostgreSQL' : 'SQLite'}${processes > 1 ? ` × ${processes} server processes` : ''}${quick ? ', QUICK' : ''}`;
  const rows = results.map((r) => ({ ...r, stats: r.stats ?? {}, load: r.load1m === undefined ? undefined : spreadOf([r.load1m]) }));
  const md = `${markdownTable(rows)}\n\n${machine}; ${rounds} round(s) a case, median (min–max); load average before the run ${loadBefore}\n`;
  process.stdout.write(md);
  for (const r of results) if (r.note) process.stdout.write(`- ${r.case}: ${r.note}\n`);
  process.stdout.write(`(${((Date.now() - started) / 1000).toFixed(1)} s in all)\n`);
  const dir = path.resolve('bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const doc = JSON.stringify(
    {
      at: new Date().toISOString(),
      machine,
      cpus,
      loadAverage: loadBefore,
      quick,
      rounds,
      database: database ? 'postgres' : 'sqlite',
      processes,
      settings,
      seconds: Math.round((Date.now() - started) / 1000),
      results,
    },
    null,
    2,
  );
  const name = label
    ? `${label}.json`
    : quick
      ? 'latest-quick.json'
      : database
        ? `latest-postgres${processes > 1 ? `-${processes}p` : ''}.json`
        : 'latest.json';
  fs.writeFileSync(path.join(dir, name), `${doc}\n`);
  if (results.some((r) => Number.isNaN(r.value))) process.exitCode = 1;
}

const loadBefore = os
  .loadavg()
  .map((n) => n.toFixed(1))
  .join(' ');
await main();
