// An HTTP throughput case: hublet and the baseline (same bytes from memory) under the same load, in rounds (one
// warm-up each, then hublet and the baseline alternately), reported as the median with min–max of the rounds' figures.
// A case may add the stack's reference (a minimal server on the same database) to the same rounds: a row of its own.
import { describeGoals, type Goal } from './goals.js';
import { measure, measureSpread, type LoadRequest, type LoadResult, type LoadSettings } from './load.js';
import { peakRssMiB, startBaseline, type Served } from './processes.js';
import { rowOf, significant, type Round } from './stats.js';
import type { BenchCase, BenchContext } from './types.js';

export interface HttpCaseSpec {
  name: string;
  /** The row's name when it differs from `name` (a QUICK run on a smaller seed says so). */
  rowName?(ctx: BenchContext): string;
  /** The target as numbers (its text is written from them); or `target` alone for a reference case. */
  goals?: Goal[];
  target?: string;
  freshServer?: boolean;
  serverEnv?: Record<string, string>;
  /** Seeds data and returns the requests to replay (headers included). */
  setup(ctx: BenchContext): Promise<LoadRequest[]>;
  connections?: number;
  /** Seconds of each measured round, when the case needs its own: full and QUICK. */
  durationSec?: { full: number; quick: number };
  /**
   * hublet's rounds run back to back, then the baseline's (sustained writes: three 10 s rounds are 30 s of load);
   * otherwise the two alternate round by round, so a noisy moment slows both sides of one round's ratio.
   */
  sustained?: boolean;
  /** The unit of the throughput column (default req/s). */
  unit?: string;
  /**
   * The stack's reference, measured with the same requests right after the baseline in every round: its own row
   * follows hublet's, and hublet's rounds get `stackRatio` (hublet's throughput ÷ the reference's in the same round).
   */
  stack?: { rowName(ctx: BenchContext): string; target: string; start(ctx: BenchContext): Promise<Served> };
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
  const target = spec.goals ? describeGoals(spec.goals) : (spec.target ?? '');
  return {
    name: spec.name,
    target,
    goals: spec.goals,
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
      const firstRaw = first.setupRequest
        ? first.setupRequest({ method: first.method ?? 'GET', path: first.path, headers: first.headers, body: first.body })
        : first;
      const sample = await fetch(ctx.server.url + firstRaw.path, {
        method: firstRaw.method ?? 'GET',
        headers: firstRaw.headers,
        body: firstRaw.body as string | undefined,
      });
      const bytes = Buffer.from(await sample.arrayBuffer());
      if (sample.status >= 400) throw new Error(`${spec.name}: ${first.path} answered ${sample.status}: ${bytes.toString()}`);
      // The baseline replays the same requests without their per-request rewriting (it answers every one alike).
      const baselineRequests = requests.map(({ setupRequest: _, ...r }) => r);
      const baselineServer = await startBaseline(bytes, replayableHeaders(sample.headers));
      const hublet: LoadResult[] = [];
      const baseline: LoadResult[] = [];
      const stack: LoadResult[] = [];
      let stackServer: Served | undefined;
      let stackBytes = 0;
      let stackRss: number | null = null;
      const measured = { ...settings, warmupSec: 0 };
      const warmUp = async (url: string, reqs: LoadRequest[]) => {
        if (settings.warmupSec > 0) await measure(url, reqs, { ...measured, durationSec: settings.warmupSec });
      };
      const warmUpHublet = async () => {
        if (settings.warmupSec > 0) await measureSpread(ctx.server.urls, requests, { ...measured, durationSec: settings.warmupSec });
      };
      // Several processes (--processes): the load is spread over all of them, as a load balancer would.
      const measureHublet = async () => hublet.push(await measureSpread(ctx.server.urls, requests, measured));
      const measureBaseline = async () => baseline.push(await measure(baselineServer.url, baselineRequests, measured));
      const measureStack = async () => {
        if (stackServer) stack.push(await measure(stackServer.url, baselineRequests, measured));
      };
      try {
        if (spec.stack) {
          stackServer = await spec.stack.start(ctx);
          const res = await fetch(stackServer.url + firstRaw.path, { headers: firstRaw.headers });
          stackBytes = (await res.arrayBuffer()).byteLength;
          if (res.status >= 400) throw new Error(`${spec.name}: the stack's reference answered ${res.status}`);
        }
        const warmUpStack = async () => {
          if (stackServer) await warmUp(stackServer.url, baselineRequests);
        };
        if (spec.sustained) {
          await warmUpHublet();
          for (let i = 0; i < ctx.rounds; i++) await measureHublet();
          await warmUp(baselineServer.url, baselineRequests);
          for (let i = 0; i < ctx.rounds; i++) await measureBaseline();
          await warmUpStack();
          for (let i = 0; i < ctx.rounds; i++) await measureStack();
        } else {
          // Both warm up first, so every hublet round starts alike, right after a baseline round (when hublet's first
          // round followed its own warm-up directly, it came out the lowest of the three in four runs of four).
          await warmUpHublet();
          await warmUp(baselineServer.url, baselineRequests);
          await warmUpStack();
          for (let i = 0; i < ctx.rounds; i++) {
            await measureHublet();
            await measureBaseline();
            await measureStack();
          }
        }
        if (stackServer) stackRss = peakRssMiB(stackServer.pid);
      } finally {
        await Promise.all([baselineServer.stop(), stackServer?.stop()]);
      }
      const rounds: Round[] = hublet.map((h, i) => ({
        value: h.rps,
        p50: h.p50,
        p99: h.p99,
        ratio: baseline[i].rps ? significant(h.rps / baseline[i].rps) : NaN,
        baselineRps: baseline[i].rps,
        baselineP99: baseline[i].p99,
        requests: h.requests,
        seconds: Math.round(h.durationSec * 100) / 100,
        problems: h.errors + h.non2xx,
        ...(stack[i] ? { stackRatio: stack[i].rps ? significant(h.rps / stack[i].rps) : NaN, stackRps: stack[i].rps } : {}),
      }));
      const problems = hublet.reduce((n, h) => n + h.errors + h.non2xx, 0);
      const requestsDone = hublet.reduce((n, h) => n + h.requests, 0);
      const row = rowOf({
        case: spec.rowName?.(ctx) ?? spec.name,
        unit: spec.unit ?? 'req/s',
        rounds,
        peakRssMiB: peakRssMiB(ctx.server.pid),
        goals: spec.goals,
        target,
        note: `${bytes.length} B/response; ${rounds.length} round(s) of ${settings.durationSec} s${spec.sustained ? ' back to back' : ''}; baseline ${baseline.map((b) => b.rps).join(', ')} req/s, p99 ${baseline.map((b) => b.p99).join(', ')} ms; ${requestsDone} requests${problems ? `; ${problems} errors/non-2xx` : ''}`,
        details: {
          bytes: bytes.length,
          connections: settings.connections,
          roundSeconds: settings.durationSec,
          warmupSec: settings.warmupSec,
          sustained: !!spec.sustained,
        },
      });
      if (!spec.stack) return row;
      const stackProblems = stack.reduce((n, r) => n + r.errors + r.non2xx, 0);
      const stackRow = rowOf({
        case: spec.stack.rowName(ctx),
        unit: spec.unit ?? 'req/s',
        rounds: stack.map((r, i) => ({
          value: r.rps,
          p50: r.p50,
          p99: r.p99,
          ratio: baseline[i].rps ? significant(r.rps / baseline[i].rps) : NaN,
          requests: r.requests,
          seconds: Math.round(r.durationSec * 100) / 100,
          problems: r.errors + r.non2xx,
        })),
        peakRssMiB: stackRss,
        target: spec.stack.target,
        note: `${stackBytes} B/response (hublet's ${bytes.length} B); the requests of the row above, in its rounds, right after the baseline; ${stack.reduce((n, r) => n + r.requests, 0)} requests${stackProblems ? `; ${stackProblems} errors/non-2xx` : ''}`,
      });
      return [row, stackRow];
    },
  };
}
