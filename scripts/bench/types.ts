// The shapes shared by the bench runner and its cases.
import type { LoadRequest, LoadSettings } from './load.js';
import type { HubletServer } from './processes.js';

export interface BenchContext {
  server: HubletServer;
  settings: LoadSettings;
  quick: boolean;
  /** JSON request to the server under test (seeding), throwing on an error status. */
  api(method: string, path: string, body?: unknown, token?: string): Promise<any>;
}

export interface CaseResult {
  case: string;
  unit: string;
  value: number;
  p50?: number;
  p99?: number;
  /** value ÷ the baseline's value in the same run, where a baseline applies. */
  ratio?: number | null;
  peakRssMiB?: number | null;
  target: string;
  note?: string;
}

export interface BenchCase {
  name: string;
  target: string;
  /** Cases that need a fresh server (large seeds) say so; others share one. */
  freshServer?: boolean;
  run(ctx: BenchContext): Promise<CaseResult>;
}

export type { LoadRequest, LoadSettings };
