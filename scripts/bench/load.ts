// Drives HTTP load from this process (autocannon as a library): a warm-up round, then the measured round.
import autocannon from 'autocannon';

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
}

export interface LoadRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

function once(url: string, settings: LoadSettings, duration: number, requests: LoadRequest[]): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: settings.connections,
        duration,
        requests: requests.map((r) => ({ method: r.method ?? 'GET', path: r.path, headers: r.headers, body: r.body })),
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/** Warms up, then measures. Latencies in milliseconds. */
export async function measure(url: string, requests: LoadRequest[], settings: LoadSettings): Promise<LoadResult> {
  if (settings.warmupSec > 0) await once(url, settings, settings.warmupSec, requests);
  const r = await once(url, settings, settings.durationSec, requests);
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}
