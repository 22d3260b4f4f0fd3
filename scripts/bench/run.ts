// `make bench`: runs every case against a real `hublet serve` and a same-run baseline; prints a markdown table and
// writes the same as JSON under bench/results/.
// Usage: run.ts [--quick] [--database postgres://…] [--only SUBSTRING] [--label NAME] [--profile DIR]
// HUBLET_BENCH_BIN=tsx measures bin/hublet (sources through tsx) instead of dist/hublet.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accountCases } from './cases/accounts.js';
import { gistCases } from './cases/gists.js';
import { hookCases } from './cases/hooks.js';
import { migrationCases } from './cases/migrations.js';
import { startupCases } from './cases/startup.js';
import { hubletCommand, startHublet, type HubletServer } from './processes.js';
import type { BenchCase, BenchContext, CaseResult } from './types.js';

const CASES: BenchCase[] = [...startupCases, ...accountCases, ...gistCases, ...hookCases, ...migrationCases];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const quick = process.argv.includes('--quick');
const database = arg('--database');
const only = arg('--only');
/** Writes bench/results/<label>.json instead of latest*.json (runs kept for before/after comparisons). */
const label = arg('--label');
/** Servers run under `node --cpu-prof` into this directory (summarise with profile-summary.ts). */
const profileDir = arg('--profile');
if (profileDir) process.env.HUBLET_BENCH_PROFILE = path.resolve(profileDir);
// QUICK keeps every case brief (under 60 s in all): it proves the harness works, its numbers are not judged.
const settings = quick ? { connections: 50, durationSec: 1, warmupSec: 0.5 } : { connections: 50, durationSec: 10, warmupSec: 3 };

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

function table(results: CaseResult[]): string {
  const fmt = (n: number | null | undefined, digits = 0) => (n === null || n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits));
  const ratio = (r: CaseResult) => (r.ratio == null ? '–' : `${r.ratio}×${r.ratioOf ? ` ${r.ratioOf}` : ''}`);
  const rows = results.map((r) => `| ${r.case} | ${fmt(r.value, r.value < 10 ? 2 : 0)} ${r.unit} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${ratio(r)} | ${fmt(r.peakRssMiB)} | ${r.target} |`);
  return ['| case | throughput | p50 ms | p99 ms | ratio to baseline | peak RSS MiB | target |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}

async function main(): Promise<void> {
  const selected = CASES.filter((c) => !only || c.name.includes(only));
  const results: CaseResult[] = [];
  const started = Date.now();
  let shared: HubletServer | undefined;
  try {
    for (const c of selected) {
      const own = c.freshServer || c.serverEnv;
      const fresh = own ? await startHublet({ database, env: c.serverEnv }) : undefined;
      if (!fresh && !shared && !c.noServer) shared = await startHublet({ database });
      const server = fresh ?? shared ?? (undefined as unknown as HubletServer);
      const extra: HubletServer[] = [];
      process.stderr.write(`… ${c.name}\n`);
      const t0 = Date.now();
      try {
        results.push(await c.run(context(server, extra)));
      } catch (err) {
        results.push({ case: c.name, unit: '', value: NaN, target: c.target, note: `FAILED: ${err instanceof Error ? err.stack ?? err.message : String(err)}` });
      } finally {
        await Promise.all([fresh, ...extra].map((s) => s?.stop()));
      }
      process.stderr.write(`  (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
    }
  } finally {
    await shared?.stop();
  }
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${hubletCommand().label}, ${database ? 'PostgreSQL' : 'SQLite'}${quick ? ', QUICK' : ''}`;
  const md = `${table(results)}\n\n${machine}; load average before the run ${loadBefore}\n`;
  process.stdout.write(md);
  for (const r of results) if (r.note) process.stdout.write(`- ${r.case}: ${r.note}\n`);
  process.stdout.write(`(${((Date.now() - started) / 1000).toFixed(1)} s in all)\n`);
  const dir = path.resolve('bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const doc = JSON.stringify({ at: new Date().toISOString(), machine, loadAverage: loadBefore, quick, database: database ? 'postgres' : 'sqlite', results }, null, 2);
  const name = label ? `${label}.json` : quick ? 'latest-quick.json' : database ? 'latest-postgres.json' : 'latest.json';
  fs.writeFileSync(path.join(dir, name), `${doc}\n`);
  if (results.some((r) => Number.isNaN(r.value))) process.exitCode = 1;
}

const loadBefore = os.loadavg().map((n) => n.toFixed(1)).join(' ');
await main();
