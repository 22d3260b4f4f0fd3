// `hublet serve` and its secret key: the key file created 0600 in the data dir on first start; starts refused (exit 2,
// the problem named) for a key file others may read, one without a key, a malformed HUBLET_SECRET_KEY, or a key that
// did not seal the hooks in the database; no credential of a hook in any log line, even at trace level.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf, parseKey } from '../../src/secrets/secret-box.js';
import { runServe, type ServeProcess } from '../helpers/cli.js';
import { signaturesValid } from './receiver.js';
import { useServeProcesses } from './serve-processes.js';

const ADMIN = `hlp_key${Math.random().toString(36).slice(2)}`;
const fx = useServeProcesses(ADMIN);
const { freshDataDir, serve, call } = fx;

describe('hublet serve and its secret key', () => {
  const [secret, password, urlPassword] = ['LogSecret-9c1e', 'LogPassword-4b7a', 'LogUrlPass-2d8f'];
  let first: ServeProcess;
  let data: { dir: string; args: string[] };

  beforeAll(async () => {
    // A first start on a fresh data dir, at the most verbose log level: a hook with every kind of credential is created,
    // pinged and deleted; a second one stays, sealed with the key this start made.
    data = await freshDataDir('first');
    first = await serve([...data.args, '--log-level', 'trace']);
    expect((await call(first, 'POST', '/admin/organizations', { login: 'keyed', admin: 'admin' })).status).toBe(201);
    const hook = await call(first, 'POST', '/orgs/keyed/hooks', {
      name: 'web',
      config: { url: `http://u:${urlPassword}@127.0.0.1:${fx.rcv.port}/keyed`, content_type: 'json', secret, username: 'b', password },
    });
    expect(hook.status).toBe(201);
    expect(hook.text).not.toMatch(/LogSecret|LogPassword|LogUrlPass/);
    const [ping] = await fx.rcv.waitFor(1, (r) => r.path === '/keyed');
    expect(signaturesValid(ping, secret)).toBe(true);
    expect((await call(first, 'DELETE', `/orgs/keyed/hooks/${hook.body.id}`)).status).toBe(204);
    await fx.rcv.waitFor(2, (r) => r.path === '/keyed');
    expect(
      (await call(first, 'POST', '/orgs/keyed/hooks', { name: 'web', active: false, config: { url: `${fx.rcv.url}/kept`, secret } }))
        .status,
    ).toBe(201);
    await first.stop();
  });

  const keyFile = () => path.join(data.dir, 'secret.key');

  it('creates <data>/secret.key on first start: mode 0600, one 32-byte key', () => {
    expect(fs.statSync(keyFile()).mode & 0o777).toBe(0o600);
    expect(parseKey(fs.readFileSync(keyFile(), 'utf8'))).toBeDefined();
  });

  it('logs no credential of a hook, even at trace level', () => {
    for (const out of [first.stdout(), first.stderr()]) expect(out).not.toMatch(/LogSecret|LogPassword|LogUrlPass/);
    expect(first.stdout()).toContain('webhook delivered');
  });

  it('refuses a start with another key (exit 2), naming the key the hooks were sealed with, without echoing the key given', async () => {
    const key = parseKey(fs.readFileSync(keyFile(), 'utf8'))!;
    const other = crypto.randomBytes(32).toString('base64');
    const refused = await runServe(data.args, { env: fx.sb.env, extraEnv: { HUBLET_SECRET_KEY: other } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `hook secrets in the database were sealed with secret key ${keyIdOf(key)}, which this server does not have`,
    );
    expect(refused.stderr).not.toContain(other);
  });

  it('starts with the same key given in HUBLET_SECRET_KEY (hex) instead of the file', async () => {
    const key = parseKey(fs.readFileSync(keyFile(), 'utf8'))!;
    const again = await serve(data.args, { HUBLET_SECRET_KEY: key.toString('hex') });
    await again.stop();
  });

  it('refuses to start when the key file may be read by others, or holds no key', async () => {
    const { dir, args } = await freshDataDir('loose');
    const file = path.join(dir, 'secret.key');
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('base64')}\n`);
    fs.chmodSync(file, 0o644);
    const open = await runServe(['--port', '0', ...args], { env: fx.sb.env });
    expect(open.code).toBe(2);
    expect(open.stderr).toContain(`secret key file ${file}: mode 0644 lets others read it; it must be 0600 (chmod 600 ${file})`);

    fs.chmodSync(file, 0o600);
    fs.writeFileSync(file, 'abc\n');
    const empty = await runServe(['--port', '0', ...args], { env: fx.sb.env });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(`secret key file ${file}: does not hold a 32-byte key as base64 or 64 hex digits`);
  });

  it('refuses a malformed HUBLET_SECRET_KEY with the other configuration problems, without echoing it', async () => {
    const { args } = await freshDataDir('malformed');
    const r = await runServe(['--port', '0', ...args], { env: fx.sb.env, extraEnv: { HUBLET_SECRET_KEY: 'hunter2-hunter2' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('secretKey (HUBLET_SECRET_KEY): expected 32 bytes as base64 or 64 hex digits');
    expect(r.stderr).not.toContain('hunter2');
  });
});
