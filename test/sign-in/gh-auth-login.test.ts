// `gh auth login --web` (Debian's gh 2.23, unchanged) against `hublet serve` over TLS, as a person does it: gh runs at
// a terminal (util-linux `script`), prints its one-time code and, once Enter is pressed, hands the URL to $BROWSER (a
// script that writes it to a file); Chromium then plays the person: opens the URL, signs in with a password, types
// the code into "Enter code", "Continue", "Authorize". gh must report `Logged in as alice`, and the hlo_ token it saved
// must serve `gh auth status`, `gh gist create` and `gh gist list`. A missing gh, git, script or Chromium fails the test.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireExecutable, run, succeeded, type Env } from '../clients/tools.js';
import { sandbox, startServe, type Sandbox, type ServeProcess } from '../helpers/cli.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.js';
import { startAtTerminal, type Terminal } from '../helpers/gh-terminal.js';
import { makeTestCertificates } from '../helpers/tls.js';

const ADMIN_TOKEN = `hlp_ghlogin${'0'.repeat(25)}`;
const PASSWORD = 'correct horse battery staple 42';
const CHROMIUM = '/usr/bin/chromium';

let sb: Sandbox;
let database: TestDatabase;
let serve: ServeProcess;
let browser: Browser | undefined;
let ghEnv: Env;
let host: string;
let work: string;
/** Where the $BROWSER script writes the URL gh asked it to open. */
let opened: string;
/** Why the test cannot run here (set in beforeAll): it then fails with it, never skipped. */
let missing: string | undefined;

beforeAll(async () => {
  try {
    requireExecutable('gh', 'gh');
    requireExecutable('git', 'git');
    if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  } catch (err) {
    missing = (err as Error).message;
  }
  sb = sandbox();
  work = path.join(sb.root, 'work');
  fs.mkdirSync(work);
  const certs = await makeTestCertificates(path.join(sb.root, 'tls'));
  const dataDir = path.join(sb.root, 'data');
  fs.mkdirSync(dataDir);
  database = await createTestDatabase(dataDir);
  const tls = ['--tls-cert', certs.certFile, '--tls-key', certs.keyFile];
  serve = await startServe(
    ['--host', '127.0.0.1', '--port', '0', '--data', dataDir, ...(onPostgres ? ['--database', database.url] : []), ...tls],
    { env: sb.env, extraEnv: { HUBLET_ADMIN_TOKEN: ADMIN_TOKEN, HUBLET_LOG_LEVEL: 'warn' } },
  );
  host = `127.0.0.1:${serve.port}`;
  const trusting = new Agent({ connect: { ca: fs.readFileSync(certs.caFile) } });
  const made = await request(`${serve.url}/admin/users`, {
    method: 'POST',
    dispatcher: trusting,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'alice', email: 'alice@example.com', password: PASSWORD }),
  });
  expect(made.statusCode, await made.body.text()).toBe(201);
  await trusting.close();

  opened = path.join(sb.root, 'opened-url');
  const browserScript = path.join(sb.root, 'browser.sh');
  fs.writeFileSync(browserScript, `#!/bin/sh\nprintf '%s\\n' "$1" > '${opened}'\n`, { mode: 0o755 });
  const ghConfig = path.join(sb.root, 'gh-config');
  fs.mkdirSync(ghConfig);
  // As for any GitHub Enterprise host (gh 2.23 takes no port in --hostname): GH_HOST names it, SSL_CERT_FILE trusts it.
  ghEnv = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: sb.home,
    LANG: 'C.UTF-8',
    GH_HOST: host,
    GH_CONFIG_DIR: ghConfig,
    GH_NO_UPDATE_NOTIFIER: '1',
    GH_PAGER: 'cat',
    NO_COLOR: '1',
    BROWSER: browserScript,
    SSL_CERT_FILE: certs.caFile,
    GIT_CONFIG_NOSYSTEM: '1',
  };
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await serve?.stop('SIGKILL');
  await database?.drop();
  sb?.cleanup();
});

/** The URL the $BROWSER script was given, once gh has run it. */
async function openedUrl(t: Terminal): Promise<string> {
  for (let i = 0; i < 300; i++) {
    if (fs.existsSync(opened)) return fs.readFileSync(opened, 'utf8').trim();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gh did not run $BROWSER; it printed:\n${t.text()}`);
}

/** The person at Chromium: signs in on the way to `url`, enters `code`, reads the request, authorizes. */
async function approveInBrowser(url: string, code: string): Promise<{ asked: string; done: string }> {
  if (!browser) throw new Error(missing);
  // The person's browser trusts the server as the person would (gh trusts it through SSL_CERT_FILE).
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  try {
    await page.goto(url);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByLabel('Username or email address').fill('alice');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/login/device');
    await page.getByLabel('Enter code').fill(code);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    const authorize = page.getByRole('button', { name: 'Authorize', exact: true });
    await authorize.waitFor();
    const asked = (await page.locator('body').textContent()) ?? '';
    await authorize.click();
    await page.getByRole('heading', { name: "Congratulations, you're all set!" }).waitFor();
    return { asked, done: (await page.locator('body').textContent()) ?? '' };
  } catch (err) {
    throw new Error(`${(err as Error).message}\nChromium was at ${page.url()}, showing:\n${await shown(page)}`);
  } finally {
    await context.close();
  }
}

async function shown(page: Page): Promise<string> {
  return page
    .locator('body')
    .textContent({ timeout: 1000 })
    .then((text) => text ?? '(nothing)')
    .catch(() => '(nothing)');
}

/** Runs `gh ARGS…` (not at a terminal) with the test's environment and the token gh saved; answers its stdout. */
async function ghOk(args: string[]): Promise<string> {
  if (missing) throw new Error(missing);
  return succeeded(`gh ${args.join(' ')}`, await run('gh', args, { env: ghEnv, cwd: work }));
}

describe('gh auth login --web against hublet, Chromium playing the person', () => {
  it('completes: gh shows the code, opens $BROWSER, the person signs in, enters the code and authorizes; gh logs in', async () => {
    if (missing) throw new Error(missing);
    const t = startAtTerminal(['gh', 'auth', 'login', '--web', '--git-protocol', 'https'], { env: ghEnv, cwd: work });
    try {
      // survey's confirm asks the terminal its size and where its cursor is (gh-terminal replies); Enter takes the default, Yes.
      await t.answer(/\? Authenticate Git with your GitHub credentials\? \(Y\/n\)/, '\r', { queries: 2 });
      const code = (await t.waitFor(/! First copy your one-time code: ([A-Z]{4}-[A-Z]{4})\n/))[1];
      await t.answer(new RegExp(`Press Enter to open ${host.replace(/\./g, '\\.')} in your browser\\.\\.\\.`), '\r');
      const url = await openedUrl(t);
      expect(url).toBe(`https://${host}/login/device`);

      const person = await approveInBrowser(url, code);
      expect(person.asked).toContain('GitHub CLI wants to access your alice account.');
      expect(person.asked).toContain(code);
      for (const scope of ['repo', 'read:org', 'gist', 'workflow']) expect(person.asked).toContain(scope);

      // gh polls every 5 seconds: it sees the approval at its next poll.
      await t.waitFor(/✓ Logged in as alice\n/, 60_000);
      const exit = await t.exited;
      expect(exit.code, t.text()).toBe(0);
      expect(t.text()).toContain('✓ Authentication complete.\n');
      expect(t.text()).toContain(`- gh config set -h ${host} git_protocol https\n`);
      expect(t.text()).not.toMatch(/error|failed/i);
    } finally {
      t.kill();
    }
  }, 120_000);

  it('gh saved an hlo_ OAuth token for alice; gh auth status names the host, alice and the scopes gh asked for', async () => {
    if (missing) throw new Error(missing);
    const hosts = fs.readFileSync(path.join(ghEnv.GH_CONFIG_DIR as string, 'hosts.yml'), 'utf8');
    expect(hosts).toContain(`${host}:\n`);
    expect(hosts).toMatch(/^ {4}user: alice$/m);
    expect(hosts).toMatch(/^ {4}oauth_token: hlo_[A-Za-z0-9_]+$/m);
    expect(hosts).toMatch(/^ {4}git_protocol: https$/m);

    const r = await run('gh', ['auth', 'status'], { env: ghEnv, cwd: work });
    // gh 2.23 writes the status to stderr.
    const out = r.stdout + r.stderr;
    expect(r.code, out).toBe(0);
    expect(out).toBe(
      [
        host,
        `  ✓ Logged in to ${host} as alice (${path.join(ghEnv.GH_CONFIG_DIR as string, 'hosts.yml')})`,
        `  ✓ Git operations for ${host} configured to use https protocol.`,
        `  ✓ Token: hlo_${'*'.repeat(36)}`,
        // What gh asked for: its minimum (repo, read:org, gist), and workflow for git's credentials.
        '  ✓ Token scopes: gist, read:org, repo, workflow',
        '',
      ].join('\n'),
    );
    // "Authenticate Git with your GitHub credentials? Yes": gh is git's credential helper for the host.
    const gitconfig = fs.readFileSync(path.join(sb.home, '.gitconfig'), 'utf8');
    expect(gitconfig).toContain(`[credential "https://${host}"]`);
    expect(gitconfig).toMatch(/helper = !\/usr\/bin\/gh auth git-credential/);
  });

  it('gh gist create and gh gist list work with the token gh saved', async () => {
    fs.writeFileSync(path.join(work, 'hello.txt'), 'hello from gh\n');
    const created = await ghOk(['gist', 'create', '-d', 'made after gh auth login', 'hello.txt']);
    const m = new RegExp(`^https://${host.replace(/\./g, '\\.')}/gist/([0-9a-f]{32})\\n$`).exec(created);
    expect(m, created).not.toBeNull();
    const listed = (await ghOk(['gist', 'list'])).split('\n').filter(Boolean);
    expect(listed.map((l) => l.split('\t').slice(0, 4))).toEqual([[m![1], 'made after gh auth login', '1 file', 'secret']]);
    expect(await ghOk(['gist', 'view', m![1], '--raw', '-f', 'hello.txt'])).toBe('hello from gh\n');
  });
});
