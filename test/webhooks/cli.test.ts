// `hublet hook …` run in-process against a fake I/O: local mode (deliveries made before the command returns) and remote mode;
// `--signature-format` of create and edit in both, as the API's config shows it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, type CliResult, type Sandbox } from '../helpers/cli.js';
import { runInProcess as runCli } from '../helpers/cli-inprocess.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { signaturesValid, startReceiver, type Receiver } from './receiver.js';

let sb: Sandbox;
let rcv: Receiver;
let db: TestDatabase;
let local: (args: string[]) => Promise<CliResult>;

beforeAll(async () => {
  sb = sandbox();
  rcv = await startReceiver();
  const dir = path.join(sb.root, 'data');
  fs.mkdirSync(dir);
  db = await createTestDatabase(dir);
  const base = ['--data', dir, ...(onPostgres ? ['--database', db.url] : [])];
  local = (args) => runCli([...base, ...args], { env: sb.env });
  // Local mode opens only a data dir that init (or serve) made.
  expect((await local(['init'])).code).toBe(0);
  expect((await local(['admin', 'user', 'create', 'octo'])).code).toBe(0);
  expect((await local(['admin', 'org', 'create', 'acme', '--owner', 'octo'])).code).toBe(0);
});
afterAll(async () => {
  await rcv?.close();
  await db?.drop();
  sb?.cleanup();
});

const ok = (r: CliResult) => {
  expect(r.stderr, r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
};

/** The API's 422 for a `signature_format` it does not take, as the CLI prints an API error: its body on stderr, exit 1. */
function refusedFormat(r: CliResult): void {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).toBe('');
  expect(JSON.parse(r.stderr)).toMatchObject({
    message: 'Validation Failed',
    errors: [
      {
        resource: 'Hook',
        code: 'invalid',
        field: 'signature_format',
        message: 'signature_format must be "github", "standard" or "github,standard"',
      },
    ],
    status: '422',
  });
}

// Deliveries go to a real receiver over HTTP: generous timeouts, no timing asserted.
describe('hublet hook, local mode', { timeout: 120_000 }, () => {
  let id: number;

  it('creates a hook and pings it before returning; lists and shows it', async () => {
    const out = ok(
      await local([
        '--as',
        'octo',
        'hook',
        'create',
        '--org',
        'acme',
        '--url',
        `${rcv.url}/cli`,
        '--secret',
        'cli-secret',
        '--content-type',
        'json',
        '--events',
        'push,repository',
      ]),
    );
    const m = /^created hook (\d+) on acme for push, repository → (\S+)\n$/.exec(out);
    expect(m?.[2]).toBe(`${rcv.url}/cli`);
    id = Number(m![1]);
    // The ping was delivered before the command exited.
    const pings = rcv.received.filter((r) => r.path === '/cli');
    expect(pings).toHaveLength(1);
    expect(pings[0].headers['x-service-event']).toBe('ping');
    expect(signaturesValid(pings[0], 'cli-secret')).toBe(true);

    const list = ok(await local(['--as', 'octo', 'hook', 'list', '--org', 'ACME']));
    expect(list.split('\n')[0]).toMatch(/^ID\s+URL\s+EVENTS\s+ACTIVE\s+LAST$/);
    expect(list).toMatch(new RegExp(`^${id}\\s+${rcv.url}/cli\\s+push,repository\\s+yes\\s+OK$`, 'm'));
    const json = JSON.parse(ok(await local(['--as', 'octo', '--json', 'hook', 'view', '--org', 'acme', String(id)])));
    expect(json).toMatchObject({
      id,
      events: ['push', 'repository'],
      config: { url: `${rcv.url}/cli`, content_type: 'json', secret: '********' },
      last_response: { code: 200 },
    });
    const view = ok(await local(['--as', 'octo', 'hook', 'view', '--org', 'acme', String(id)]));
    expect(view).toContain('secret        set');
    expect(view).not.toContain('cli-secret');
  });

  it('edits only what it is told (the secret survives an events change)', async () => {
    const edited = JSON.parse(
      ok(await local(['--as', 'octo', '--json', 'hook', 'edit', '--org', 'acme', String(id), '--events', '*', '--content-type', 'form'])),
    );
    expect(edited).toMatchObject({ events: ['*'], config: { content_type: 'form', secret: '********', url: `${rcv.url}/cli` } });
  });

  it('pings, lists deliveries, shows one, redelivers it: each delivered before the command returns', async () => {
    const ping = ok(await local(['--as', 'octo', 'hook', 'ping', '--org', 'acme', String(id)]));
    expect(ping).toMatch(/^delivery \d+ \(ping\): 200 OK in [\d.]+s\n$/);
    const signed = rcv.received.filter((r) => r.path === '/cli');
    expect(signed).toHaveLength(2);
    expect(signed[1].headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(signaturesValid(signed[1], 'cli-secret')).toBe(true);

    const table = ok(await local(['--as', 'octo', 'hook', 'deliveries', '--org', 'acme', String(id)]));
    const rows = table.trim().split('\n');
    expect(rows[0]).toMatch(/^ID\s+GUID\s+EVENT\s+CODE\s+STATUS\s+REDELIVERY\s+DELIVERED$/);
    expect(rows).toHaveLength(3);
    const list = JSON.parse(ok(await local(['--as', 'octo', '--json', 'hook', 'deliveries', '--org', 'acme', String(id)])));
    expect(list.map((d: { event: string; status: string }) => [d.event, d.status])).toEqual([
      ['ping', 'OK'],
      ['ping', 'OK'],
    ]);
    expect(
      JSON.parse(ok(await local(['--as', 'octo', '--json', 'hook', 'deliveries', '--org', 'acme', String(id), '--status', 'failure']))),
    ).toEqual([]);

    const detail = ok(await local(['--as', 'octo', 'hook', 'delivery', '--org', 'acme', String(id), String(list[1].id)]));
    expect(detail).toContain(`guid ${list[1].guid}`);
    expect(detail).toContain(`X-Service-Delivery: ${list[1].guid}`);
    expect(detail).toContain('"zen"');

    const again = JSON.parse(
      ok(await local(['--as', 'octo', '--json', 'hook', 'redeliver', '--org', 'acme', String(id), String(list[1].id)])),
    );
    expect(again).toMatchObject({ guid: list[1].guid, redelivery: true, status: 'OK' });
    const last = rcv.received.filter((r) => r.path === '/cli').at(-1)!;
    expect(last.headers['x-service-delivery']).toBe(list[1].guid);
  });

  it('still takes the positional ORG of earlier versions (ping, deliveries, delivery, redeliver), with a deprecation note', async () => {
    const note = (cmd: string) => `hublet: \`hook ${cmd}\` is deprecated; use \`hook ${cmd.replace(' ORG ', ' --org ORG ')}\`\n`;
    const ping = await local(['--as', 'octo', 'hook', 'ping', 'acme', String(id)]);
    expect(ping.code).toBe(0);
    expect(ping.stdout).toMatch(/^delivery \d+ \(ping\): 200 OK in [\d.]+s\n$/);
    expect(ping.stderr).toBe(note('ping ORG ID'));
    expect(rcv.received.filter((r) => r.path === '/cli').at(-1)!.headers['x-service-event']).toBe('ping');

    const old = await local(['--as', 'octo', '--json', 'hook', 'deliveries', 'acme', String(id)]);
    expect(old.stderr).toBe(note('deliveries ORG ID'));
    expect(old.code).toBe(0);
    const list = JSON.parse(old.stdout);
    expect(list).toEqual(JSON.parse(ok(await local(['--as', 'octo', '--json', 'hook', 'deliveries', '--org', 'acme', String(id)]))));
    expect(list[0].event).toBe('ping');

    const detail = await local(['--as', 'octo', 'hook', 'delivery', 'acme', String(id), String(list[0].id)]);
    expect(detail.stderr).toBe(note('delivery ORG ID DELIVERY_ID'));
    expect(detail.stdout).toBe(ok(await local(['--as', 'octo', 'hook', 'delivery', '--org', 'acme', String(id), String(list[0].id)])));

    const again = await local(['--as', 'octo', '--json', 'hook', 'redeliver', 'acme', String(id), String(list[0].id)]);
    expect(again.stderr).toBe(note('redeliver ORG ID DELIVERY_ID'));
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ guid: list[0].guid, redelivery: true, status: 'OK' });
  });

  it('reports a failed ping with exit 1', async () => {
    rcv.answer((r) => (r.path === '/cli-broken' ? { status: 503, body: 'down' } : { status: 200 }));
    const created = JSON.parse(
      ok(await local(['--as', 'octo', '--json', 'hook', 'create', '--org', 'acme', '--url', `${rcv.url}/cli-broken`])),
    );
    const r = await local(['--as', 'octo', 'hook', 'ping', '--org', 'acme', String(created.id)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^delivery \d+ \(ping\): 503 Invalid HTTP Response: 503/);
    expect(r.stderr).toMatch(/delivery \d+ failed: Invalid HTTP Response: 503/);
    const failures = JSON.parse(
      ok(await local(['--as', 'octo', '--json', 'hook', 'deliveries', '--org', 'acme', String(created.id), '--status', 'failure'])),
    );
    expect(failures).toHaveLength(2);
    rcv.answer({ status: 200 });
  });

  it('deletes a hook, sending its meta event before returning', async () => {
    expect(ok(await local(['--as', 'octo', 'hook', 'delete', '--org', 'acme', String(id)]))).toBe(`deleted hook ${id}\n`);
    const meta = rcv.received.filter((r) => r.path === '/cli').at(-1)!;
    expect(meta.headers['x-service-event']).toBe('meta');
    expect(meta.payload).toMatchObject({ action: 'deleted', hook_id: id });
    const gone = await local(['--as', 'octo', 'hook', 'view', '--org', 'acme', String(id)]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('"Not Found"');
  });

  it('--signature-format: a hook signing as Standard Webhooks (its ping verified), shown; edited to both, then back to github', async () => {
    const secret = `whsec_${crypto.randomBytes(32).toString('base64')}`;
    const as = ['--as', 'octo'];
    const created = JSON.parse(
      ok(
        await local([
          ...as,
          '--json',
          'hook',
          'create',
          '--org',
          'acme',
          '--url',
          `${rcv.url}/cli-sw`,
          '--secret',
          secret,
          '--content-type',
          'json',
          '--signature-format',
          'standard',
        ]),
      ),
    );
    expect(created.config).toMatchObject({ url: `${rcv.url}/cli-sw`, secret: '********', signature_format: 'standard' });
    // The ping, delivered before the command returned, carries Standard Webhooks' headers alone.
    const [ping] = rcv.received.filter((r) => r.path === '/cli-sw');
    const headers = Object.fromEntries(Object.entries(ping.headers).map(([k, v]) => [k, String(v)]));
    expect(new Webhook(secret).verify(ping.body.toString('utf8'), headers)).toMatchObject({ hook_id: created.id });
    expect(ping.headers['x-hub-signature-256']).toBeUndefined();
    const config = () => local([...as, 'api', `/orgs/acme/hooks/${created.id}/config`]).then((r) => JSON.parse(ok(r)));
    expect(await config()).toEqual({
      url: `${rcv.url}/cli-sw`,
      content_type: 'json',
      insecure_ssl: '0',
      secret: '********',
      signature_format: 'standard',
    });
    expect(ok(await local([...as, 'hook', 'view', '--org', 'acme', String(created.id)]))).toContain('\nsignature     standard\n');

    const edit = (format: string) =>
      local([...as, '--json', 'hook', 'edit', '--org', 'acme', String(created.id), '--signature-format', format]);
    expect(JSON.parse(ok(await edit('github,standard'))).config).toMatchObject({ signature_format: 'github,standard', secret: '********' });
    expect(await config()).toMatchObject({ signature_format: 'github,standard' });
    // Back to GitHub's: the API shows no signature_format then; the secret and the rest stay.
    const back = JSON.parse(ok(await edit('github')));
    expect(back.config).toEqual({ url: `${rcv.url}/cli-sw`, content_type: 'json', insecure_ssl: '0', secret: '********' });
    expect(await config()).not.toHaveProperty('signature_format');
    expect(ok(await local([...as, 'hook', 'view', '--org', 'acme', String(created.id)]))).toContain('\nsignature     github\n');
    await local([...as, 'hook', 'delete', '--org', 'acme', String(created.id)]);
  });

  it('--signature-format with a value the API does not take: its 422, exit 1, nothing created or changed', async () => {
    const list = () => local(['--as', 'octo', '--json', 'hook', 'list', '--org', 'acme']).then((r) => JSON.parse(ok(r)));
    const hook = JSON.parse(ok(await local(['--as', 'octo', '--json', 'hook', 'create', '--org', 'acme', '--url', `${rcv.url}/cli-kept`])));
    const before = await list();
    const bad = await local([
      '--as',
      'octo',
      'hook',
      'create',
      '--org',
      'acme',
      '--url',
      `${rcv.url}/cli-bad`,
      '--signature-format',
      'sha1',
    ]);
    refusedFormat(bad);
    expect(await list()).toEqual(before);
    expect(rcv.received.filter((r) => r.path === '/cli-bad')).toEqual([]);
    for (const format of ['Standard', 'standard,github', ''])
      refusedFormat(await local(['--as', 'octo', 'hook', 'edit', '--org', 'acme', String(hook.id), '--signature-format', format]));
    expect(await list()).toEqual(before);
    await local(['--as', 'octo', 'hook', 'delete', '--org', 'acme', String(hook.id)]);
  });

  it('exits 2 on usage errors before touching anything', async () => {
    const [badId, noOrg, badStatus, nothing, pingNoOrg, pingTwice, badDelivery] = await Promise.all([
      runCli(['hook', 'view', '--org', 'acme', 'abc'], { env: sb.env }),
      runCli(['hook', 'list'], { env: sb.env }),
      runCli(['hook', 'deliveries', '--org', 'acme', '1', '--status', 'meh'], { env: sb.env }),
      local(['--as', 'octo', 'hook', 'edit', '--org', 'acme', '1']),
      runCli(['hook', 'ping', '1'], { env: sb.env }),
      runCli(['hook', 'ping', '--org', 'acme', 'acme', '1'], { env: sb.env }),
      runCli(['hook', 'delivery', '--org', 'acme', '1', 'x'], { env: sb.env }),
    ]);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain('expected a positive integer');
    expect(noOrg.code).toBe(2);
    expect(noOrg.stderr).toContain("required option '--org <org>' not specified");
    expect(badStatus.code).toBe(2);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to change');
    expect(pingNoOrg.code).toBe(2);
    expect(pingNoOrg.stderr).toContain("required option '--org <org>' not specified");
    expect(pingTwice.code).toBe(2);
    expect(pingTwice.stderr).toContain("too many arguments for 'ping'");
    expect(badDelivery.code).toBe(2);
    expect(badDelivery.stderr).toContain("invalid for argument 'delivery_id'. expected a positive integer");
  });
});

describe('hublet hook, remote mode', { timeout: 120_000 }, () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startServer();
    token = (await s.userWithToken('remote')).token;
    await s.createOrg('far', 'remote');
  });
  afterAll(async () => s?.close());
  const remote = (args: string[]) => runCli(['--server', s.url, '--token', token, ...args], { env: sb.env });

  it('creates and pings through the server, which delivers; API errors exit 1', async () => {
    const created = JSON.parse(ok(await remote(['--json', 'hook', 'create', '--org', 'far', '--url', `${rcv.url}/remote`])));
    // The server pings a new hook on its own: that delivery recorded first, so the ping below is told apart from it (a
    // process of the CLI used to take long enough to start that it always was).
    for (let i = 0; i < 300; i++) {
      const recorded = await s.api('GET', `/orgs/far/hooks/${created.id}/deliveries`, { token });
      if (recorded.body.length >= 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const ping = ok(await remote(['hook', 'ping', '--org', 'far', String(created.id)]));
    expect(ping).toMatch(/^delivery \d+ \(ping\): 200 OK in [\d.]+s\n$/);
    expect(rcv.received.filter((r) => r.path === '/remote').length).toBeGreaterThanOrEqual(2);
    const missing = await remote(['hook', 'deliveries', '--org', 'far', '999999']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Not Found');
    // The positional form of earlier versions, remotely too.
    const old = await remote(['--json', 'hook', 'deliveries', 'far', String(created.id)]);
    expect(old.code).toBe(0);
    expect(old.stderr).toBe('hublet: `hook deliveries ORG ID` is deprecated; use `hook deliveries --org ORG ID`\n');
    expect(JSON.parse(old.stdout).map((d: { event: string }) => d.event)).toEqual(['ping', 'ping']);
    const dup = await remote(['hook', 'create', '--org', 'far', '--url', `${rcv.url}/remote`]);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('Hook already exists on this organization');
  });

  it('--signature-format goes to the server in the config: created standard, edited back to github; a bad value is its 422', async () => {
    const created = JSON.parse(
      ok(await remote(['--json', 'hook', 'create', '--org', 'far', '--url', `${rcv.url}/remote-sw`, '--signature-format', 'standard'])),
    );
    const config = async () => (await s.api('GET', `/orgs/far/hooks/${created.id}/config`, { token })).body;
    expect(await config()).toMatchObject({ url: `${rcv.url}/remote-sw`, signature_format: 'standard' });
    expect(ok(await remote(['hook', 'view', '--org', 'far', String(created.id)]))).toContain('\nsignature     standard\n');
    refusedFormat(await remote(['hook', 'edit', '--org', 'far', String(created.id), '--signature-format', 'standard,github']));
    expect(await config()).toMatchObject({ signature_format: 'standard' });
    ok(await remote(['hook', 'edit', '--org', 'far', String(created.id), '--signature-format', 'github']));
    expect(await config()).toEqual({ url: `${rcv.url}/remote-sw`, content_type: 'form', insecure_ssl: '0' });
    const hooks = async () => (await s.api('GET', '/orgs/far/hooks', { token })).body.length;
    const count = await hooks();
    refusedFormat(await remote(['hook', 'create', '--org', 'far', '--url', `${rcv.url}/remote-bad`, '--signature-format', 'hmac']));
    expect(await hooks()).toBe(count);
  });
});
