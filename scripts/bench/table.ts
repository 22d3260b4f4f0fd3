// The markdown table of bench results, for one run (run.ts) and for several combined (combine.ts): each cell is the
// median with (min–max) when the rounds or runs differ, a "load (1 min)" column, and the target with met/missed; a
// "ratio to stack" column (hublet against the minimal Fastify server in the same rounds) when a row has one.
import { verdict, type Goal } from './goals.js';
import type { Spread } from './stats.js';

export interface TableRow {
  case: string;
  unit: string;
  ratioOf?: string;
  stats: Record<string, Spread>;
  /** The 1-minute load average read right before the case started (a range over combined runs). */
  load?: Spread;
  /** CPU cores and model, e.g. "2 × AMD EPYC". */
  machine?: string;
  target: string;
  goals?: Goal[];
}

/** No decimals from 100 up, one from 10, two below (whole numbers as they are). */
function num(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '–';
  if (Number.isInteger(n) || Math.abs(n) >= 100) return n.toFixed(0);
  return n.toFixed(Math.abs(n) >= 10 ? 1 : 2);
}

/** Two decimals for ratios from 0.1 up, two significant digits below (0.013). */
function ratioNum(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '–';
  return n >= 0.1 ? n.toFixed(2) : String(Number(n.toPrecision(2)));
}

/** "median (min–max)", or the one number when they agree. */
function cell(s: Spread | undefined, f: (n: number | undefined) => string = num): string {
  if (!s || !Number.isFinite(s.median)) return '–';
  const [med, lo, hi] = [f(s.median), f(s.min), f(s.max)];
  return lo === hi ? med : `${med} (${lo}–${hi})`;
}

/** The load average: one figure, or the range over combined runs. */
function loadCell(s: Spread | undefined): string {
  if (!s || !Number.isFinite(s.median)) return '–';
  const [lo, hi] = [s.min.toFixed(1), s.max.toFixed(1)];
  return lo === hi ? lo : `${lo}–${hi}`;
}

/** "0.5× (0.4–0.6)" and what the ratio compares, or – */
function ratioCell(s: Spread | undefined, of?: string): string {
  if (!s || !Number.isFinite(s.median)) return '–';
  return `${cell(s, ratioNum).replace(/^(\S+)/, '$1×')}${of ? ` ${of}` : ''}`;
}

export function markdownTable(rows: TableRow[], opts: { machineColumn?: boolean } = {}): string {
  const stackColumn = rows.some((r) => Number.isFinite(r.stats.stackRatio?.median));
  const head = [
    'case',
    'throughput',
    'p50 ms',
    'p99 ms',
    'ratio to baseline',
    ...(stackColumn ? ['ratio to stack'] : []),
    'peak RSS MiB',
    'load (1 min)',
    ...(opts.machineColumn ? ['machine'] : []),
    'target',
    'met',
  ];
  const lines = rows.map((r) => {
    const cells = [
      r.case,
      r.stats.value ? `${cell(r.stats.value)} ${r.unit}` : '–',
      cell(r.stats.p50),
      cell(r.stats.p99),
      ratioCell(r.stats.ratio, r.ratioOf),
      ...(stackColumn ? [ratioCell(r.stats.stackRatio)] : []),
      cell(r.stats.peakRssMiB),
      loadCell(r.load),
      ...(opts.machineColumn ? [r.machine ?? '–'] : []),
      r.target,
      verdict(r.goals, r.stats),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...lines].join('\n');
}
