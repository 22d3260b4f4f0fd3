// Drives HTTP load from this process: autocannon (a warm-up round, then the measured round) for throughput, and a
// closed-loop undici probe with microsecond timing where latencies of a few milliseconds must be compared.
import autocannon from 'autocannon';
import { Pool } from 'undici';

export interface LoadSettings {
  connections: number;
  durationSec: number;
  warmupSec: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
  /** Seconds the measured round took. */
  durationSec: number;
}

/** autocannon's raw request: what a `setupRequest` may change. */
export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface LoadRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Rewrites each request before it is sent (unique bodies, rotating ids). */
  setupRequest?: (req: RawRequest) => RawRequest;
}

function once(url: string, settings: LoadSettings, duration: number, requests: LoadRequest[], amount?: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: settings.connections,
        duration,
        ...(amount ? { amount } : {}),
        requests: requests.map((r) => ({
          method: r.method ?? 'GET',
          path: r.path,
          headers: r.headers,
          body: r.body,
          ...(r.setupRequest ? { setupRequest: r.setupRequest as unknown as autocannon.Request['setupRequest'] } : {}),
        })) as autocannon.Request[],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/** Warms up, then measures (for `durationSec`, or until `amount` requests when given). Latencies in milliseconds. */
export async function measure(url: string, requests: LoadRequest[], settings: LoadSettings, amount?: number): Promise<LoadResult> {
  if (settings.warmupSec > 0) await once(url, settings, settings.warmupSec, requests);
  const r = await once(url, settings, settings.durationSec, requests, amount);
  const durationSec = r.duration;
  return {
    // autocannon's per-second average drops the last partial second; total ÷ time does not.
    rps: Math.round(r.requests.total / durationSec),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    durationSec,
  };
}

/**
 * `measure` against every process of one installation at once (several servers on one database): the connections (and
 * `amount`) split evenly between them; requests, rates and errors summed, latencies the worst process's p50 and p99.
 */
export async function measureSpread(urls: string[], requests: LoadRequest[], settings: LoadSettings, amount?: number): Promise<LoadResult> {
  if (urls.length === 1) return measure(urls[0], requests, settings, amount);
  const share = { ...settings, connections: Math.max(1, Math.round(settings.connections / urls.length)) };
  const parts = await Promise.all(
    urls.map((url) => measure(url, requests, share, amount === undefined ? undefined : Math.ceil(amount / urls.length))),
  );
  const sum = (f: (r: LoadResult) => number) => parts.reduce((n, r) => n + f(r), 0);
  const max = (f: (r: LoadResult) => number) => Math.max(...parts.map(f));
  return {
    rps: sum((r) => r.rps),
    p50: max((r) => r.p50),
    p99: max((r) => r.p99),
    requests: sum((r) => r.requests),
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
    durationSec: max((r) => r.durationSec),
  };
}

/** The q-quantile (0..1) of ascending values. */
export function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * A closed loop of `connections` keep-alive clients sending one request for `durationSec` (after a warm-up), each
 * latency timed with performance.now(): autocannon's histogram counts whole milliseconds, too coarse to compare
 * two p50s of a few milliseconds.
 */
export async function probeLatency(url: string, request: LoadRequest, settings: LoadSettings): Promise<LoadResult> {
  const pool = new Pool(url, { connections: settings.connections, pipelining: 1 });
  const run = async (seconds: number) => {
    const latencies: number[] = [];
    let errors = 0;
    let non2xx = 0;
    const end = performance.now() + seconds * 1000;
    const client = async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          const res = await pool.request({
            method: request.method ?? 'GET',
            path: request.path,
            headers: request.headers,
            body: request.body,
          });
          await res.body.dump({ limit: Infinity });
          latencies.push(performance.now() - t0);
          if (res.statusCode >= 300) non2xx++;
        } catch {
          errors++;
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: settings.connections }, client));
    return { latencies: latencies.sort((a, b) => a - b), errors, non2xx, seconds: (performance.now() - started) / 1000 };
  };
  try {
    if (settings.warmupSec > 0) await run(settings.warmupSec);
    const r = await run(settings.durationSec);
    const round = (n: number) => Math.round(n * 100) / 100;
    return {
      rps: Math.round(r.latencies.length / r.seconds),
      p50: round(quantile(r.latencies, 0.5)),
      p99: round(quantile(r.latencies, 0.99)),
      requests: r.latencies.length,
      errors: r.errors,
      non2xx: r.non2xx,
      durationSec: r.seconds,
    };
  } finally {
    await pool.close();
  }
}
