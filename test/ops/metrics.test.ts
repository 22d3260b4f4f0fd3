// Prometheus metrics (`--metrics-listen`): the listener of their own and the API's none, every request counted under a
// route template with its cache outcome (a cached read built, then answered by the fast path), bounded labels whatever
// clients send, webhook deliveries, sign-ins, rate-limit refusals, git commands, the job gauges, database timing and
// Node's process metrics; and none of it when metrics are off.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetricsListener } from '../../src/cli/commands/serve/metrics-listener.js';
import type { MetricsListener } from '../../src/metrics/listener.js';
import { noMetrics } from '../../src/metrics/metrics.js';
import { buildApp, closeApp } from '../../src/server/app.js';
import { onPostgres } from '../helpers/database.js';
import { staleEverything } from '../helpers/raw-http.js';
import { countRouted } from '../helpers/routed-count.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';
import { git, withCredentials } from '../gists/git-tools.js';
import { startReceiver } from '../webhooks/receiver.js';
import { parseExposition, samplesOf, sampleValue, type Sample } from './exposition.js';

const PASSWORD = 'correct horse battery staple 42';
let s: TestServer;
let metrics: MetricsListener;
let alice: { login: string; id: number; token: string };

beforeAll(async () => {
  // Proxies on 127.0.0.1 are trusted so that the rate-limit test can be its own anonymous client (X-Forwarded-For).
  s = await startServer({ config: { metricsListen: '127.0.0.1:0', trustProxy: '127.0.0.1' } });
  // Started as `serve` starts it, on a port of its own.
  metrics = (await startMetricsListener(s.app, s.app.hublet.config))!;
  await s.createUser('alice', { password: PASSWORD });
  alice = { ...(await s.createUser('alice-api')), token: '' };
  alice.token = await s.createToken('alice-api', { scopes: ['gist', 'admin:org', 'admin:org_hook', 'user'] });
}, 60_000);
afterAll(async () => {
  await metrics?.close();
  await s?.close();
});

async function scrape(): Promise<Sample[]> {
  const res = await fetch(metrics.url);
  expect(res.status).toBe(200);
  return parseExposition(await res.text());
}

/** How much each sample moved between two scrapes. */
const delta =
  (before: Sample[], after: Sample[]) =>
  (name: string, labels: Record<string, string> = {}) =>
    sampleValue(after, name, labels) - sampleValue(before, name, labels);

const requests = (route: string, method: string, status: number, cache: string) => ({ route, method, status: String(status), cache });

describe('the metrics listener', () => {
  it('answers GET /metrics in the text format on its own address; the API’s listener has no /metrics', async () => {
    const res = await fetch(metrics.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE hublet_http_requests_total counter');
    expect(text).toContain('# TYPE hublet_http_request_duration_seconds histogram');
    expect(new URL(metrics.url).port).not.toBe(new URL(s.url).port);

    expect((await s.api('GET', '/metrics')).status).toBe(404);
    expect((await s.api('GET', '/api/v3/metrics')).status).toBe(404);
    expect((await fetch(new URL('/', metrics.url))).status).toBe(404);
    expect((await fetch(metrics.url, { method: 'POST' })).status).toBe(405);
  });

  it('reports Node’s process metrics from the app’s own registry', async () => {
    const names = new Set((await scrape()).map((x) => x.name));
    for (const name of [
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_active_handles_total',
    ])
      expect(names, name).toContain(name);
  });
});

describe('HTTP requests', () => {
  it('counts each request under its route template, method, status and cache outcome: a cached read built, then a fast-path hit; an unknown URL; a 401', async () => {
    const created = await s.api('POST', '/gists', { token: alice.token, body: { public: true, files: { 'a.txt': { content: 'hi\n' } } } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await s.app.hublet.jobs.idle(); // nothing of this server commits between the two reads below
    const routed = countRouted(s);
    // A commit meanwhile (this server's background work) makes the entry stale: a pair whose second read found it
    // stale is tried again (5 times at most), each from a fresh scrape.
    let before: Sample[] = [];
    let fastHit = false;
    for (let attempt = 0; attempt < 5 && !fastHit; attempt++) {
      await staleEverything(s);
      before = await scrape();
      const built = routed();
      expect((await s.api('GET', `/gists/${id}`)).status).toBe(200);
      expect(routed()).toBe(built + 1); // the route built it
      expect((await s.api('GET', `/gists/${id}`)).status).toBe(200);
      fastHit = routed() === built + 1; // the fast path answered
    }
    expect(fastHit).toBe(true);
    expect((await s.api('GET', `/no/such/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await s.api('GET', '/user')).status).toBe(401);
    const after = await scrape();
    const moved = delta(before, after);

    expect(moved('hublet_http_requests_total', requests('/gists/{gist_id}', 'GET', 200, 'miss'))).toBe(1);
    expect(moved('hublet_http_requests_total', requests('/gists/{gist_id}', 'GET', 200, 'hit'))).toBe(1);
    expect(moved('hublet_http_requests_total', requests('unmatched', 'GET', 404, 'none'))).toBe(1);
    expect(moved('hublet_http_requests_total', requests('/user', 'GET', 401, 'none'))).toBe(1);
    const changed = samplesOf(after, 'hublet_http_requests_total').filter((x) => moved(x.name, x.labels) !== 0);
    expect(changed).toHaveLength(4);

    expect(moved('hublet_http_request_duration_seconds_count', { route: '/gists/{gist_id}', method: 'GET' })).toBe(2);
    expect(moved('hublet_http_request_duration_seconds_bucket', { route: '/gists/{gist_id}', method: 'GET', le: '+Inf' })).toBe(2);
    expect(moved('hublet_http_request_duration_seconds_count', { route: 'unmatched', method: 'GET' })).toBe(1);
    expect(moved('hublet_response_cache_hits_total')).toBe(1);
    expect(moved('hublet_response_cache_misses_total')).toBe(1);
    // No id reaches a label.
    expect(after.some((x) => Object.values(x.labels).some((v) => v.includes(id)))).toBe(false);
  });

  it('keeps the label sets bounded whatever URLs and ids clients send: a second burst of new ones adds none', async () => {
    const labelSets = (samples: Sample[]) =>
      new Set(samplesOf(samples, 'hublet_http_requests_total').map((x) => JSON.stringify(Object.entries(x.labels).sort())));
    const sent: string[] = [];
    /** 36 requests for unknown things, every id new: URLs, gists, users, repositories, under /api/v3 too. */
    const burst = async () => {
      const random = () => crypto.randomBytes(8).toString('hex');
      const paths = Array.from({ length: 36 }, (_, i) => {
        const r = random();
        sent.push(r);
        return [`/${r}/${random()}/x/y`, `/gists/${r}${r}`, `/users/u${r}`, `/repos/o${r}/x`, `/api/v3/${r}`, `/${r}/z`][i % 6];
      });
      for (let i = 0; i < paths.length; i += 6) {
        const statuses = await Promise.all(paths.slice(i, i + 6).map(async (p) => (await s.api('GET', p, { token: alice.token })).status));
        expect(statuses.every((st) => st === 404)).toBe(true);
      }
      return scrape();
    };
    const before = labelSets(await scrape());
    const first = await burst();
    const added = [...labelSets(first)].filter((l) => !before.has(l));
    expect(added.length).toBeLessThanOrEqual(6);
    const second = await burst();
    expect([...labelSets(second)].filter((l) => !labelSets(first).has(l))).toEqual([]);

    const routes = new Set(samplesOf(second, 'hublet_http_request_duration_seconds_count').map((x) => x.labels.route));
    for (const route of routes) expect(route).toMatch(/^(unmatched|\/[a-z0-9_/{}.-]*)$/);
    const values = second.flatMap((x) => Object.values(x.labels));
    for (const r of sent) expect(values.some((v) => v.includes(r))).toBe(false);
  });

  it('counts a rate-limit refusal (403) by the kind of caller', async () => {
    const headers = { 'x-forwarded-for': '198.51.100.7' };
    const before = await scrape();
    let status = 200;
    for (let i = 0; i < 100 && status === 200; i++) status = (await s.api('GET', '/zen', { headers })).status;
    expect(status).toBe(403);
    const moved = delta(before, await scrape());
    expect(moved('hublet_rate_limit_refusals_total', { caller: 'anonymous' })).toBe(1);
    expect(moved('hublet_rate_limit_refusals_total', { caller: 'user' })).toBe(0);
    expect(moved('hublet_http_requests_total', requests('/zen', 'GET', 403, 'none'))).toBe(1);
  });
});

describe('webhook deliveries', () => {
  it('counts a delivery a receiver accepts as a success, and one to a closed port as a failure', async () => {
    await s.createOrg('acme', 'alice-api');
    const rcv = await startReceiver();
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    try {
      const before = await scrape();
      for (const url of [`${rcv.url}/ok`, `http://127.0.0.1:${closedPort}/nobody`]) {
        const r = await s.api('POST', '/orgs/acme/hooks', {
          token: alice.token,
          body: { name: 'web', config: { url, content_type: 'json' } },
        });
        expect(r.status).toBe(201);
      }
      await rcv.waitFor(1);
      await s.app.hublet.jobs.idle();
      const moved = delta(before, await scrape());
      expect(moved('hublet_webhook_deliveries_total', { outcome: 'success' })).toBe(1);
      expect(moved('hublet_webhook_deliveries_total', { outcome: 'failure' })).toBe(1);
      expect(moved('hublet_webhook_delivery_duration_seconds_count')).toBe(2);
    } finally {
      await rcv.close();
    }
  });
});

describe('sign-ins', () => {
  it('counts password sign-ins on the web: a success, failures, and an attempt refused by the throttle', async () => {
    const before = await scrape();
    const web = new WebClient(s.url);
    expect((await web.signIn('alice', PASSWORD)).status).toBe(303);
    const guesser = new WebClient(s.url);
    await guesser.get('/login');
    // Ten wrong passwords for one name are allowed in the window; the eleventh attempt is refused unheard.
    for (let i = 0; i < 10; i++)
      expect((await guesser.post('/session', { login: 'nobody', password: `wrong guess ${i}` })).status).toBe(401);
    expect((await guesser.post('/session', { login: 'nobody', password: 'one more guess' })).status).toBe(429);
    const moved = delta(before, await scrape());
    expect(moved('hublet_sign_ins_total', { outcome: 'success' })).toBe(1);
    expect(moved('hublet_sign_ins_total', { outcome: 'failure' })).toBe(10);
    expect(moved('hublet_sign_ins_total', { outcome: 'throttled' })).toBe(1);
  });
});

describe('git', () => {
  it('counts a clone as a fetch and a push as a push, of a gist', async () => {
    const created = await s.api('POST', '/gists', { token: alice.token, body: { public: true, files: { 'b.txt': { content: 'one\n' } } } });
    const gist = created.body as { id: string; git_pull_url: string; git_push_url: string };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-metrics-git-'));
    try {
      const before = await scrape();
      await git(['clone', '-q', gist.git_pull_url, 'clone'], dir);
      const clone = path.join(dir, 'clone');
      fs.writeFileSync(path.join(clone, 'b.txt'), 'two\n');
      await git(['commit', '-qam', 'two'], clone);
      await git(['push', '-q', withCredentials(gist.git_push_url, 'alice-api', alice.token), 'HEAD'], clone);
      const moved = delta(before, await scrape());
      expect(moved('hublet_git_operations_total', { operation: 'fetch', kind: 'gist' })).toBe(1);
      expect(moved('hublet_git_operations_total', { operation: 'push', kind: 'gist' })).toBe(1);
      expect(moved('hublet_git_operations_total', { operation: 'fetch', kind: 'repository' })).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('jobs and the database', () => {
  it('reports the waiting jobs of each queue and the age of the oldest, read at scrape time', async () => {
    const now = new Date();
    const hourAgo = new Date(now.getTime() - 3_600_000);
    // Queues no worker claims; `queue@destination` is counted with its queue, as held webhook deliveries are.
    await s.app.hublet.jobs.enqueue(s.db, { queue: 'ops.test@one', payload: {}, runAt: hourAgo }, now);
    await s.app.hublet.jobs.enqueue(s.db, { queue: 'ops.test@two', payload: {} }, now);
    await s.app.hublet.jobs.enqueue(s.db, { queue: 'ops.test@two', payload: {}, runAt: new Date(now.getTime() + 3_600_000) }, now);
    try {
      const samples = await scrape();
      expect(sampleValue(samples, 'hublet_jobs_waiting', { queue: 'ops.test' })).toBe(2);
      expect(sampleValue(samples, 'hublet_jobs_oldest_waiting_age_seconds', { queue: 'ops.test' })).toBeGreaterThanOrEqual(3600);
      // The declared queues are reported while none of their jobs waits.
      expect(samplesOf(samples, 'hublet_jobs_waiting', { queue: 'hooks.deliver' })).toHaveLength(1);
      expect(samplesOf(samples, 'hublet_jobs_waiting').some((x) => x.labels.queue.includes('@'))).toBe(false);
    } finally {
      await s.db.deleteFrom('jobs').where('queue', 'like', 'ops.test@%').execute();
    }
    expect(sampleValue(await scrape(), 'hublet_jobs_waiting', { queue: 'ops.test' })).toBe(0);
  });

  it('times database statements, reads and writes, and on SQLite the waits for its writer', async () => {
    const before = await scrape();
    expect((await s.api('POST', '/gists', { token: alice.token, body: { files: { 'c.txt': { content: 'c\n' } } } })).status).toBe(201);
    const moved = delta(before, await scrape());
    expect(moved('hublet_db_query_duration_seconds_count', { kind: 'read' })).toBeGreaterThan(0);
    expect(moved('hublet_db_query_duration_seconds_count', { kind: 'write' })).toBeGreaterThan(0);
    if (!onPostgres) expect(moved('hublet_db_writer_wait_seconds_count')).toBeGreaterThan(0);
  });
});

describe('metrics off', () => {
  it('keeps nothing: without --metrics-listen, and in the CLI’s local mode whatever the setting', async () => {
    const config = s.app.hublet.config;
    for (const options of [{ config: { ...config, metricsListen: undefined } }, { config, local: true }]) {
      const app = await buildApp({ ...options, db: s.db });
      try {
        expect(app.hublet.metrics).toBe(noMetrics);
        expect((await app.hublet.metrics.scrape()).body).toBe('');
      } finally {
        await closeApp(app);
      }
    }
  });
});
