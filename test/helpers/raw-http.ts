// Raw HTTP exchanges for the response-cache tests: every header in the order sent, the body as bytes, and the check
// that a route's answer and the fast path's are the same bytes.
import http from 'node:http';
import { expect } from 'vitest';
import type { TestServer } from './server.js';

export interface Raw {
  status: number;
  /** Name and value of every header in the order sent, Date left out. */
  headers: [string, string][];
  body: Buffer;
}

export function send(server: TestServer, method: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i].toLowerCase() !== 'date') pairs.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
        }
        resolve({ status: res.statusCode!, headers: pairs, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A commit no cached response shows: every entry is stale afterwards, so the next request goes to its route. */
let edits = 0;
export async function staleEverything(server: TestServer): Promise<void> {
  await server.db
    .updateTable('users')
    .set({ bio: `edit ${++edits}` })
    .where('login', '=', 'admin')
    .execute();
}

const RATE_COUNTERS = new Set(['x-ratelimit-used', 'x-ratelimit-remaining']);

/**
 * The second answer is the first's: same status, bytes and headers in order; the request counters moved by one (the
 * second request counted too), unless the limit was already used up for both.
 */
export function expectSame(first: Raw, second: Raw): void {
  expect(second.status).toBe(first.status);
  expect(second.body.equals(first.body)).toBe(true);
  expect(second.headers.map(([n]) => n)).toEqual(first.headers.map(([n]) => n));
  expect(second.headers.filter(([n]) => !RATE_COUNTERS.has(n))).toEqual(first.headers.filter(([n]) => !RATE_COUNTERS.has(n)));
  const counter = (r: Raw, name: string) => Number(r.headers.find(([n]) => n === name)?.[1]);
  if (counter(first, 'x-ratelimit-remaining') > 0) {
    expect(counter(second, 'x-ratelimit-used')).toBe(counter(first, 'x-ratelimit-used') + 1);
    expect(counter(second, 'x-ratelimit-remaining')).toBe(counter(first, 'x-ratelimit-remaining') - 1);
  } else {
    expect(counter(second, 'x-ratelimit-used')).toBe(counter(first, 'x-ratelimit-used'));
  }
}

/**
 * Sends the request with every entry stale (its route answers), then again (the fast path answers from what the route
 * kept): the pair, once the second was not routed. A commit meanwhile (this server's own background
 * work: a delivery's record, a finished job) makes the entry stale: such a pair is tried again (5 times at most).
 */
export async function routedThenFast(
  server: TestServer,
  routed: () => number,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ byRoute: Raw; fast: Raw } | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await staleEverything(server);
    const byRoute = await send(server, method, path, headers);
    const before = routed();
    const fast = await send(server, method, path, headers);
    if (routed() === before) return { byRoute, fast };
  }
  return undefined;
}
