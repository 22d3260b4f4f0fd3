// A stubbed API client for the commands' run functions (the Client of src/cli/client.ts): it answers from a table of
// routes, records every request (method, path, body, headers, upload) and every queue it was asked to settle, and opens
// no server and no data dir. A request no route answers fails the test with its method and path.
import type { Readable } from 'node:stream';
import type { ApiResponse, Client } from '../../src/cli/client.js';

export interface Sent {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  upload?: Readable;
}

/** What a route answers: 200 and JSON unless said; `text` is the raw body when `body` is not JSON. */
interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One answer for every call, one per call in turn (the last one repeating), or an answer worked out from the request. */
type Route = Answer | Answer[] | ((req: Sent) => Answer | Promise<Answer>);

export interface StubClient extends Client {
  /** Every request, in order. */
  sent: Sent[];
  /** Every settle() call's queues, in order. */
  settled: string[][];
  /** `METHOD path` of every request, in order. */
  calls(): string[];
}

export interface StubOptions {
  mode?: 'local' | 'remote';
  reach?: Client['reach'];
  serverPath?: (p: string) => string;
}

function response(a: Answer): ApiResponse {
  const status = a.status ?? 200;
  const json = a.body !== undefined && typeof a.body !== 'string';
  const text = a.body === undefined ? '' : json ? JSON.stringify(a.body) : String(a.body);
  const headers = { ...(json ? { 'content-type': 'application/json; charset=utf-8' } : {}), ...a.headers };
  return { status, headers, text, body: a.body === undefined ? null : a.body };
}

/** A client whose answers are `routes`, keyed `METHOD /path?query` exactly as the command requests them. */
export function stubClient(routes: Record<string, Route>, opts: StubOptions = {}): StubClient {
  const sent: Sent[] = [];
  const settled: string[][] = [];
  const calls = new Map<string, number>();
  return {
    mode: opts.mode ?? 'remote',
    sent,
    settled,
    calls: () => sent.map((s) => `${s.method} ${s.path}`),
    async request(method, path, options = {}) {
      const req: Sent = { method, path, body: options.body, headers: options.headers, upload: options.upload };
      sent.push(req);
      const key = `${method} ${path}`;
      const route = routes[key];
      if (route === undefined) throw new Error(`stub client: no answer for ${key}`);
      const n = calls.get(key) ?? 0;
      calls.set(key, n + 1);
      if (typeof route === 'function') return response(await route(req));
      return response(Array.isArray(route) ? route[Math.min(n, route.length - 1)] : route);
    },
    async settle(queues) {
      settled.push([...queues]);
    },
    reach: opts.reach ?? (async (url) => ({ url })),
    serverPath: opts.serverPath ?? ((p) => p),
    async close() {},
  };
}
