// Deliveries from `hublet serve` as a child process: killed with SIGKILL mid-delivery, every delivery still arrives after
// a restart (the jobs' leases expire); secrets never reach the logs; --hook-allowed-hosts narrows the destinations.
import { describe, expect, it } from 'vitest';
import { runServe } from '../helpers/cli.js';
import { useServeProcesses } from './serve-processes.js';

const ADMIN = `hlp_crash${Math.random().toString(36).slice(2)}`;
const SECRET = 'never-log-me-7f3a9c';
const fx = useServeProcesses(ADMIN);
const { call } = fx;
// At debug level, so the test that no secret reaches the logs reads every line the server writes.
const serve = (args: string[], env?: Record<string, string>) => fx.serve(['--log-level', 'debug', ...args], env);
const freshDataDir = async (name: string): Promise<string[]> => (await fx.freshDataDir(name)).args;

/** Polls until `check` passes or the time is up (no timing is asserted: the deadline only bounds a failing run). */
async function eventually<T>(get: () => Promise<T>, check: (v: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (check(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a server killed mid-delivery', () => {
  it('delivers everything after a restart: jobs in flight are retried once their lease expires, none is lost', async () => {
    const data = await freshDataDir('crash');
    // Short leases so the test need not wait long; four deliveries at a time, so some are in flight and some wait.
    const env = { HUBLET_HOOK_TIMEOUT_MS: '4000', HUBLET_HOOK_LEASE_MS: '5000', HUBLET_HOOK_CONCURRENCY: '4' };
    const first = await serve(data, env);
    expect((await call(first, 'POST', '/admin/organizations', { login: 'crashy', admin: 'admin' })).status).toBe(201);
    fx.rcv.answer((r) => (r.path === '/crash' ? 'hang' : { status: 200 }));
    const hook = await call(first, 'POST', '/orgs/crashy/hooks', {
      name: 'web',
      config: { url: `${fx.rcv.url}/crash`, content_type: 'json', secret: SECRET },
    });
    expect(hook.status).toBe(201);
    for (let i = 0; i < 11; i++) expect((await call(first, 'POST', `/orgs/crashy/hooks/${hook.body.id}/pings`)).status).toBe(204);
    // Four requests are held open by the receiver; eight more wait in the queue. Now the process dies.
    await fx.rcv.waitFor(4, (r) => r.path === '/crash');
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const inFlight = new Set(fx.rcv.received.filter((r) => r.path === '/crash').map((r) => r.headers['x-service-delivery']));
    expect(inFlight.size).toBe(4);

    fx.rcv.answer({ status: 200 });
    const second = await serve(data, env);
    const deliveries = await eventually(
      async () =>
        (await call(second, 'GET', `/orgs/crashy/hooks/${hook.body.id}/deliveries?per_page=100`)).body as {
          guid: string;
          status: string;
        }[],
      (list) => list.length >= 12,
    );
    expect(deliveries).toHaveLength(12);
    expect(deliveries.every((d) => d.status === 'OK')).toBe(true);
    const guids = new Set(deliveries.map((d) => d.guid));
    expect(guids.size).toBe(12);
    // Every guid reached the receiver, and those cut off by the kill arrived again.
    const arrived = new Set(fx.rcv.received.filter((r) => r.path === '/crash').map((r) => r.headers['x-service-delivery']));
    expect([...guids].every((g) => arrived.has(g))).toBe(true);
    for (const g of inFlight) expect(guids.has(g as string)).toBe(true);
    expect(fx.rcv.received.filter((r) => r.path === '/crash' && typeof r.payload?.zen === 'string')).toHaveLength(12 + 4);

    // The secret signed every request but never reached a log line or a response.
    const config = await call(second, 'GET', `/orgs/crashy/hooks/${hook.body.id}/config`);
    expect(config.body.secret).toBe('********');
    await second.stop();
    for (const out of [first.stdout(), first.stderr(), second.stdout(), second.stderr()]) expect(out).not.toContain(SECRET);
    expect(second.stdout()).toContain('webhook delivered');
  }, 90_000); // two server starts, a lease to expire and held deliveries to come back: slow on a loaded machine
});

describe('serve --hook-allowed-hosts', () => {
  it('external refuses a loopback receiver (recorded as a failed delivery); loopback is allowed without it', async () => {
    const refusing = await serve([...(await freshDataDir('external')), '--hook-allowed-hosts', 'external']);
    expect((await call(refusing, 'POST', '/admin/organizations', { login: 'ext', admin: 'admin' })).status).toBe(201);
    const hook = await call(refusing, 'POST', '/orgs/ext/hooks', { name: 'web', config: { url: `${fx.rcv.url}/external-only` } });
    const [d] = await eventually(
      async () =>
        (await call(refusing, 'GET', `/orgs/ext/hooks/${hook.body.id}/deliveries`)).body as { status: string; status_code: number }[],
      (list) => list.length > 0,
    );
    expect(d).toMatchObject({ status: 'Destination refused: 127.0.0.1 (loopback) is not in the allowed hosts (external)', status_code: 0 });
    expect(fx.rcv.received.filter((r) => r.path === '/external-only')).toHaveLength(0);
    await refusing.stop();

    const open = await serve(await freshDataDir('default'));
    expect((await call(open, 'POST', '/admin/organizations', { login: 'open', admin: 'admin' })).status).toBe(201);
    await call(open, 'POST', '/orgs/open/hooks', { name: 'web', config: { url: `${fx.rcv.url}/default-policy` } });
    await fx.rcv.waitFor(1, (r) => r.path === '/default-policy');
    await open.stop();
  });

  it('refuses to start with a setting that does not parse (exit 2, the problem named)', async () => {
    const r = await runServe(['--port', '0', ...(await freshDataDir('bad')), '--hook-allowed-hosts', 'external,300.1.1.1/8'], {
      env: fx.sb.env,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hookAllowedHosts (HUBLET_HOOK_ALLOWED_HOSTS): "300.1.1.1/8" is not a valid CIDR range');
  });
});
