// The multi-process tests' requests: JSON calls to any of several `hublet serve` processes, and polling until a state holds.
import type { ServeProcess } from '../helpers/cli.js';

export interface CallResult {
  status: number;
  headers: Headers;
  body: any;
}

/** `call` and `ok` (a call that must answer `status`) to any process, as `adminToken` unless a call names another (null: anonymous). */
export function callsAs(adminToken: string) {
  async function call(
    s: ServeProcess,
    method: string,
    url: string,
    body?: unknown,
    token: string | null = adminToken,
  ): Promise<CallResult> {
    const headers: Record<string, string> = { accept: 'application/vnd.service+json', 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(s.url + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
    };
  }
  async function ok(s: ServeProcess, method: string, url: string, body?: unknown, status = 200) {
    const r = await call(s, method, url, body);
    if (r.status !== status) throw new Error(`${method} ${url} via ${s.url}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }
  return { call, ok };
}

/** Polls `check` until it returns something other than undefined, or fails after `ms` (a bound on failing runs only). */
export async function eventually<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
