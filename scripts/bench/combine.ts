// docs/performance.md's table from several full runs (bench/results/*.json): per case, the median of the runs'
// medians with the min–max over all their rounds, the machine, the range of the load average read before the case,
// and the target with met/missed judged on that median.
// Usage: node --import tsx scripts/bench/combine.ts bench/results/a.json b.json c.json
import fs from 'node:fs';
import path from 'node:path';
import type { Goal } from './goals.js';
import { median, spreadOf, type Spread } from './stats.js';
import { markdownTable, type TableRow } from './table.js';
import type { CaseResult } from './types.js';

interface RunDoc {
  at: string;
  machine: string;
  cpus?: string;
  loadAverage: string;
  quick: boolean;
  rounds?: number;
  database: string;
  results: CaseResult[];
}

/** A row's spreads; a run from before rounds were kept has its single figures (min = max = the figure). */
function statsOf(r: CaseResult): Record<string, Spread> {
  if (r.stats) return r.stats;
  const single: Record<string, Spread> = {};
  for (const k of ['value', 'p50', 'p99', 'ratio', 'peakRssMiB'] as const) {
    const v = r[k];
    if (typeof v === 'number' && Number.isFinite(v)) single[k] = spreadOf([v]);
  }
  return single;
}

/** The median of the runs' medians, and the lowest min and highest max of any of them. */
function combined(spreads: Spread[]): Spread {
  const kept = spreads.filter((s) => Number.isFinite(s.median));
  return { median: median(kept.map((s) => s.median)), min: Math.min(...kept.map((s) => s.min)), max: Math.max(...kept.map((s) => s.max)) };
}

const files = process.argv.slice(2);
if (!files.length) {
  process.stderr.write('usage: combine.ts RUN.json [RUN.json …] (three full runs make the table of docs/performance.md)\n');
  process.exit(2);
}
const runs = files.map((f) => ({ file: path.basename(f), doc: JSON.parse(fs.readFileSync(f, 'utf8')) as RunDoc }));
for (const what of ['quick', 'database'] as const) {
  const seen = new Set(runs.map((r) => String(r.doc[what])));
  if (seen.size > 1) process.stderr.write(`warning: the runs differ in ${what} (${[...seen].join(', ')})\n`);
}
if (runs.some((r) => r.doc.quick))
  process.stderr.write('warning: QUICK runs prove the harness, their numbers are not for docs/performance.md\n');

const order: string[] = [];
const byCase = new Map<string, { run: RunDoc; result: CaseResult }[]>();
for (const { doc } of runs) {
  for (const result of doc.results) {
    if (!byCase.has(result.case)) {
      byCase.set(result.case, []);
      order.push(result.case);
    }
    byCase.get(result.case)!.push({ run: doc, result });
  }
}

const rows: TableRow[] = order.map((name) => {
  const entries = byCase.get(name)!;
  const latest = entries[entries.length - 1].result;
  const perRun = entries.map((e) => statsOf(e.result));
  const keys = [...new Set(perRun.flatMap((s) => Object.keys(s)))];
  const stats = Object.fromEntries(keys.map((k) => [k, combined(perRun.flatMap((s) => (s[k] ? [s[k]] : [])))]));
  // Runs from before per-case loads were kept have only the load average before the whole run.
  const loads = entries.map((e) => e.result.load1m ?? Number(e.run.loadAverage.split(' ')[0]));
  const machines = [...new Set(entries.map((e) => e.result.machine ?? e.run.cpus ?? e.run.machine.split(',')[0]))];
  const missing = runs.length - entries.length;
  return {
    case: missing ? `${name} (in ${entries.length} of ${runs.length} runs)` : name,
    unit: latest.unit,
    ratioOf: latest.ratioOf,
    stats,
    load: spreadOf(loads),
    machine: machines.join(', '),
    target: latest.target,
    goals: latest.goals as Goal[] | undefined,
  };
});

const rounds = [...new Set(runs.map((r) => r.doc.rounds ?? 1))].join(' or ');
const dates = runs.map((r) => r.doc.at.slice(0, 16).replace('T', ' ')).join(', ');
const setups = [...new Set(runs.map((r) => r.doc.machine))];
process.stdout.write(
  [
    markdownTable(rows, { machineColumn: true }),
    '',
    `${runs.length} ${runs.some((r) => r.doc.quick) ? '' : 'full '}runs (${runs.map((r) => r.file).join(', ')}; ${dates} UTC) on ${setups.join(' / ')}. Each HTTP case ran ${rounds} measured round(s) a run: a cell is the median of the runs' medians, with the lowest and highest round of any run; a ratio is a round's hublet figure against the baseline's in the same round${rows.some((r) => r.stats.stackRatio) ? " (the ratio to stack: against the minimal Fastify server's, stack-server.mjs)" : ''}. Load (1 min) is the range, over the runs, of the load average read right before the case started (the previous case's own load decays into it). Met or missed is judged on the median.`,
    '',
  ].join('\n'),
);
