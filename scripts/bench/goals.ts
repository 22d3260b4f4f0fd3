// A case's target as numbers: each goal bounds one metric of the row (value, p50, p99, ratio, or another the case
// records, such as rssGrowthMiB); the target's text is written from the goals, and met/missed is judged on medians.
import type { Spread } from './stats.js';

export interface Goal {
  metric: string;
  op: '≥' | '≤';
  limit: number;
  /** Words around the bound in the target's text: `${before}${op} ${limit}${after}`. */
  before?: string;
  after?: string;
}

export const atLeast = (metric: string, limit: number, after = '', before = ''): Goal => ({ metric, op: '≥', limit, before, after });
export const atMost = (metric: string, limit: number, after = '', before = ''): Goal => ({ metric, op: '≤', limit, before, after });

export function describeGoals(goals: Goal[]): string {
  return goals.map((g) => `${g.before ?? ''}${g.op} ${g.limit.toLocaleString('en')}${g.after ?? ''}`).join('; ');
}

/** `met`, `missed: …` (which goals, with the median), or `–` when the case has no goals. */
export function verdict(goals: Goal[] | undefined, stats: Record<string, Spread> | undefined): string {
  if (!goals?.length) return '–';
  const missed: string[] = [];
  for (const g of goals) {
    const m = stats?.[g.metric]?.median;
    const ok = m !== undefined && Number.isFinite(m) && (g.op === '≥' ? m >= g.limit : m <= g.limit);
    if (!ok)
      missed.push(
        `${g.metric} ${m === undefined || !Number.isFinite(m) ? '–' : Number(m.toPrecision(3))} ${g.op === '≥' ? '<' : '>'} ${g.limit}`,
      );
  }
  return missed.length ? `missed (${missed.join(', ')})` : 'met';
}
