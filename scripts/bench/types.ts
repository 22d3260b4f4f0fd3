// The shapes shared by the bench runner and its cases.
import type { Goal } from './goals.js';
import type { LoadSettings } from './load.js';
import type { HubletServer } from './processes.js';
import type { Round, Spread } from './stats.js';

export interface BenchContext {
  server: HubletServer;
  settings: LoadSettings;
  /** Measured rounds per case (3 in a full run, 1 in QUICK): each row reports their median and min–max. */
  rounds: number;
  quick: boolean;
  /** JSON request to the server under test (seeding), throwing on an error status. */
  api(method: string, path: string, body?: unknown, token?: string): Promise<any>;
  /** JSON request to another server (a case's own), with the same rules. */
  apiOn(server: HubletServer, method: string, path: string, body?: unknown, token?: string): Promise<any>;
  /** Starts another fresh server on the run's database kind; the runner stops it after the case. */
  startServer(env?: Record<string, string>): Promise<HubletServer>;
}

/** A case's row: the medians over its rounds in value, p50, p99 and ratio; every metric's spread in `stats`. */
export interface CaseResult {
  case: string;
  unit: string;
  value: number;
  p50?: number;
  p99?: number;
  /** value ÷ the baseline's value in the same round, where a baseline applies (see ratioOf); the rounds' median. */
  ratio?: number | null;
  /** What `ratio` compares when it is not throughput against the baseline server (e.g. `time`). */
  ratioOf?: string;
  peakRssMiB?: number | null;
  target: string;
  goals?: Goal[];
  /** Median, min and max over the rounds of each metric (value, p50, p99, ratio, peakRssMiB, …). */
  stats?: Record<string, Spread>;
  /** Every measured round's numbers. */
  rounds?: Round[];
  /** Set by the runner: CPU cores and model, and the 1-minute load average read right before the case started. */
  machine?: string;
  load1m?: number;
  /** The 1-minute load average when the case ended (its own load included). */
  load1mAfter?: number;
  note?: string;
  /** Numbers behind the row (baseline figures, seeding time, RSS growth, …), kept in the JSON. */
  details?: Record<string, unknown>;
}

export interface BenchCase {
  name: string;
  target: string;
  goals?: Goal[];
  /** Cases that need a fresh server (large seeds) say so; others share one. */
  freshServer?: boolean;
  /** Environment for the fresh server (implies freshServer). */
  serverEnv?: Record<string, string>;
  /** The case starts its own processes (ctx.server must not be used). */
  noServer?: boolean;
  /** The case's row; a case that measures a reference in the same rounds (http-case.ts `stack`) returns its row too. */
  run(ctx: BenchContext): Promise<CaseResult | CaseResult[]>;
}
