// GitHub's header names on request (hookGithubHeaders: `serve --hook-github-headers`, HUBLET_HOOK_GITHUB_HEADERS=1):
// @octokit/webhooks' createNodeMiddleware, unchanged, as the receiver on 127.0.0.1 verifies and dispatches a real
// `git push` from a server with the setting, and answers 400 "Required headers missing" to one without it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createNodeMiddleware, Webhooks } from '@octokit/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { authUrl, commitFiles, gitOk, tempDir } from '../repos/helpers.js';

const SECRET = 'octokit-verifies-this';

interface Dispatched {
  id: string;
  name: string;
  after: string;
  repository: string;
}

/** createNodeMiddleware as its documentation shows it, behind a server that notes each request's headers first. */
async function startOctokitReceiver() {
  const dispatched: Dispatched[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  const webhooks = new Webhooks({ secret: SECRET });
  webhooks.on('push', ({ id, name, payload }) => {
    dispatched.push({ id, name, after: payload.after, repository: payload.repository.full_name });
  });
  // Its own options only: the path, and a logger that keeps the refused signature of one test out of the output.
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  const middleware = createNodeMiddleware(webhooks, { path: '/api/github/webhooks', log: quiet });
  const server = http.createServer((req, res) => {
    headers.push(req.headers);
    void middleware(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`,
    dispatched,
    headers,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type OctokitReceiver = Awaited<ReturnType<typeof startOctokitReceiver>>;

let withNames: TestServer;
let without: TestServer;
let receiver: OctokitReceiver;
let named: Awaited<ReturnType<typeof setUp>>;
const tmp = tempDir('hublet-github-headers-');

/** octo, the organization Acme with a push hook to the receiver, and a repository; returns the hook's id and a clone. */
async function setUp(s: TestServer, name: string) {
  const octo = await s.userWithToken('octo');
  const org = await s.createOrg('Acme', 'octo');
  const hook = await s.api('POST', '/orgs/acme/hooks', {
    token: octo.token,
    body: { name: 'web', events: ['push'], config: { url: receiver.url, content_type: 'json', secret: SECRET } },
  });
  expect(hook.status).toBe(201);
  expect((await s.api('POST', '/orgs/acme/repos', { token: octo.token, body: { name, auto_init: true } })).status).toBe(201);
  const dir = path.join(tmp.dir, name);
  await gitOk(['clone', '-q', authUrl(s.url, 'octo', octo.token, `/Acme/${name}.git`), dir], tmp.dir);
  await s.app.hublet.jobs.idle();
  return { octo, org, hookId: hook.body.id as number, dir };
}

async function latestDelivery(s: TestServer, token: string, hookId: number) {
  await s.app.hublet.jobs.idle();
  const [latest] = (await s.api('GET', `/orgs/acme/hooks/${hookId}/deliveries`, { token })).body as {
    id: number;
    event: string;
    status_code: number;
  }[];
  return (await s.api('GET', `/orgs/acme/hooks/${hookId}/deliveries/${latest.id}`, { token })).body;
}

beforeAll(async () => {
  receiver = await startOctokitReceiver();
  [withNames, without] = await Promise.all([startServer({ config: { hookGithubHeaders: '1' } }), startServer()]);
});
afterAll(async () => {
  await withNames?.close();
  await without?.close();
  await receiver?.close();
  tmp.cleanup();
});

describe('hookGithubHeaders', () => {
  it('with the setting, createNodeMiddleware verifies the signature and dispatches a pushed commit', async () => {
    named = await setUp(withNames, 'named');
    const { octo, org, hookId, dir } = named;
    const sha = await commitFiles(dir, 'for octokit', { 'o.txt': 'o\n' });
    const before = receiver.dispatched.length;
    await gitOk(['push', '-q', 'origin', 'main'], dir);
    const delivery = await latestDelivery(withNames, octo.token, hookId);
    expect(delivery).toMatchObject({ event: 'push', status_code: 200 });
    const got = receiver.dispatched.slice(before);
    expect(got).toEqual([{ id: delivery.guid, name: 'push', after: sha, repository: 'Acme/named' }]);

    // Both names, the same values; the delivery record shows what was sent.
    const sent = receiver.headers.find((h) => h['x-github-delivery'] === delivery.guid)!;
    expect(sent).toMatchObject({
      'x-github-event': 'push',
      'x-github-hook-id': String(hookId),
      'x-github-hook-installation-target-id': String(org.id),
      'x-github-hook-installation-target-type': 'organization',
      'x-service-event': 'push',
      'x-service-delivery': delivery.guid,
      'x-service-hook-id': String(hookId),
    });
    expect(delivery.request.headers).toMatchObject({
      'X-GitHub-Event': 'push',
      'X-GitHub-Delivery': delivery.guid,
      'X-Service-Event': 'push',
    });
  });

  it('a wrong secret is refused by the middleware even with GitHub’s names (the signature is what it checks)', async () => {
    const { octo, hookId, dir } = named;
    expect(
      (await withNames.api('PATCH', `/orgs/acme/hooks/${hookId}/config`, { token: octo.token, body: { secret: 'not-the-secret' } })).status,
    ).toBe(200);
    await commitFiles(dir, 'forged?', { 'f.txt': 'f\n' });
    const before = receiver.dispatched.length;
    await gitOk(['push', '-q', 'origin', 'main'], dir);
    const delivery = await latestDelivery(withNames, octo.token, hookId);
    expect(delivery).toMatchObject({ event: 'push', status_code: 400 });
    expect(receiver.dispatched.length).toBe(before);
  });

  it('without it (the default), the middleware answers 400 Required headers missing and dispatches nothing', async () => {
    const { octo, hookId, dir } = await setUp(without, 'plain');
    await commitFiles(dir, 'unheard', { 'u.txt': 'u\n' });
    const before = receiver.dispatched.length;
    await gitOk(['push', '-q', 'origin', 'main'], dir);
    const delivery = await latestDelivery(without, octo.token, hookId);
    expect(delivery).toMatchObject({ event: 'push', status_code: 400 });
    expect(delivery.response.payload).toMatch(/Required headers missing: .*x-github-event/);
    expect(delivery.request.headers).not.toHaveProperty('X-GitHub-Event');
    expect(receiver.dispatched.length).toBe(before);
  });

  it('is read from HUBLET_HOOK_GITHUB_HEADERS (1/0/true/false); anything else is a configuration problem', () => {
    expect(loadConfig({}, {}).hookGithubHeaders).toBe(false);
    expect(loadConfig({}, { HUBLET_HOOK_GITHUB_HEADERS: '1' }).hookGithubHeaders).toBe(true);
    expect(loadConfig({}, { HUBLET_HOOK_GITHUB_HEADERS: 'true' }).hookGithubHeaders).toBe(true);
    expect(loadConfig({}, { HUBLET_HOOK_GITHUB_HEADERS: '0' }).hookGithubHeaders).toBe(false);
    expect(() => loadConfig({}, { HUBLET_HOOK_GITHUB_HEADERS: 'yes please' })).toThrow(ConfigError);
    expect(() => loadConfig({}, { HUBLET_HOOK_GITHUB_HEADERS: 'yes please' })).toThrow(
      /hookGithubHeaders \(HUBLET_HOOK_GITHUB_HEADERS\): expected 1 or 0/,
    );
  });
});
