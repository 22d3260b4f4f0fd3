// Traces from `hublet serve` as a real process with OTEL_EXPORTER_OTLP_ENDPOINT set, received by a test OTLP/HTTP
// receiver (on the database the suite runs on, SQLite or PostgreSQL; one process for the file): a server span per
// request named for its route, a span per database statement with its text and no value sent, `git upload-pack` under
// the clone's requests, `webhook.deliver` linked to the request that recorded its event, `migration.export`, and the
// last spans sent before the process exits on SIGTERM.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServeProcess } from '../helpers/cli.js';
import { onPostgres } from '../helpers/database.js';
import { useServeProcesses } from '../webhooks/serve-processes.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './otlp-receiver.js';

const ADMIN = `hlp_trace${Math.random().toString(36).slice(2)}`;
const fx = useServeProcesses(ADMIN);
const { call } = fx;
const run = promisify(execFile);

/** OTLP's SpanKind values. */
const SERVER = 2;
const CLIENT = 3;

let otlp: OtlpReceiver;
let p: ServeProcess;
let dataDir: string;

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  const data = await fx.freshDataDir('traces');
  dataDir = data.dir;
  // The batch of spans goes out within a second; the sandbox's environment is the test runner's, so any other OTEL_*
  // setting it has is cleared here.
  const env: Record<string, string | undefined> = {
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_BSP_SCHEDULE_DELAY: '1000',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
    OTEL_EXPORTER_OTLP_PROTOCOL: undefined,
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: undefined,
    OTEL_SERVICE_NAME: undefined,
    OTEL_RESOURCE_ATTRIBUTES: undefined,
    OTEL_TRACES_SAMPLER: undefined,
    OTEL_TRACES_EXPORTER: undefined,
    OTEL_SDK_DISABLED: undefined,
  };
  p = await fx.serve([...data.args, '--hook-allowed-hosts', 'loopback'], env as Record<string, string>);
}, 60_000);
afterAll(async () => {
  await otlp?.close();
});

/** The server span of a request to `route` (the template) that answered `status`, when one was received. */
function serverSpan(
  spans: ReceivedSpan[],
  method: string,
  route: string,
  status: number,
  not: ReceivedSpan[] = [],
): ReceivedSpan | undefined {
  return spans.find(
    (s) =>
      s.kind === SERVER &&
      s.name === `${method} ${route}` &&
      s.attributes['http.route'] === route &&
      s.attributes['http.response.status_code'] === status &&
      !not.includes(s),
  );
}

describe('traces (OTEL_EXPORTER_OTLP_ENDPOINT set)', { timeout: 60_000 }, () => {
  let gistId: string;
  const description = `traced-description-${Math.random().toString(36).slice(2)}`;
  const content = `traced-content-${Math.random().toString(36).slice(2)}`;

  it('makes a span per database statement of a request: its SQL text, never a value sent', async () => {
    const created = await call(p, 'POST', '/gists', { description, public: true, files: { 'notes.txt': { content } } });
    expect(created.status).toBe(201);
    gistId = created.body.id;

    const post = await otlp.waitFor('POST /gists server span', (spans) => serverSpan(spans, 'POST', '/gists', 201));
    const statements = await otlp.waitFor('the insert of the gist', (spans) => {
      const inTrace = spans.filter((s) => s.traceId === post.traceId && s.kind === CLIENT && s.attributes['db.query.text'] !== undefined);
      return inTrace.some((s) => /insert into "gists"/i.test(String(s.attributes['db.query.text']))) ? inTrace : undefined;
    });
    for (const s of statements) {
      expect(s.attributes['db.system.name']).toBe(onPostgres ? 'postgresql' : 'sqlite');
      expect(s.parentSpanId).toBeDefined();
    }
    // The statements' text has placeholders: no value the request sent reached the receiver, in any span or attribute.
    const everything = otlp.bodies.join('\n');
    expect(everything).not.toContain(description);
    expect(everything).not.toContain(content);
    expect(post.resource['service.name']).toBe('hublet');
    expect(post.scope).toBe('@opentelemetry/instrumentation-http');
  });

  it('names the server span of a request for its route, with http.route and the status code (the fast path’s too)', async () => {
    // A statement reading the gist in a request's trace: the response was built, not answered by the fast path.
    const readsGist = (span: ReceivedSpan) =>
      otlp.spans.some((s) => s.traceId === span.traceId && /from "gists"/.test(String(s.attributes['db.query.text'] ?? '')));
    // The first read builds the response; later ones are answered by the fast path from the response cache (until a
    // commit of this server's background work makes the entry stale: reads in a row).
    for (let i = 0; i < 8; i++) expect((await call(p, 'GET', `/gists/${gistId}`)).status).toBe(200);
    const reads = await otlp.waitFor('eight GET /gists/{gist_id}', (spans) => {
      const found = spans.filter(
        (s) => s.kind === SERVER && s.name === 'GET /gists/{gist_id}' && s.attributes['http.response.status_code'] === 200,
      );
      return found.length >= 8 ? found : undefined;
    });
    for (const span of reads) {
      expect(span.attributes['http.route']).toBe('/gists/{gist_id}');
      expect(span.attributes['url.path']).toBe(`/gists/${gistId}`);
    }
    expect(readsGist(reads[0])).toBe(true);
    const cached = reads.find((span) => !readsGist(span));
    expect(cached).toBeDefined();
    expect((await call(p, 'GET', '/gists/0123456789abcdef0123456789abcdef')).status).toBe(404);
    const missing = await otlp.waitFor('a 404', (spans) => serverSpan(spans, 'GET', '/gists/{gist_id}', 404));
    expect(missing.statusCode).toBe(0); // a 4xx is the client's error, not the server's (HTTP semantic conventions)
  });

  it('makes a span `git upload-pack` per git subprocess of a clone, under the request that ran it', async () => {
    const clone = path.join(dataDir, 'clone');
    await run('git', ['clone', '--quiet', `${p.url}/gist/${gistId}.git`, clone], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
    expect(fs.readFileSync(path.join(clone, 'notes.txt'), 'utf8')).toBe(content);
    for (const [method, route, endpoint] of [
      ['GET', '/gist/{gist_id}.git/info/refs', 'info/refs'],
      ['POST', '/gist/{gist_id}.git/git-upload-pack', 'git-upload-pack'],
    ]) {
      const git = await otlp.waitFor(`git upload-pack under ${method} ${route}`, (spans) =>
        spans.find(
          (s) =>
            s.name === 'git upload-pack' &&
            s.attributes['git.endpoint'] === endpoint &&
            spans.some((r) => r.spanId === s.parentSpanId && r.kind === SERVER && r.attributes['http.route'] === route),
        ),
      );
      expect(git.scope).toBe('hublet');
    }
  });

  it('makes a span `webhook.deliver` per delivery, a trace of its own linked to the request that recorded the event', async () => {
    expect((await call(p, 'POST', '/admin/organizations', { login: 'traced', admin: 'admin' })).status).toBe(201);
    // Made active, the hook is pinged in the request's own transaction; the second ping is recorded on its own.
    const hook = await call(p, 'POST', '/orgs/traced/hooks', {
      name: 'web',
      config: { url: `${fx.rcv.url}/traced`, content_type: 'json' },
    });
    expect(hook.status).toBe(201);
    expect((await call(p, 'POST', `/orgs/traced/hooks/${hook.body.id}/pings`)).status).toBe(204);
    const received = await fx.rcv.waitFor(2, (r) => r.path === '/traced');

    for (const [method, route, status] of [
      ['POST', '/orgs/{org}/hooks', 201],
      ['POST', '/orgs/{org}/hooks/{hook_id}/pings', 204],
    ] as const) {
      const request = await otlp.waitFor(`${method} ${route}`, (spans) => serverSpan(spans, method, route, status));
      const delivery = await otlp.waitFor(`webhook.deliver linked to ${method} ${route}`, (spans) =>
        spans.find(
          (s) => s.name === 'webhook.deliver' && s.links.some((l) => l.traceId === request.traceId && l.spanId === request.spanId),
        ),
      );
      expect(delivery.parentSpanId).toBeUndefined();
      expect(delivery.traceId).not.toBe(request.traceId);
      expect(delivery.attributes).toMatchObject({
        'webhook.hook.id': hook.body.id,
        'webhook.event': 'ping',
        'webhook.attempt': 1,
        'http.response.status_code': 200,
        'webhook.outcome': 'success',
      });
      expect(received.map((r) => r.headers['x-service-delivery'])).toContain(delivery.attributes['webhook.delivery.guid']);
      // The job worker woken by the request claims and runs the delivery in a context of its own, not the request's.
      const inRequest = otlp.spans.filter((s) => s.traceId === request.traceId).map((s) => String(s.attributes['db.query.text'] ?? ''));
      expect(inRequest.filter((text) => /^update "jobs"|from "webhooks"/i.test(text))).toEqual([]);
    }
  });

  it('makes a span `migration.export` per export, a trace of its own with the export’s statements and git commands', async () => {
    expect((await call(p, 'POST', '/orgs/traced/repos', { name: 'exported' })).status).toBe(201);
    const started = await call(p, 'POST', '/orgs/traced/migrations', { repositories: ['exported'] });
    expect(started.status).toBe(201);
    const exported = await otlp.waitFor('migration.export', (spans) =>
      spans.find((s) => s.name === 'migration.export' && s.attributes['migration.id'] === started.body.id),
    );
    expect(exported.parentSpanId).toBeUndefined();
    expect(exported.statusCode).not.toBe(2);
    const inside = otlp.spans.filter((s) => s.traceId === exported.traceId && s !== exported);
    expect(inside.some((s) => s.attributes['db.query.text'] !== undefined)).toBe(true);
    expect(inside.some((s) => /^git (clone|init)$/.test(s.name))).toBe(true);
  });

  it('sends the spans not sent yet before the process exits on SIGTERM', async () => {
    expect((await fetch(`${p.url}/zen`)).status).toBe(200);
    expect(await p.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(serverSpan(otlp.spans, 'GET', '/zen', 200)).toBeDefined();
    expect(otlp.refused).toEqual([]);
    expect(p.stderr()).toBe('');
  });
});
