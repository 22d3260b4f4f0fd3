// `make bench`: runs every case against a real `hublet serve` and a same-run baseline; prints a markdown table and
// writes the same as JSON under bench/results/. Usage: run.ts [--quick] [--database postgres://…] [--only SUBSTRING]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accountCases } from './cases/accounts.js';
import { hubletCommand, startHublet, type HubletServer } from './processes.js';
import type { BenchCase, BenchContext, CaseResult } from './types.js';

const CASES: BenchCase[] = [...accountCases];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const quick = process.argv.includes('--quick');
const database = arg('--database');
const only = arg('--only');
const settings = quick ? { connections: 50, durationSec: 2, warmupSec: 1 } : { connections: 50, durationSec: 10, warmupSec: 3 };

function context(server: HubletServer): BenchContext {
  return {
    server,
    settings,
    quick,
    async api(method, p, body, token = server.adminToken) {
      const res = await fetch(server.url + p, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/vnd.service+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : null;
    },
  };
}

function table(results: CaseResult[]): string {
  const fmt = (n: number | null | undefined, digits = 0) => (n === null || n === undefined ? '–' : n.toFixed(digits));
  const rows = results.map((r) => `| ${r.case} | ${fmt(r.value)} ${r.unit} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${r.ratio == null ? '–' : `${r.ratio}×`} | ${fmt(r.peakRssMiB)} | ${r.target} |`);
  return ['| case | throughput | p50 ms | p99 ms | ratio to baseline | peak RSS MiB | target |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}

async function main(): Promise<void> {
  const selected = CASES.filter((c) => !only || c.name.includes(only));
  const results: CaseResult[] = [];
  let shared: HubletServer | undefined;
  try {
    for (const c of selected) {
      const fresh = c.freshServer ? await startHublet({ database }) : undefined;
      if (!fresh && !shared) shared = await startHublet({ database });
      const server = fresh ?? shared!;
      process.stderr.write(`… ${c.name}\n`);
      try {
        results.push(await c.run(context(server)));
      } catch (err) {
        results.push({ case: c.name, unit: '', value: NaN, target: c.target, note: `FAILED: ${err instanceof Error ? err.message : String(err)}` });
      } finally {
        await fresh?.stop();
      }
    }
  } finally {
    await shared?.stop();
  }
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${hubletCommand().label}, ${database ? 'PostgreSQL' : 'SQLite'}${quick ? ', QUICK' : ''}`;
  const md = `${table(results)}\n\n${machine}\n`;
  process.stdout.write(md);
  for (const r of results) if (r.note) process.stdout.write(`- ${r.case}: ${r.note}\n`);
  const dir = path.resolve('bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const doc = JSON.stringify({ at: new Date().toISOString(), machine, quick, database: database ? 'postgres' : 'sqlite', results }, null, 2);
  fs.writeFileSync(path.join(dir, quick ? 'latest-quick.json' : `${stamp}.json`), doc);
  if (!quick) fs.writeFileSync(path.join(dir, 'latest.json'), doc);
  if (results.some((r) => Number.isNaN(r.value))) process.exitCode = 1;
}

await main();
