// `hublet hook redeliver --failed [--since …]` against a real server and a receiver that fails, then succeeds: one attempt
// per failed event, events delivered since left alone, --since as a cut, --json, exit 1 when attempts are refused;
// the single redelivery beside it; `--repo OWNER/REPO` on the hook commands and its usage errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, type CliResult, type Sandbox } from '../helpers/cli.js';
import { runInProcess as runCli } from '../helpers/cli-inprocess.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from './receiver.js';

let sb: Sandbox;
let s: TestServer;
let rcv: Receiver;
let token: string;

beforeAll(async () => {
  sb = sandbox();
  s = await startServer();
  rcv = await startReceiver();
  token = (await s.userWithToken('octo')).token;
  await s.createOrg('acme', 'octo');
});
afterAll(async () => {
  await s?.close();
  await rcv?.close();
  sb?.cleanup();
});

const remote = (args: string[], as = token) => runCli(['--server', s.url, '--token', as, ...args], { env: sb.env });
const ok = (r: CliResult) => {
  expect(r.stderr, r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
};

interface DeliveryItem {
  id: number;
  guid: string;
  event: string;
  redelivery: boolean;
  status_code: number;
  delivered_at: string;
}

async function deliveries(hooksPath: string, hookId: number): Promise<DeliveryItem[]> {
  const r = await s.api('GET', `${hooksPath}/${hookId}/deliveries?per_page=100`, { token });
  expect(r.status).toBe(200);
  return r.body;
}

/** Waits (with a deadline) until the hook has `n` recorded deliveries; returns them, newest first. */
async function recorded(hooksPath: string, hookId: number, n: number): Promise<DeliveryItem[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const list = await deliveries(hooksPath, hookId);
    if (list.length >= n) return list;
    if (Date.now() > deadline) throw new Error(`hook ${hookId} has ${list.length} deliveries, not ${n}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function createHook(hooksPath: string, path: string): Promise<number> {
  const r = await s.api('POST', hooksPath, { token, body: { name: 'web', config: { url: `${rcv.url}${path}`, content_type: 'json' } } });
  expect(r.status).toBe(201);
  return r.body.id;
}

async function ping(hooksPath: string, hookId: number, n: number): Promise<void> {
  expect((await s.api('POST', `${hooksPath}/${hookId}/pings`, { token })).status).toBe(204);
  await recorded(hooksPath, hookId, n);
}

describe('hublet hook redeliver --failed', { timeout: 120_000 }, () => {
  const org = '/orgs/acme/hooks';

  it('redelivers each failed event once, oldest first, leaving alone the ones delivered since', async () => {
    rcv.answer((r) => (r.path === '/bulk' ? { status: 500, body: 'down' } : { status: 200 }));
    const id = await createHook(org, '/bulk');
    await recorded(org, id, 1);
    await ping(org, id, 2);
    await ping(org, id, 3);
    const [third, second, first] = await deliveries(org, id);
    expect([first, second, third].every((d) => d.status_code === 500)).toBe(true);

    // The receiver is back: the first event is sent again by hand, and succeeds.
    rcv.answer({ status: 200 });
    expect(ok(await remote(['hook', 'redeliver', '--org', 'acme', String(id), String(first.id)]))).toMatch(
      /^delivery \d+ \(ping, redelivery\): 200 OK/,
    );

    const out = ok(await remote(['hook', 'redeliver', '--org', 'acme', String(id), '--failed']));
    expect(out.split('\n')).toEqual([
      `redelivered ${second.id}  ping  (was 500 Invalid HTTP Response: 500, ${second.delivered_at})`,
      `redelivered ${third.id}  ping  (was 500 Invalid HTTP Response: 500, ${third.delivered_at})`,
      `2 failed deliveries of hook ${id} redelivered (1 delivered successfully since, skipped)`,
      '',
    ]);
    const after = await recorded(org, id, 6);
    const redelivered = after.filter((d) => d.redelivery && d.status_code === 200).map((d) => d.guid);
    expect(redelivered.sort()).toEqual([first.guid, second.guid, third.guid].sort());
    expect(rcv.received.filter((r) => r.path === '/bulk' && r.headers['x-service-delivery'] === second.guid)).toHaveLength(2);

    // Nothing failed is left undelivered: a second run sends nothing.
    expect(ok(await remote(['hook', 'redeliver', '--org', 'acme', String(id), '--failed']))).toBe(
      `0 failed deliveries of hook ${id} redelivered (3 delivered successfully since, skipped)\n`,
    );
  });

  it('stops at --since (a duration or a time) and prints JSON with --json', async () => {
    rcv.answer((r) => (r.path === '/since' ? { status: 404 } : { status: 200 }));
    const id = await createHook(org, '/since');
    await recorded(org, id, 1);
    await ping(org, id, 2);
    const [recent, old] = await deliveries(org, id);
    // The creation ping made two days ago.
    await s.db
      .updateTable('hook_deliveries')
      .set({ delivered_at: new Date(Date.now() - 2 * 86_400_000).toISOString() })
      .where('id', '=', old.id)
      .execute();
    rcv.answer({ status: 200 });

    const none = JSON.parse(
      ok(await remote(['--json', 'hook', 'redeliver', '--org', 'acme', String(id), '--failed', '--since', '2999-01-01'])),
    );
    expect(none).toEqual({ redelivered: [], failed: [], skipped_delivered_since: 0 });

    const json = JSON.parse(ok(await remote(['--json', 'hook', 'redeliver', '--org', 'acme', String(id), '--failed', '--since', '1d'])));
    expect(json).toEqual({
      redelivered: [
        {
          id: recent.id,
          guid: recent.guid,
          event: 'ping',
          action: null,
          status: 'Invalid HTTP Response: 404',
          status_code: 404,
          delivered_at: recent.delivered_at,
        },
      ],
      failed: [],
      skipped_delivered_since: 0,
    });
    const list = await recorded(org, id, 3);
    expect(list[0]).toMatchObject({ guid: recent.guid, redelivery: true, status_code: 200 });
    expect(list.some((d) => d.guid === old.guid && d.redelivery)).toBe(false);
  });

  it('exits 1 naming each delivery whose attempt the server refused', async () => {
    rcv.answer((r) => (r.path === '/refused' ? { status: 502 } : { status: 200 }));
    const id = await createHook(org, '/refused');
    const [failed] = await recorded(org, id, 1);
    // May read the deliveries but not redeliver them.
    const reader = await s.createToken('octo', { kind: 'fine_grained', permissions: { organization_hooks: 'read' } });
    const r = await remote(['hook', 'redeliver', '--org', 'acme', String(id), '--failed'], reader);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^hublet: could not redeliver ${failed.id}: 403 `));
    expect(r.stderr).toContain('1 of 1 redeliveries failed');
    expect(r.stdout).toBe(`0 failed deliveries of hook ${id} redelivered (1 could not be redelivered)\n`);
    expect((await deliveries(org, id)).length).toBe(1);
  });

  it('exits 2 on usage errors', async () => {
    const [both, withDelivery, sinceAlone, badSince, badRepo, neither] = await Promise.all([
      runCli(['hook', 'list', '--org', 'acme', '--repo', 'octo/app'], { env: sb.env }),
      runCli(['hook', 'redeliver', '--org', 'acme', '1', '2', '--failed'], { env: sb.env }),
      runCli(['hook', 'redeliver', '--org', 'acme', '1', '2', '--since', '1d'], { env: sb.env }),
      runCli(['hook', 'redeliver', '--org', 'acme', '1', '--failed', '--since', 'yesterday'], { env: sb.env }),
      runCli(['hook', 'ping', '--repo', 'octo', '1'], { env: sb.env }),
      runCli(['hook', 'redeliver', '1', '--failed'], { env: sb.env }),
    ]);
    for (const r of [both, withDelivery, sinceAlone, badSince, badRepo, neither]) expect(r.code, r.stderr).toBe(2);
    expect(both.stderr).toContain("options '--org <org>' and '--repo <owner/repo>' cannot be used together");
    expect(withDelivery.stderr).toContain('a delivery id and --failed cannot be used together');
    expect(sinceAlone.stderr).toContain("option '--since <duration|time>' needs --failed");
    expect(badSince.stderr).toContain("argument 'yesterday' is invalid");
    expect(badRepo.stderr).toContain("option '--repo <owner/repo>' argument 'octo' is invalid. Expected OWNER/REPO.");
    expect(neither.stderr).toContain("required option '--org <org>' not specified (or --repo <owner/repo>");
  });
});

describe('hublet hook --repo OWNER/REPO', { timeout: 120_000 }, () => {
  const repo = '/repos/octo/app/hooks';

  it("creates, lists, pings and redelivers a repository's webhooks at GitHub's /repos/{owner}/{repo}/hooks paths", async () => {
    expect((await s.api('POST', '/user/repos', { token, body: { name: 'app' } })).status).toBe(201);
    rcv.answer((r) => (r.path === '/repo' ? { status: 500 } : { status: 200 }));
    const created = JSON.parse(
      ok(await remote(['--json', 'hook', 'create', '--repo', 'octo/app', '--url', `${rcv.url}/repo`, '--content-type', 'json'])),
    );
    const [failed] = await recorded(repo, created.id, 1);
    expect(failed.status_code).toBe(500);

    const list = ok(await remote(['hook', 'list', '--repo', 'octo/app']));
    expect(list).toMatch(new RegExp(`^${created.id}\\s+${rcv.url}/repo\\s+push\\s+yes\\s`, 'm'));
    expect(JSON.parse(ok(await remote(['--json', 'hook', 'view', '--repo', 'octo/app', String(created.id)])))).toMatchObject({
      id: created.id,
      config: { url: `${rcv.url}/repo` },
    });

    rcv.answer({ status: 200 });
    expect(ok(await remote(['hook', 'ping', '--repo', 'octo/app', String(created.id)]))).toMatch(/^delivery \d+ \(ping\): 200 OK/);
    expect(ok(await remote(['hook', 'redeliver', '--repo', 'octo/app', String(created.id), '--failed']))).toBe(
      `redelivered ${failed.id}  ping  (was 500 Invalid HTTP Response: 500, ${failed.delivered_at})\n1 failed delivery of hook ${created.id} redelivered\n`,
    );
    const after = await recorded(repo, created.id, 3);
    expect(after.filter((d) => d.guid === failed.guid && d.redelivery && d.status_code === 200)).toHaveLength(1);
    expect(rcv.received.filter((r) => r.path === '/repo').every((r) => r.headers['x-service-hook-id'] === String(created.id))).toBe(true);

    expect(ok(await remote(['hook', 'delete', '--repo', 'octo/app', String(created.id)]))).toBe(`deleted hook ${created.id}\n`);
    expect((await s.api('GET', `${repo}/${created.id}`, { token })).status).toBe(404);
  });
});
