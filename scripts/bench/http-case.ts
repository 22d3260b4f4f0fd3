// An HTTP throughput case: hublet and the baseline (same bytes from memory) under the same load, reported as a ratio.
import { measure, type LoadRequest, type LoadSettings } from './load.js';
import { peakRssMiB, startBaseline } from './processes.js';
import type { BenchCase, BenchContext } from './types.js';

export interface HttpCaseSpec {
  name: string;
  target: string;
  freshServer?: boolean;
  serverEnv?: Record<string, string>;
  /** Seeds data and returns the requests to replay (headers included). */
  setup(ctx: BenchContext): Promise<LoadRequest[]>;
  connections?: number;
  /** Measured seconds, when the case needs its own (sustained writes): full and QUICK. */
  durationSec?: { full: number; quick: number };
  /** The unit of the throughput column (default req/s). */
  unit?: string;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Two significant digits for small ratios (0.013×), two decimals otherwise. */
export function roundRatio(n: number): number {
  return n >= 0.1 ? round2(n) : Number(n.toPrecision(2));
}

/** The response headers a server may send again as they are (node sets the framing and the date itself). */
function replayableHeaders(headers: Headers): Record<string, string> {
  const skip = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!skip.has(name)) kept[name] = value;
  });
  return kept;
}

export function httpCase(spec: HttpCaseSpec): BenchCase {
  return {
    name: spec.name,
    target: spec.target,
    freshServer: spec.freshServer,
    serverEnv: spec.serverEnv,
    async run(ctx) {
      const requests = await spec.setup(ctx);
      const settings: LoadSettings = {
        ...ctx.settings,
        connections: spec.connections ?? ctx.settings.connections,
        durationSec: spec.durationSec ? (ctx.quick ? spec.durationSec.quick : spec.durationSec.full) : ctx.settings.durationSec,
      };
      // The baseline answers with exactly the bytes (headers and body) hublet answers the first request with.
      const first = requests[0];
      const firstRaw = first.setupRequest ? first.setupRequest({ method: first.method ?? 'GET', path: first.path, headers: first.headers, body: first.body }) : first;
      const sample = await fetch(ctx.server.url + firstRaw.path, { method: firstRaw.method ?? 'GET', headers: firstRaw.headers, body: firstRaw.body as string | undefined });
      const bytes = Buffer.from(await sample.arrayBuffer());
      if (sample.status >= 400) throw new Error(`${spec.name}: ${first.path} answered ${sample.status}: ${bytes.toString()}`);
      const hublet = await measure(ctx.server.url, requests, settings);
      const baselineServer = await startBaseline(bytes, replayableHeaders(sample.headers));
      let baselineRps = 0;
      try {
        // The baseline replays the same requests without their per-request rewriting (it answers every one alike).
        baselineRps = (await measure(baselineServer.url, requests.map(({ setupRequest: _, ...r }) => r), settings)).rps;
      } finally {
        await baselineServer.stop();
      }
      const problems = hublet.errors + hublet.non2xx;
      return {
        case: spec.name,
        unit: spec.unit ?? 'req/s',
        value: hublet.rps,
        p50: hublet.p50,
        p99: hublet.p99,
        ratio: baselineRps ? roundRatio(hublet.rps / baselineRps) : null,
        peakRssMiB: peakRssMiB(ctx.server.pid),
        target: spec.target,
        note: `${bytes.length} B/response; baseline ${baselineRps} req/s; ${hublet.requests} requests in ${round2(hublet.durationSec)} s${problems ? `; ${problems} errors/non-2xx` : ''}`,
        details: { bytes: bytes.length, baselineRps, requests: hublet.requests, seconds: hublet.durationSec, errors: hublet.errors, non2xx: hublet.non2xx },
      };
    },
  };
}
