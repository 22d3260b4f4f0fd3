// `hublet serve` stopping on SIGTERM: ready answers 503 during the drain delay, a request in flight (its body still being
// sent) finishes with its own status after accepting stopped, a webhook delivery in flight finishes and is recorded,
// and the process exits 0; a request that outlasts the shutdown timeout is cut and the process still exits 0. Nothing
// is logged as an error.
import http from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import type { ServeProcess } from '../helpers/cli.js';
import { serveProcesses } from '../helpers/serve-process.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';

const { freshDataDir, serve } = serveProcesses();
const TOKEN = `hlp_${'S'.repeat(36)}`;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

async function call(p: ServeProcess, method: string, url: string, body: unknown): Promise<number> {
  const res = await fetch(p.url + url, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

interface Answer {
  status: number;
  body: string;
}

/** A GET on a connection of its own: the answer, or the connection's error (refused once the server stops accepting). */
function get(p: ServeProcess, path: string): Promise<Answer | Error> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port: p.port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', resolve);
    });
    req.on('error', resolve);
  });
}

/**
 * POST /gists in flight, its body only partly sent, once the server has its headers (it answered `Expect: 100-continue`):
 * `finish()` sends the rest; `answer` is its response or its error.
 */
async function gistInFlight(p: ServeProcess) {
  const body = JSON.stringify({ public: true, files: { 'slow.txt': { content: 'sent in two parts\n'.repeat(50) } } });
  const req = http.request({
    host: '127.0.0.1',
    port: p.port,
    method: 'POST',
    path: '/gists',
    agent: false,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      expect: '100-continue',
    },
  });
  const received = new Promise<void>((resolve) => req.once('continue', resolve));
  req.flushHeaders();
  const answer = new Promise<Answer | Error>((resolve) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', resolve);
    });
    req.on('error', resolve);
  });
  await received;
  req.write(body.slice(0, 40));
  return { answer, finish: () => req.end(body.slice(40)) };
}

/** Log lines at level error (50) or above. */
const errorLines = (out: string) => out.split('\n').filter((l) => l.startsWith('{') && (JSON.parse(l) as { level: number }).level >= 50);

describe('serve stopping on SIGTERM', () => {
  it('answers 503 on ready while draining, finishes a request and a webhook delivery in flight, then exits 0', async () => {
    const data = await freshDataDir('drain');
    const args = ['--port', '0', '--data', data.dir, ...data.args, '--log-level', 'info', '--hook-allowed-hosts', 'loopback'];
    // A drain delay long enough to see ready fail from here before accepting stops; a delivery may wait a minute.
    const p = await serve(args, { HUBLET_ADMIN_TOKEN: TOKEN, HUBLET_SHUTDOWN_DELAY: '3', HUBLET_HOOK_TIMEOUT_MS: '60000' });
    expect(await get(p, '/_health/ready')).toMatchObject({ status: 200 });
    // A delivery in flight: the hook's ping, held by the receiver.
    receiver.answer('hang');
    expect(await call(p, 'POST', '/admin/organizations', { login: 'ops', admin: 'admin' })).toBe(201);
    expect(await call(p, 'POST', '/orgs/ops/hooks', { name: 'web', config: { url: `${receiver.url}/held` } })).toBe(201);
    await receiver.waitFor(1, (r) => r.path === '/held');
    const gist = await gistInFlight(p);

    p.child.kill('SIGTERM');
    // Ready answers 503 (the live check still 200) until the listener closes and connections are refused.
    const seen: Answer[] = [];
    let live: Answer | Error | undefined;
    for (;;) {
      const r = await get(p, '/_health/ready');
      if (r instanceof Error) break;
      seen.push(r);
      if (r.status === 503) live ??= await get(p, '/_health/live');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const failing = seen.filter((r) => r.status !== 200);
    expect(failing.length).toBeGreaterThan(0);
    expect(JSON.parse(failing[0].body)).toEqual({
      status: 'fail',
      checks: { shutdown: { status: 'fail', error: 'the server is stopping (SIGTERM)' } },
    });
    expect(failing.every((r) => r.status === 503)).toBe(true);
    expect(live).toMatchObject({ status: 200 });

    // Accepting has stopped; the request in flight still completes with its own status.
    gist.finish();
    const answer = await gist.answer;
    expect(answer).toMatchObject({ status: 201 });
    expect(JSON.parse((answer as Answer).body).files['slow.txt'].content).toBe('sent in two parts\n'.repeat(50));
    // The delivery still held is answered now: the process waits for it, records it, and only then exits.
    receiver.answer({ status: 200 });
    expect(await p.exited).toEqual({ code: 0, signal: null });
    expect(errorLines(p.stdout())).toEqual([]);
    const db = connect(data.db.url);
    try {
      const { rows } = await sql<{ event: string; status_code: number }>`select event, status_code from hook_deliveries`.execute(db);
      expect(rows).toEqual([{ event: 'ping', status_code: 200 }]);
    } finally {
      await db.destroy();
    }
  });

  it('cuts a request that outlasts HUBLET_SHUTDOWN_TIMEOUT and still exits 0', async () => {
    const data = await freshDataDir('timeout');
    const args = ['--port', '0', '--data', data.dir, ...data.args, '--log-level', 'info'];
    const p = await serve(args, { HUBLET_ADMIN_TOKEN: TOKEN, HUBLET_SHUTDOWN_TIMEOUT: '1' });
    const gist = await gistInFlight(p);
    p.child.kill('SIGTERM');
    // The rest of the body never comes: the request is cut, and the process exits 0 all the same.
    expect(await p.exited).toEqual({ code: 0, signal: null });
    expect(await gist.answer).toBeInstanceOf(Error);
    expect(p.stdout()).toContain('shutdown timeout reached');
    expect(errorLines(p.stdout())).toEqual([]);
  });
});
