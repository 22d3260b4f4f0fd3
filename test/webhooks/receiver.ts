// A webhook receiver for tests: a real node:http (or https) server on 127.0.0.1:0 that records every request it gets.
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The exact body bytes. */
  body: Buffer;
  /** The JSON payload: the body itself, or the `payload` form field. */
  payload: any;
}

/** How the receiver answers: a status (default 200), or `hang` (never answers). */
type Behaviour = { status?: number; body?: string; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Changes how later requests are answered; `hang` requests already waiting are answered when it changes away. */
  answer(behaviour: Behaviour | ((r: Received) => Behaviour)): void;
  /** Resolves once `n` requests (matching `filter`) have arrived. */
  waitFor(n: number, filter?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

function parsePayload(headers: http.IncomingHttpHeaders, body: Buffer): unknown {
  const text = body.toString('utf8');
  try {
    if (String(headers['content-type']).startsWith('application/x-www-form-urlencoded'))
      return JSON.parse(new URLSearchParams(text).get('payload') ?? 'null');
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function startReceiver(opts: { tls?: { key: string; cert: string } } = {}): Promise<Receiver> {
  const received: Received[] = [];
  let behaviour: Behaviour | ((r: Received) => Behaviour) = { status: 200, body: 'thanks' };
  const hanging = new Set<() => void>();
  const waiters = new Set<() => void>();
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const r: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        payload: parsePayload(req.headers, body),
      };
      received.push(r);
      for (const w of waiters) w();
      const respond = () => {
        const b = typeof behaviour === 'function' ? behaviour(r) : behaviour;
        if (b === 'hang') {
          const release = () => {
            hanging.delete(release);
            respond();
          };
          hanging.add(release);
          return;
        }
        res.writeHead(b.status ?? 200, { 'content-type': 'text/plain', ...b.headers });
        res.end(b.body ?? 'thanks');
      };
      respond();
    });
  };
  const server = opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    received,
    answer(b) {
      behaviour = b;
      if (b !== 'hang') for (const release of [...hanging]) release();
    },
    waitFor(n, filter = () => true, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const matching = received.filter(filter);
          if (matching.length >= n) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(matching);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver got ${received.filter(filter).length} of ${n} requests in time`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      behaviour = { status: 200 };
      for (const release of [...hanging]) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Verifies a delivery's signatures the way a receiver does: HMAC of the exact body bytes with the shared secret. */
export function signaturesValid(r: Received, secret: string): boolean {
  const sha256 = `sha256=${crypto.createHmac('sha256', secret).update(r.body).digest('hex')}`;
  const sha1 = `sha1=${crypto.createHmac('sha1', secret).update(r.body).digest('hex')}`;
  const h256 = String(r.headers['x-hub-signature-256'] ?? '');
  const h1 = String(r.headers['x-hub-signature'] ?? '');
  return (
    h256.length === sha256.length &&
    crypto.timingSafeEqual(Buffer.from(h256), Buffer.from(sha256)) &&
    h1.length === sha1.length &&
    crypto.timingSafeEqual(Buffer.from(h1), Buffer.from(sha1))
  );
}

/** A server whose job worker can be waited on until idle (every delivery enqueued so far has run). */
interface Settling {
  app: { hublet: { jobs: { idle(): Promise<void> } } };
}

/** Where `rcv`'s list stands once every delivery of `server` so far has run: the index to read what comes next from. */
export async function receiptMark(server: Settling, rcv: Receiver): Promise<number> {
  await server.app.hublet.jobs.idle();
  return rcv.received.length;
}

/** What `rcv` got since `from` (an index in its list, from receiptMark), once every delivery of `server` has run. */
export async function receiptsSince(server: Settling, rcv: Receiver, from: number): Promise<Received[]> {
  await server.app.hublet.jobs.idle();
  return rcv.received.slice(from);
}
