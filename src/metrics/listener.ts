// The metrics listener (`hublet serve --metrics-listen HOST:PORT`): a plain HTTP server of its own, apart from the API's
// listener so that the metrics are never public by accident, answering `GET /metrics` with the app's scrape and
// nothing else.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.js';

export interface MetricsListener {
  /** Where Prometheus scrapes: `http://HOST:PORT/metrics` (the port picked when 0 was asked for). */
  url: string;
  port: number;
  /** Stops listening and closes every connection (scrapers keep theirs alive). */
  close(): Promise<void>;
}

const TEXT = 'text/plain; charset=utf-8';

/** Listens on host:port for scrapes of `metrics`; rejects with the listen error (EADDRINUSE, …). */
export async function listenForMetrics(
  metrics: Pick<Metrics, 'scrape'>,
  host: string,
  port: number,
  log?: { error(obj: object, msg: string): void },
): Promise<MetricsListener> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': TEXT });
      res.end('Not Found: the metrics are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'content-type': TEXT, allow: 'GET, HEAD' });
      res.end('Method Not Allowed\n');
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (err: unknown) => {
        log?.error({ err }, 'metrics: the scrape failed');
        res.writeHead(500, { 'content-type': TEXT });
        res.end('The metrics could not be collected.\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
