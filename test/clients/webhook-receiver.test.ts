// adnanh's `webhook` (Debian's `webhook` 2.8), unchanged, as the receiver of a repository's hooks on a server with
// GitHub's header names on (hookGithubHeaders). Its hooks file is written from its documentation's "Incoming Github
// webhook" example, with the sha256 signature: a `payload-hmac-sha256` match on X-Hub-Signature-256, X-GitHub-Event in
// the trigger rule, and payload values passed to the command as arguments. The command writes its arguments to a file the
// test reads: a real `git push` and a ping fire it with the right values, a delivery signed with another secret does not.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { authUrl, commitFiles, gitOk, tempDir } from '../repos/helpers.js';
import { requireExecutable } from './tools.js';

const SECRET = 'the-receivers-secret';

let server: TestServer;
let owner: { login: string; token: string };
let receiver: ChildProcess;
let receiverLog = '';
let hooksBase: string;
let clone: string;
/** Where the command writes one line per run: its arguments, tab-separated. */
let ranFile: string;
const tmp = tempDir('hublet-webhook-receiver-');

/** A port nothing listens on: bind port 0, note it, let it go (webhook takes a port number, not 0). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The command's runs so far: one array of arguments each. */
function runs(): string[][] {
  if (!fs.existsSync(ranFile)) return [];
  return fs
    .readFileSync(ranFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));
}

/** The hook's newest delivery (once every queued delivery is done), in the single form. */
async function latestDelivery(hookId: number): Promise<any> {
  await server.app.hublet.jobs.idle();
  const list = await server.api('GET', `/repos/ada/site/hooks/${hookId}/deliveries`, { token: owner.token });
  expect(list.status).toBe(200);
  const [latest] = list.body as { id: number }[];
  return (await server.api('GET', `/repos/ada/site/hooks/${hookId}/deliveries/${latest.id}`, { token: owner.token })).body;
}

async function createHook(hookPath: string, secret: string): Promise<number> {
  const r = await server.api('POST', '/repos/ada/site/hooks', {
    token: owner.token,
    body: { name: 'web', events: ['push'], config: { url: `${hooksBase}/${hookPath}`, content_type: 'json', secret } },
  });
  expect(r.status).toBe(201);
  return r.body.id;
}

beforeAll(async () => {
  const webhookBin = requireExecutable('webhook', 'webhook');
  requireExecutable('git', 'git');
  ranFile = path.join(tmp.dir, 'ran.txt');
  const command = path.join(tmp.dir, 'record.sh');
  fs.writeFileSync(command, `#!/bin/sh\n(IFS='\t'; printf '%s\\n' "$*") >> '${ranFile}'\n`, { mode: 0o755 });
  const signed = { match: { type: 'payload-hmac-sha256', secret: SECRET, parameter: { source: 'header', name: 'X-Hub-Signature-256' } } };
  const event = (name: string) => ({ match: { type: 'value', value: name, parameter: { source: 'header', name: 'X-GitHub-Event' } } });
  const hooks = [
    {
      id: 'redeploy',
      'execute-command': command,
      'command-working-directory': tmp.dir,
      'response-message': 'Executing redeploy script',
      'pass-arguments-to-command': [
        { source: 'header', name: 'X-GitHub-Event' },
        { source: 'payload', name: 'ref' },
        { source: 'payload', name: 'head_commit.id' },
        { source: 'payload', name: 'head_commit.message' },
        { source: 'payload', name: 'pusher.name' },
        { source: 'payload', name: 'repository.full_name' },
      ],
      'trigger-rule': {
        and: [signed, event('push'), { match: { type: 'value', value: 'refs/heads/main', parameter: { source: 'payload', name: 'ref' } } }],
      },
    },
    {
      id: 'ping',
      'execute-command': command,
      'command-working-directory': tmp.dir,
      'response-message': 'Pong',
      'pass-arguments-to-command': [
        { source: 'header', name: 'X-GitHub-Event' },
        { source: 'header', name: 'X-GitHub-Hook-ID' },
        { source: 'payload', name: 'hook_id' },
        { source: 'payload', name: 'hook.config.url' },
        { source: 'payload', name: 'repository.full_name' },
      ],
      'trigger-rule': { and: [signed, event('ping')] },
    },
  ];
  const hooksFile = path.join(tmp.dir, 'hooks.json');
  fs.writeFileSync(hooksFile, JSON.stringify(hooks, null, 2));

  const port = await freePort();
  hooksBase = `http://127.0.0.1:${port}/hooks`;
  receiver = spawn(webhookBin, ['-hooks', hooksFile, '-ip', '127.0.0.1', '-port', String(port), '-verbose'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  receiver.stdout!.setEncoding('utf8').on('data', (c: string) => (receiverLog += c));
  receiver.stderr!.setEncoding('utf8').on('data', (c: string) => (receiverLog += c));
  // It logs `serving hooks on http://127.0.0.1:PORT/hooks/{id}` once it listens.
  await vi.waitFor(
    () => {
      if (receiver.exitCode !== null) throw new Error(`webhook exited ${receiver.exitCode}: ${receiverLog}`);
      expect(receiverLog).toContain(`serving hooks on ${hooksBase}/{id}`);
    },
    { timeout: 10_000, interval: 50 },
  );

  server = await startServer({ config: { hookGithubHeaders: '1' } });
  owner = await server.userWithToken('ada');
  expect((await server.api('POST', '/user/repos', { token: owner.token, body: { name: 'site', auto_init: true } })).status).toBe(201);
  clone = path.join(tmp.dir, 'site');
  await gitOk(['clone', '-q', authUrl(server.url, 'ada', owner.token, '/ada/site.git'), clone], tmp.dir);
});
afterAll(async () => {
  await server?.close();
  if (receiver && receiver.exitCode === null) {
    const exited = new Promise((resolve) => receiver.once('exit', resolve));
    receiver.kill('SIGTERM');
    await exited;
  }
  tmp.cleanup();
});

describe('adnanh/webhook as the receiver', () => {
  let deployHook: number;

  it('a new hook’s ping fires the ping hook’s command with the hook’s id and URL; the push hook ignores its ping', async () => {
    deployHook = await createHook('redeploy', SECRET);
    const ignored = await latestDelivery(deployHook);
    // The ping reaches redeploy, whose rule wants a push: webhook answers, and runs nothing.
    expect(ignored).toMatchObject({ event: 'ping', status_code: 200 });
    expect(ignored.response.payload).toBe('Hook rules were not satisfied.');

    const pingHook = await createHook('ping', SECRET);
    const ping = await latestDelivery(pingHook);
    expect(ping).toMatchObject({ event: 'ping', status_code: 200 });
    expect(ping.response.payload).toBe('Pong');
    await vi.waitFor(() => expect(runs()).toHaveLength(1), { timeout: 10_000, interval: 50 });
    expect(runs()).toEqual([['ping', String(pingHook), String(pingHook), `${hooksBase}/ping`, 'ada/site']]);
  });

  it('a git push fires the redeploy command with the pushed commit, the pusher and the repository', async () => {
    const sha = await commitFiles(clone, 'deploy me', { 'index.html': '<p>hi</p>\n' });
    await gitOk(['push', '-q', 'origin', 'main'], clone);
    const delivery = await latestDelivery(deployHook);
    expect(delivery).toMatchObject({ event: 'push', status_code: 200 });
    expect(delivery.response.payload).toBe('Executing redeploy script');
    expect(delivery.request.headers).toMatchObject({ 'X-GitHub-Event': 'push', 'X-GitHub-Delivery': delivery.guid });
    expect(delivery.request.headers['X-Hub-Signature-256']).toMatch(/^sha256=[0-9a-f]{64}$/);
    await vi.waitFor(() => expect(runs()).toHaveLength(2), { timeout: 10_000, interval: 50 });
    expect(runs()[1]).toEqual(['push', 'refs/heads/main', sha, 'deploy me', 'ada', 'ada/site']);
  });

  it('a delivery signed with another secret does not fire it; the rightly signed one beside it does', async () => {
    // The same endpoint (a query string makes it another URL: GitHub allows one hook per URL), another secret.
    const forged = await createHook('redeploy?copy=1', 'not-the-receivers-secret');
    const sha = await commitFiles(clone, 'second deploy', { 'index.html': '<p>hi again</p>\n' });
    await gitOk(['push', '-q', 'origin', 'main'], clone);
    const refused = await latestDelivery(forged);
    // webhook 2.8 answers a signature that does not match with 500 and runs nothing.
    expect(refused).toMatchObject({ event: 'push', status_code: 500 });
    expect(refused.response.payload).toBe('Error occurred while evaluating hook rules.');
    expect(await latestDelivery(deployHook)).toMatchObject({ event: 'push', status_code: 200 });
    // The signed delivery ran the command once; the other was refused before any command ran.
    await vi.waitFor(() => expect(runs()).toHaveLength(3), { timeout: 10_000, interval: 50 });
    expect(runs()[2]).toEqual(['push', 'refs/heads/main', sha, 'second deploy', 'ada', 'ada/site']);
    expect(receiverLog).toContain(
      `error evaluating hook: invalid payload signatures [${refused.request.headers['X-Hub-Signature-256'].slice(7)}]`,
    );
  });
});
