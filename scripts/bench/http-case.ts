// An HTTP throughput case: hublet and the baseline (same bytes from memory) under the same load, reported as a ratio.
import { measure, type LoadRequest } from './load.js';
import { peakRssMiB, startBaseline } from './processes.js';
import type { BenchCase, BenchContext } from './types.js';

export interface HttpCaseSpec {
  name: string;
  target: string;
  freshServer?: boolean;
  /** Seeds data and returns the requests to replay (headers included). */
  setup(ctx: BenchContext): Promise<LoadRequest[]>;
  connections?: number;
}

export function httpCase(spec: HttpCaseSpec): BenchCase {
  return {
    name: spec.name,
    target: spec.target,
    freshServer: spec.freshServer,
    async run(ctx) {
      const requests = await spec.setup(ctx);
      const settings = { ...ctx.settings, connections: spec.connections ?? ctx.settings.connections };
      // The baseline answers with exactly the bytes hublet answers the first request with.
      const first = requests[0];
      const sample = await fetch(ctx.server.url + first.path, { method: first.method ?? 'GET', headers: first.headers, body: first.body });
      const bytes = Buffer.from(await sample.arrayBuffer());
      if (sample.status >= 400) throw new Error(`${spec.name}: ${first.path} answered ${sample.status}: ${bytes.toString()}`);
      const hublet = await measure(ctx.server.url, requests, settings);
      const baselineServer = await startBaseline(bytes, sample.headers.get('content-type') ?? 'application/json');
      let baselineRps = 0;
      try {
        baselineRps = (await measure(baselineServer.url, requests, settings)).rps;
      } finally {
        await baselineServer.stop();
      }
      const problems = hublet.errors + hublet.non2xx;
      return {
        case: spec.name,
        unit: 'req/s',
        value: hublet.rps,
        p50: hublet.p50,
        p99: hublet.p99,
        ratio: baselineRps ? Math.round((hublet.rps / baselineRps) * 100) / 100 : null,
        peakRssMiB: peakRssMiB(ctx.server.pid),
        target: spec.target,
        note: `${bytes.length} B/response; baseline ${baselineRps} req/s${problems ? `; ${problems} errors/non-2xx` : ''}`,
      };
    },
  };
}
