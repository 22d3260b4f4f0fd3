// Rounds and their spread: a case measures several rounds and keeps every one; a row reports each metric's median
// with the min and max over the rounds (a ratio's median is the median of the per-round ratios).
import type { Goal } from './goals.js';

/** One measured round: a number per metric (value, p50, p99, ratio, and whatever else the case records). */
export type Round = Record<string, number>;

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export function spreadOf(values: number[]): Spread {
  const kept = values.filter((v) => Number.isFinite(v));
  return { median: median(kept), min: kept.length ? Math.min(...kept) : NaN, max: kept.length ? Math.max(...kept) : NaN };
}

/** The spread of each metric found in the rounds. */
function summarize(rounds: Round[]): Record<string, Spread> {
  const keys = [...new Set(rounds.flatMap((r) => Object.keys(r)))];
  return Object.fromEntries(keys.map((k) => [k, spreadOf(rounds.map((r) => r[k]).filter((v) => v !== undefined))]));
}

/** Four significant digits: per-round ratios kept in the JSON without false precision. */
export function significant(n: number, digits = 4): number {
  return Number.isFinite(n) && n !== 0 ? Number(n.toPrecision(digits)) : n;
}

export interface RowInput {
  case: string;
  unit: string;
  /** Every measured round; `value` is the throughput (or time) column, `p50`, `p99`, `ratio` where they apply. */
  rounds: Round[];
  /** What `ratio` compares when it is not throughput against the baseline server (e.g. `time`). */
  ratioOf?: string;
  peakRssMiB?: number | null;
  goals?: Goal[];
  target: string;
  note?: string;
  details?: Record<string, unknown>;
}

/** A case's result from its rounds: the medians in the row's fields, the spreads in `stats`, the rounds kept. */
export function rowOf(input: RowInput) {
  const stats = summarize(input.rounds);
  if (input.peakRssMiB != null) stats.peakRssMiB = spreadOf([input.peakRssMiB]);
  const m = (k: string) => stats[k]?.median;
  return {
    case: input.case,
    unit: input.unit,
    value: m('value') ?? NaN,
    p50: m('p50'),
    p99: m('p99'),
    ratio: m('ratio') ?? null,
    ratioOf: input.ratioOf,
    peakRssMiB: input.peakRssMiB ?? null,
    target: input.target,
    goals: input.goals,
    stats,
    rounds: input.rounds,
    note: input.note,
    details: input.details,
  };
}
