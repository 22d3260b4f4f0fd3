// `hublet auth login --server URL` without --token: the device flow. Against a real server, the person signs in and
// approves (or cancels) over HTTP while the CLI polls on a clock shared with the server; against a stubbed server,
// slow_down, expiry and a server without the flow; and the built binary stopped by Ctrl-C while it waits.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HUBLET_CLI_CLIENT_ID } from '../../src/accounts/builtin-apps.js';
import { RemoteClient } from '../../src/cli/client.js';
import { CLI_SCOPES, type Timing } from '../../src/cli/commands/auth/device-login.js';
import { runLogin } from '../../src/cli/commands/auth/login.js';
import { BIN, ROOT } from '../helpers/cli.js';
import { fakeIO, type FakeIO } from '../helpers/cli-inprocess.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';
import { stubClient } from './stub-client.js';

const PASSWORD = 'correct horse battery staple 42';
const CODE_LINE = /^! First copy your one-time code: ([A-Z]{4}-[A-Z]{4})$/m;
/** The server's clock, which the CLI's waits move on (as much as they wait: the server sees real intervals). */
let now = Date.parse('2026-11-28T10:00:00.000Z');
const clock = { now: () => new Date(now) };
let s: TestServer;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-device-login-'));

beforeAll(async () => {
  s = await startServer({ clock });
  await s.createUser('alice', { password: PASSWORD, email: 'alice@example.com' });
}, 60_000);
afterAll(async () => {
  await s?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** An environment with its own config dir; the credentials file `hublet auth login` writes there. */
function home(name: string): { env: NodeJS.ProcessEnv; credentials: string } {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  return {
    env: { PATH: process.env.PATH, HOME: dir, HUBLET_CONFIG_DIR: path.join(dir, 'config') },
    credentials: path.join(dir, 'config', 'credentials.json'),
  };
}

/** Waits that move the shared clock by what is asked, each taking `realMs` of real time (time for the person to act). */
function movingClock(realMs = 5): Timing & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    async sleep(ms) {
      waits.push(ms);
      now += ms;
      await new Promise((resolve) => setTimeout(resolve, realMs));
    },
  };
}

/** Resolves once `ready` answers something (checked every 10 ms), failing with `what` after 5 seconds. */
async function until<T>(ready: () => T | undefined, what: () => string): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = ready();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(what());
}

/** The one-time code once the CLI has printed it on stderr, and polled for the token at least once with it. */
async function printedCode(fake: FakeIO, timing: { waits: number[] }): Promise<string> {
  const code = await until(
    () => CODE_LINE.exec(fake.stderr())?.[1],
    () => `the CLI printed no code; stderr: ${fake.stderr()}`,
  );
  await until(
    () => timing.waits.length >= 2,
    () => 'the CLI did not poll',
  );
  return code;
}

/** The person's part over HTTP: sign in (the device page sends them there first), enter the code, Authorize or Cancel. */
async function decide(code: string, authorize: boolean): Promise<{ asked: string; done: string }> {
  const web = new WebClient(s.url);
  const away = await web.get('/login/device');
  expect(new URL(away.location, s.url).href).toBe(`${s.url}/login?return_to=%2Flogin%2Fdevice`);
  const back = await web.signIn('alice', PASSWORD, '/login/device');
  expect(new URL(back.location, s.url).href).toBe(`${s.url}/login/device`);
  expect((await web.get('/login/device')).text).toContain('Enter code');
  const asked = await web.post('/login/device', { user_code: code });
  expect(asked.status, asked.text).toBe(200);
  const done = await web.post('/login/device/authorize', { user_code: code, authorize: authorize ? '1' : '0' });
  expect(done.status, done.text).toBe(200);
  return { asked: asked.text, done: done.text };
}

/** Logins still running: a failed test stops its own (Ctrl-C), so it moves the shared clock no more. */
const running: FakeIO[] = [];
afterEach(() => {
  for (const fake of running.splice(0)) fake.stop('SIGINT');
});

/** `hublet auth login --server URL/` in-process against the test server, on the moving clock. */
function login(env: NodeJS.ProcessEnv, fake: FakeIO, timing: Timing, json = false): Promise<void> {
  running.push(fake);
  const done = runLogin({ server: `${s.url}/`, json, env, timing, connect: (server, token) => new RemoteClient(server, token) }, fake.io);
  // Awaited by the test; a test that fails before leaves it unawaited, which is not another failure.
  done.catch(() => undefined);
  return done;
}

describe('against the server, the person deciding over HTTP while the CLI polls', () => {
  it('signs in: the code and the URL on stderr, a poll every interval (never a slow_down), an hlo_ token with the CLI’s scopes saved', async () => {
    const { env, credentials } = home('approved');
    const fake = fakeIO();
    const timing = movingClock();
    const done = login(env, fake, timing, true);
    const code = await printedCode(fake, timing);
    const person = await decide(code, true);
    expect(person.asked).toContain('<strong>hublet CLI</strong> wants to access your <strong>alice</strong> account.');
    for (const scope of CLI_SCOPES) expect(person.asked).toContain(`<code>${scope}</code>`);
    expect(person.done).toContain("Congratulations, you're all set!");
    await done;

    expect(fake.stderr()).toBe(
      [
        `! First copy your one-time code: ${code}`,
        `Open this URL in your browser: ${s.url}/login/device`,
        'Waiting for you to enter the code and authorize hublet CLI (the code expires in 15 minutes; Ctrl-C to stop)…',
        '',
      ].join('\n'),
    );
    expect(JSON.parse(fake.stdout())).toEqual({ server: s.url, login: 'alice', credentials });
    const saved = JSON.parse(fs.readFileSync(credentials, 'utf8'));
    expect(saved).toEqual({ server: s.url, token: expect.stringMatching(/^hlo_/), login: 'alice' });
    expect(fs.statSync(credentials).mode & 0o777).toBe(0o600);
    expect(new Set(timing.waits)).toEqual(new Set([5000]));
    const user = await s.api('GET', '/user', { token: saved.token });
    expect(user.body.login).toBe('alice');
    expect(user.headers.get('x-oauth-scopes')?.split(', ').sort()).toEqual([...CLI_SCOPES].sort());
  });

  it('the person cancels: the CLI says the sign-in was denied (exit 4) and saves nothing', async () => {
    const { env, credentials } = home('denied');
    const fake = fakeIO();
    const timing = movingClock();
    const done = login(env, fake, timing);
    const person = await decide(await printedCode(fake, timing), false);
    expect(person.done).toContain('Authorization cancelled');
    await expect(done).rejects.toMatchObject({ code: 4, message: 'hublet: the sign-in was denied in the browser; nothing was saved' });
    expect(fake.stdout()).toBe('');
    expect(fs.existsSync(credentials)).toBe(false);
  });

  it('nobody enters the code: after its 15 minutes, one poll every 5 s, the CLI says it expired (exit 1) and saves nothing', async () => {
    const { env, credentials } = home('unanswered');
    const fake = fakeIO();
    const timing = movingClock(0);
    const done = login(env, fake, timing);
    const code = await printedCode(fake, timing);
    await expect(done).rejects.toMatchObject({
      code: 1,
      message: `hublet: the code ${code} expired before it was approved; nothing was saved. Run hublet auth login --server ${s.url} again`,
    });
    expect(timing.waits).toEqual(new Array(180).fill(5000));
    expect(fake.stdout()).toBe('');
    expect(fs.existsSync(credentials)).toBe(false);
    // The person who comes too late is told the code did not work.
    const web = new WebClient(s.url);
    await web.signIn('alice', PASSWORD);
    await web.get('/login/device');
    const late = await web.post('/login/device', { user_code: code });
    expect(late.status).toBe(422);
    expect(late.text).toContain('That code didn');
  });
});

describe('against a stubbed server', () => {
  const code = {
    device_code: 'd'.repeat(40),
    user_code: 'WDJB-MJHT',
    verification_uri: 'https://hublet.example/login/device',
    expires_in: 900,
    interval: 5,
  };
  const pending = { body: { error: 'authorization_pending', error_description: 'The authorization request is still pending.' } };
  /** runLogin against `client`, with waits recorded (and no real time spent); the tokens each connect was given. */
  async function loginWith(client: ReturnType<typeof stubClient>, env: NodeJS.ProcessEnv) {
    const fake = fakeIO();
    const waits: number[] = [];
    let t = 0;
    const timing: Timing = {
      now: () => t,
      sleep: async (ms) => {
        waits.push(ms);
        t += ms;
      },
    };
    const tokens: string[] = [];
    const run = runLogin(
      {
        server: 'https://hublet.example',
        json: false,
        env,
        timing,
        connect: (_server, token) => {
          tokens.push(token);
          return client;
        },
      },
      fake.io,
    );
    return { run, fake, waits, tokens };
  }

  it('asks for the CLI’s scopes as hublet-cli, waits the interval, 5 s more at each slow_down (or the longer interval sent)', async () => {
    const { env, credentials } = home('slow-down');
    const client = stubClient({
      'POST /login/device/code': { body: code },
      'POST /login/oauth/access_token': [
        pending,
        { body: { error: 'slow_down' } },
        pending,
        { body: { error: 'slow_down', interval: 30 } },
        { body: { access_token: 'hlo_approved', token_type: 'bearer', scope: CLI_SCOPES.join(',') } },
      ],
      'GET /user': { body: { login: 'alice' } },
    });
    const { run, fake, waits, tokens } = await loginWith(client, env);
    await run;
    expect(waits).toEqual([5000, 5000, 10000, 10000, 30000]);
    expect(client.sent[0]).toMatchObject({
      path: '/login/device/code',
      body: { client_id: HUBLET_CLI_CLIENT_ID, scope: 'gist repo delete_repo admin:repo_hook admin:org admin:org_hook user' },
      headers: { accept: 'application/json' },
    });
    expect(client.sent[1].body).toEqual({
      client_id: HUBLET_CLI_CLIENT_ID,
      device_code: code.device_code,
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
    });
    expect(client.calls().at(-1)).toBe('GET /user');
    // The device flow's requests carry no token; the check of the new one carries it.
    expect(tokens).toEqual(['', 'hlo_approved']);
    expect(fake.stderr()).toBe(
      [
        '! First copy your one-time code: WDJB-MJHT',
        'Open this URL in your browser: https://hublet.example/login/device',
        'Waiting for you to enter the code and authorize hublet CLI (the code expires in 15 minutes; Ctrl-C to stop)…',
        '',
      ].join('\n'),
    );
    expect(fake.stdout()).toBe(`signed in to https://hublet.example as alice (saved to ${credentials})\n`);
    expect(JSON.parse(fs.readFileSync(credentials, 'utf8'))).toEqual({
      server: 'https://hublet.example',
      token: 'hlo_approved',
      login: 'alice',
    });
  });

  it('gives up when the code expires, whether the server says so or the time is up (exit 1), and saves nothing', async () => {
    const { env, credentials } = home('expired');
    const said = stubClient({
      'POST /login/device/code': { body: code },
      'POST /login/oauth/access_token': [pending, { body: { error: 'expired_token' } }],
    });
    const first = await loginWith(said, env);
    await expect(first.run).rejects.toMatchObject({
      code: 1,
      message:
        'hublet: the code WDJB-MJHT expired before it was approved; nothing was saved. Run hublet auth login --server https://hublet.example again',
    });
    const silent = stubClient({
      'POST /login/device/code': { body: { ...code, expires_in: 12 } },
      'POST /login/oauth/access_token': pending,
    });
    const second = await loginWith(silent, env);
    await expect(second.run).rejects.toMatchObject({
      code: 1,
      message: expect.stringMatching(/^hublet: the code WDJB-MJHT expired before/),
    });
    expect(second.fake.stderr()).toContain('(the code expires in 12 seconds; Ctrl-C to stop)');
    // Two polls in 12 seconds, then no third: the code was no longer good.
    expect(second.waits).toEqual([5000, 5000, 5000]);
    expect(silent.calls().filter((c) => c === 'POST /login/oauth/access_token')).toHaveLength(2);
    expect(fs.existsSync(credentials)).toBe(false);
  });

  it('says so for a server without the device flow, or one that refuses the app (exit 1)', async () => {
    const { env } = home('unsupported');
    const old = stubClient({ 'POST /login/device/code': { status: 404, body: { message: 'Not Found' } } });
    await expect((await loginWith(old, env)).run).rejects.toMatchObject({
      code: 1,
      message: 'hublet: https://hublet.example does not offer sign-in with a one-time code; sign in with --token TOKEN instead',
    });
    const refusing = stubClient({
      'POST /login/device/code': {
        status: 400,
        body: { error: 'incorrect_client_credentials', error_description: 'The client_id and/or client_secret passed are incorrect.' },
      },
    });
    await expect((await loginWith(refusing, env)).run).rejects.toMatchObject({
      code: 1,
      message:
        'hublet: https://hublet.example did not give a sign-in code: incorrect_client_credentials: The client_id and/or client_secret passed are incorrect.',
    });
  });
});

describe('the hublet binary', () => {
  it('prints the code and the URL on stderr when not at a terminal; Ctrl-C stops the wait (exit 1), nothing saved', async () => {
    const { env, credentials } = home('interrupted');
    const child = spawn(BIN, ['--server', s.url, 'auth', 'login'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const waiting = new Promise<void>((resolve) =>
      child.stderr.setEncoding('utf8').on('data', (c: string) => {
        stderr += c;
        if (stderr.includes('Ctrl-C to stop')) resolve();
      }),
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await Promise.race([waiting, exited]);
    child.kill('SIGINT');
    const code = await exited;
    clearTimeout(timer);
    expect(stderr).toMatch(CODE_LINE);
    expect(stderr).toContain(`Open this URL in your browser: ${s.url}/login/device\n`);
    expect(stderr).toMatch(
      /\(the code expires in 15 minutes; Ctrl-C to stop\)…\nhublet: sign-in stopped \(SIGINT\) before the code was approved; nothing was saved\n$/,
    );
    expect(code, stderr).toBe(1);
    expect(stdout).toBe('');
    expect(fs.existsSync(credentials)).toBe(false);
  });
});
