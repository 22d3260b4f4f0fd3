// The shapes shared by the bench runner and its cases.
import type { LoadRequest, LoadSettings } from './load.js';
import type { HubletServer } from './processes.js';

export interface BenchContext {
  server: HubletServer;
  settings: LoadSettings;
  quick: boolean;
  /** JSON request to the server under test (seeding), throwing on an error status. */
  api(method: string, path: string, body?: unknown, token?: string): Promise<any>;
  /** JSON request to another server (a case's own), with the same rules. */
  apiOn(server: HubletServer, method: string, path: string, body?: unknown, token?: string): Promise<any>;
  /** Starts another fresh server on the run's database kind; the runner stops it after the case. */
  startServer(env?: Record<string, string>): Promise<HubletServer>;
}

export interface CaseResult {
  case: string;
  unit: string;
  value: number;
  p50?: number;
  p99?: number;
  /** value ÷ the baseline's value in the same run, where a baseline applies (see ratioOf). */
  ratio?: number | null;
  /** What `ratio` compares when it is not throughput against the baseline server (e.g. `time`). */
  ratioOf?: string;
  peakRssMiB?: number | null;
  target: string;
  note?: string;
  /** Numbers behind the row (baseline figures, seeding time, RSS growth, …), kept in the JSON. */
  details?: Record<string, unknown>;
}

export interface BenchCase {
  name: string;
  target: string;
  /** Cases that need a fresh server (large seeds) say so; others share one. */
  freshServer?: boolean;
  /** Environment for the fresh server (implies freshServer). */
  serverEnv?: Record<string, string>;
  /** The case starts its own processes (ctx.server must not be used). */
  noServer?: boolean;
  run(ctx: BenchContext): Promise<CaseResult>;
}

export type { LoadRequest, LoadSettings };
