// The `hublet` command line, run in-process against a fake I/O: admin and api commands in local mode (over the data dir,
// while a server has the same data dir open) and in remote mode (same output, same exit codes), auth login/status/logout;
// and a few runs of the executable itself (exit codes, stdin and stdout through pipes).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, pool, ROOT, runCli as spawnCli, sandbox, type Env, type Sandbox, withoutHints } from '../helpers/cli.js';
import { runInProcess as runCli, startInProcessCliServer, type InProcessCliServer } from '../helpers/cli-inprocess.js';
import type { TestServer } from '../helpers/server.js';

let cli: InProcessCliServer;
let s: TestServer;
let sb: Sandbox;
/** Local mode acts on the server's own data dir and database, with the server's public URL for links. */
let localEnv: Env;

beforeAll(async () => {
  // Many anonymous calls below: the anonymous rate limit (60 an hour) must not be what answers (startInProcessCliServer raises it).
  cli = await startInProcessCliServer();
  ({ server: s, sandbox: sb, localEnv } = cli);
});
afterAll(async () => {
  await cli?.close();
});

const local = (args: string[], opts: { extraEnv?: Env; stdin?: string } = {}) => cli.local(args, opts);
const remote = (token: string, args: string[]) => cli.remote(token, args);

describe('the program', () => {
  it('prints its version and help, and exits 2 on usage errors without touching the data dir', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const untouched = path.join(sb.root, 'untouched');
    const [version, help, subHelp, unknownOption, missingArg, unknownCommand, badChoice, badField, badInput, badApp, loginNoServer] =
      await pool([
        () => runCli(['--version'], { env: sb.env }),
        () => runCli(['--help'], { env: sb.env }),
        () => runCli(['admin', 'token', 'create', '--help'], { env: sb.env }),
        () => runCli(['--data', untouched, '--bogus', 'api', '/user'], { env: sb.env }),
        () => runCli(['--data', untouched, 'admin', 'user', 'create'], { env: sb.env }),
        () => runCli(['--data', untouched, 'frobnicate'], { env: sb.env }),
        () => runCli(['--data', untouched, 'admin', 'token', 'create', 'x', '--kind', 'skeleton-key'], { env: sb.env }),
        () => runCli(['--data', untouched, 'api', '/admin/users', '-f', 'no-equals-sign'], { env: sb.env }),
        () => runCli(['--data', untouched, 'api', '/admin/users', '--input', path.join(sb.root, 'missing.json')], { env: sb.env }),
        () => runCli(['--data', untouched, 'admin', 'token', 'create', 'x', '--kind', 'oauth', '--app', 'twelve'], { env: sb.env }),
        () => runCli(['auth', 'login'], { env: sb.env }),
      ]);
    expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    expect(help.code).toBe(0);
    for (const cmd of ['serve', 'api', 'admin', 'auth']) expect(help.stdout).toContain(cmd);
    expect(subHelp.code).toBe(0);
    for (const opt of ['--scopes', '--kind', '--expires']) expect(subHelp.stdout).toContain(opt);
    expect(unknownOption.stderr).toContain("unknown option '--bogus'");
    expect(missingArg.stderr).toContain("missing required argument 'login'");
    expect(unknownCommand.stderr).toContain("unknown command 'frobnicate'");
    expect(badChoice.stderr).toContain('skeleton-key');
    expect(badField.stderr).toContain('no-equals-sign');
    expect(badInput.stderr).toContain('missing.json');
    expect(badApp.stderr).toContain('twelve');
    expect(loginNoServer.stderr).toContain('needs --server URL');
    for (const r of [unknownOption, missingArg, unknownCommand, badChoice, badField, badInput, badApp, loginNoServer]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(fs.existsSync(untouched)).toBe(false);
  });
});

describe('admin commands in local mode, next to a running server on the same data dir', () => {
  it('admin user create: prints the user (--json) or a line; the server sees the user at once', async () => {
    const [carol, root2, dave] = await pool([
      () => local(['admin', 'user', 'create', 'carol', '--email', 'carol@example.com', '--json']),
      () => local(['admin', 'user', 'create', 'root2', '--site-admin']),
      // Program options may also follow the command, as in `hublet admin user create LOGIN --data DIR --json`.
      () => cli.run(['admin', 'user', 'create', 'dave', '--data', s.dataDir, '--database', s.databaseUrl, '--json']),
    ]);
    ok(carol);
    const printed = JSON.parse(carol.stdout);
    const served = await s.api('GET', '/users/carol');
    expect(served.status).toBe(200);
    expect(printed).toMatchObject({ login: 'carol', id: served.body.id, url: `${s.url}/users/carol`, type: 'User', site_admin: false });
    expect(served.body.email).toBe('carol@example.com');
    expect(ok(root2).stdout).toBe('created user root2\n');
    expect((await s.api('GET', '/users/root2')).body.site_admin).toBe(true);
    expect(JSON.parse(ok(dave).stdout).login).toBe('dave');
  });

  it('admin token create: prints the token alone, and the token works against the server', async () => {
    const in7Days = Date.now() + 7 * 86_400_000;
    const [classic, fine, dated] = await pool([
      () => local(['admin', 'token', 'create', 'carol', '--scopes', 'gist,read:org,admin:org']),
      () => local(['admin', 'token', 'create', 'carol', '--kind', 'fine-grained', '--permissions', 'members=read', '--expires', '7d']),
      () => local(['admin', 'token', 'create', 'dave', '--scopes', 'gist', '--expires', new Date(in7Days).toISOString(), '--json']),
    ]);
    expect(ok(classic).stdout).toMatch(/^hlp_[A-Za-z0-9]{36}\n$/);
    expect(ok(fine).stdout).toMatch(/^hublet_pat_[A-Za-z0-9]{36}\n$/);
    const classicToken = classic.stdout.trim();

    const me = await s.api('GET', '/user', { token: classicToken });
    expect(me.status).toBe(200);
    expect(me.body.login).toBe('carol');
    expect(me.headers.get('x-oauth-scopes')).toBe('gist, read:org, admin:org');
    expect((await s.api('GET', '/user', { token: fine.stdout.trim() })).body.login).toBe('carol');

    const record = JSON.parse(ok(dated).stdout);
    expect(record).toMatchObject({ kind: 'classic', scopes: ['gist'], user: { login: 'dave' }, token: expect.stringMatching(/^hlp_/) });
    expect(Math.abs(Date.parse(record.expires_at) - in7Days)).toBeLessThan(2000);
    const list = await s.api('GET', '/admin/users/carol/authorizations', { token: s.adminToken });
    const fineRow = list.body.find((a: { kind: string }) => a.kind === 'fine_grained');
    expect(fineRow.permissions).toEqual({ members: 'read' });
    expect(Math.abs(Date.parse(fineRow.expires_at) - in7Days)).toBeLessThan(60_000);
  });

  it('admin org create and add-member: owners and members the server knows', async () => {
    const created = ok(await local(['admin', 'org', 'create', 'guild', '--owner', 'carol']));
    expect(created.stdout).toBe('created organization guild owned by carol\n');
    const [member, json] = await pool([
      () => local(['admin', 'org', 'add-member', 'guild', 'dave', '--role', 'member']),
      () => local(['admin', 'org', 'add-member', 'guild', 'root2', '--role', 'admin', '--json']),
    ]);
    expect(ok(member).stdout).toBe('dave is now a member of guild\n');
    expect(JSON.parse(ok(json).stdout)).toMatchObject({ role: 'admin', user: { login: 'root2' }, organization: { login: 'guild' } });
    const carolToken = await s.createToken('carol', { scopes: ['read:org'] });
    expect((await s.api('GET', '/orgs/guild/memberships/carol', { token: carolToken })).body.role).toBe('admin');
    expect((await s.api('GET', '/orgs/guild/memberships/dave', { token: carolToken })).body.role).toBe('member');
    expect((await s.api('GET', '/orgs/guild/memberships/root2', { token: carolToken })).body.role).toBe('admin');
  });

  it('prints an API error body on stderr and exits 1', async () => {
    const [duplicate, badScope] = await pool([
      () => local(['admin', 'user', 'create', 'CAROL']),
      () => local(['admin', 'token', 'create', 'carol', '--scopes', 'gist,world:domination']),
    ]);
    for (const r of [duplicate, badScope]) {
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
    }
    expect(JSON.parse(withoutHints(duplicate.stderr))).toMatchObject({
      message: 'Validation Failed',
      status: '422',
      errors: [{ field: 'login', code: 'already_exists' }],
    });
    expect(JSON.parse(withoutHints(badScope.stderr))).toMatchObject({ status: '422', errors: [{ field: 'scopes', code: 'invalid' }] });
  });

  it('writes from several CLI processes and the server at the same time, without errors', async () => {
    let serverWrites = 0;
    let running = true;
    const serverLoop = (async () => {
      while (running || serverWrites < 3) {
        const r = await s.api('POST', '/admin/users', { token: s.adminToken, body: { login: `busy-http-${serverWrites}` } });
        expect(r.status, r.text).toBe(201);
        serverWrites++;
      }
    })();
    const cli = await pool([0, 1].map((i) => () => local(['admin', 'user', 'create', `busy-cli-${i}`])));
    running = false;
    await serverLoop;
    for (const r of cli) ok(r);
    for (let i = 0; i < 2; i++) expect((await s.api('GET', `/users/busy-cli-${i}`)).status).toBe(200);
    for (let i = 0; i < serverWrites; i++) expect((await s.api('GET', `/users/busy-http-${i}`)).status).toBe(200);
  });
});

describe('hublet api', () => {
  it('sends -X, -f (typed with :=), --input FILE and --input - (stdin); prints the response JSON; acts as HUBLET_USER', async () => {
    const file = path.join(sb.root, 'user.json');
    fs.writeFileSync(file, JSON.stringify({ login: 'from-file', email: 'file@example.com' }));
    const [put, typed, fromFile, fromStdin, asEnvUser, deleted] = await pool([
      () => local(['--as', 'carol', 'api', '/orgs/guild/memberships/dave', '-X', 'put', '-f', 'role=admin']),
      () => local(['api', '/admin/users', '-f', 'login=typed', '-f', 'site_admin:=true']),
      () => local(['api', '/admin/users', '--input', file]),
      () => local(['api', '/admin/users', '--input', '-'], { stdin: '{"login":"from-stdin"}' }),
      () => local(['api', 'user'], { extraEnv: { HUBLET_USER: 'busy-http-0' } }), // a user the server created
      () => local(['api', '-X', 'DELETE', '/orgs/guild/memberships/root2']),
    ]);
    expect(JSON.parse(ok(put).stdout)).toMatchObject({ role: 'admin', user: { login: 'dave' } });
    expect(JSON.parse(ok(typed).stdout)).toMatchObject({ login: 'typed', site_admin: true });
    expect(JSON.parse(ok(fromFile).stdout)).toMatchObject({ login: 'from-file' });
    expect((await s.api('GET', '/users/from-file')).body.email).toBe('file@example.com');
    expect(JSON.parse(ok(fromStdin).stdout)).toMatchObject({ login: 'from-stdin' });
    expect(JSON.parse(ok(asEnvUser).stdout)).toMatchObject({ login: 'busy-http-0', plan: expect.any(Object) });
    expect(ok(deleted).stdout).toBe(''); // 204: nothing to print
    expect((await s.api('GET', '/orgs/guild/memberships/root2', { token: s.adminToken })).status).toBe(404);
  });
});

describe('local and remote mode give the same output and exit codes', () => {
  it('for successes, API errors and refusals', async () => {
    const carolToken = await s.createToken('carol', { scopes: ['gist', 'read:org', 'admin:org', 'user'] });
    const adminToken = s.adminToken;
    // carol is guild's only owner (the commands below run concurrently and must not change that).
    await s.addMember('guild', 'dave', 'member');
    expect((await s.api('GET', '/orgs/guild/memberships/root2', { token: adminToken })).status).toBe(404);
    // [what, local args, remote token, remote args]
    const cases: [string, string[], string, string[]][] = [
      ['GET /user', ['--as', 'carol', 'api', '/user'], carolToken, ['api', '/user']],
      ['404', ['--as', 'carol', 'api', '/users/nobody-at-all'], carolToken, ['api', '/users/nobody-at-all']],
      [
        '422',
        ['--as', 'carol', 'api', '/orgs/guild/memberships/dave', '-X', 'PUT', '-f', 'role=owner'],
        carolToken,
        ['api', '/orgs/guild/memberships/dave', '-X', 'PUT', '-f', 'role=owner'],
      ],
      ['admin as a non-admin', ['--as', 'carol', 'admin', 'user', 'create', 'sneaky'], carolToken, ['admin', 'user', 'create', 'sneaky']],
      [
        'add-member',
        ['admin', 'org', 'add-member', 'guild', 'dave', '--role', 'member', '--json'],
        adminToken,
        ['admin', 'org', 'add-member', 'guild', 'dave', '--role', 'member', '--json'],
      ],
      [
        'last owner',
        ['admin', 'org', 'add-member', 'guild', 'carol', '--role', 'member'],
        adminToken,
        ['admin', 'org', 'add-member', 'guild', 'carol', '--role', 'member'],
      ],
    ];
    const results = await pool(cases.flatMap(([, l, token, r]) => [() => local(l), () => remote(token, r)]));
    cases.forEach(([what], i) => {
      const [l, r] = [results[2 * i], results[2 * i + 1]];
      // Hints read off a token's scopes exist only remotely (local mode has no tokens): the rest is the same.
      expect({ code: r.code, stdout: r.stdout, stderr: withoutHints(r.stderr) }, what).toEqual({
        code: l.code,
        stdout: l.stdout,
        stderr: l.stderr,
      });
    });
    const byName = Object.fromEntries(cases.map(([what], i) => [what, results[2 * i]]));
    expect(JSON.parse(byName['GET /user'].stdout).login).toBe('carol');
    expect(byName['404'].code).toBe(1);
    // `hublet api` answers an error as gh api does: the body on stdout, `hublet: MESSAGE (HTTP N)` on stderr.
    expect(JSON.parse(byName['404'].stdout).status).toBe('404');
    expect(byName['404'].stderr).toMatch(/^hublet: Not Found \(HTTP 404\)/);
    expect(byName['422'].code).toBe(1);
    expect(JSON.parse(byName['422'].stdout).status).toBe('422');
    expect(byName['422'].stderr).toMatch(/^hublet: Validation Failed \(HTTP 422\)/);
    expect(byName['admin as a non-admin'].code).toBe(1);
    expect(JSON.parse(byName['admin as a non-admin'].stderr).status).toBe('404');
    expect(JSON.parse(byName['add-member'].stdout).role).toBe('member');
    expect(byName['last owner'].code).toBe(1);
    expect(JSON.parse(byName['last owner'].stderr).message).toMatch(/last owner/);
  });

  it('for created things (the same record but for login and id), and with HUBLET_SERVER/HUBLET_TOKEN', async () => {
    const [l, r, env] = await pool([
      () => local(['admin', 'user', 'create', 'made-local', '--json']),
      () => remote(s.adminToken, ['admin', 'user', 'create', 'made-remote', '--json']),
      () =>
        runCli(['admin', 'user', 'create', 'made-env', '--json'], {
          env: sb.env,
          extraEnv: { HUBLET_SERVER: s.url, HUBLET_TOKEN: s.adminToken },
        }),
    ]);
    const normal = (out: string) => {
      const u = JSON.parse(out);
      return JSON.parse(JSON.stringify(u).replaceAll(u.login, 'LOGIN').replace(`"id":${u.id}`, '"id":0').replace(u.node_id, 'NODE'));
    };
    expect(normal(ok(r).stdout)).toEqual(normal(ok(l).stdout));
    expect(normal(ok(env).stdout)).toEqual(normal(l.stdout));
  });

  it('exits 4 when the server refuses the credentials (401), in both modes', async () => {
    const [unknownLocal, badToken, envBadToken, anonymous] = await pool([
      () => local(['--as', 'ghost', 'api', '/user']),
      () => remote(`hlp_${'n'.repeat(36)}`, ['api', '/user']),
      () => runCli(['api', '/user'], { env: sb.env, extraEnv: { HUBLET_SERVER: s.url, HUBLET_TOKEN: 'hlp_nope' } }),
      () => runCli(['--server', s.url, 'api', '/user'], { env: sb.env }),
    ]);
    for (const res of [unknownLocal, badToken, envBadToken, anonymous]) {
      expect(res.code, res.stderr).toBe(4);
      expect(JSON.parse(res.stdout).status).toBe('401');
      expect(res.stderr).toMatch(/^hublet: .* \(HTTP 401\)/);
    }
    expect(JSON.parse(badToken.stdout).message).toBe('Bad credentials');
    expect(JSON.parse(anonymous.stdout).message).toBe('Requires authentication');
  });

  it('says clearly when the server cannot be reached (exit 1) or is not a URL (exit 2)', async () => {
    const [down, notUrl] = await pool([
      () => runCli(['--server', 'http://127.0.0.1:1', '--token', 'x', 'api', '/user'], { env: sb.env }),
      () => runCli(['--server', 'localhost-ish', 'api', '/user'], { env: sb.env }),
    ]);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1/);
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr).toContain('localhost-ish');
  });
});

describe('hublet auth', () => {
  it('login saves the credentials (mode 0600), status checks them, remote mode uses them, logout removes them', async () => {
    const box = sandbox();
    try {
      await s.createUser('erin');
      const token = await s.createToken('erin', { scopes: ['gist', 'read:org'] });
      const run = (args: string[]) => runCli(args, { env: box.env });

      const refused = await run(['auth', 'login', '--server', s.url, '--token', `hlp_${'z'.repeat(36)}`]);
      expect(refused.code).toBe(4);
      expect(JSON.parse(withoutHints(refused.stderr)).message).toBe('Bad credentials');
      expect(fs.existsSync(box.credentialsFile)).toBe(false);

      const login = ok(await run(['auth', 'login', '--server', `${s.url}/`, '--token', token])); // a trailing slash is dropped
      expect(login.stdout).toContain(`signed in to ${s.url} as erin`);
      expect(fs.statSync(box.credentialsFile).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(box.credentialsFile)).mode & 0o077).toBe(0);
      expect(JSON.parse(fs.readFileSync(box.credentialsFile, 'utf8'))).toMatchObject({ server: s.url, token, login: 'erin' });

      const [status, statusJson, me] = await pool([
        () => run(['auth', 'status']),
        () => run(['--json', 'auth', 'status']),
        () => run(['api', '/user']),
      ]);
      expect(ok(status).stdout).toBe(
        `remote mode: server ${s.url} (from saved credentials)\nuser: erin (token from saved credentials); scopes: gist, read:org\n`,
      );
      expect(JSON.parse(ok(statusJson).stdout)).toEqual({
        mode: 'remote',
        server: s.url,
        login: 'erin',
        valid: true,
        scopes: ['gist', 'read:org'],
        sources: { server: 'saved', token: 'saved' },
      });
      expect(JSON.parse(ok(me).stdout).login).toBe('erin'); // no --data, no --server: the saved server

      // A revoked token: status says so and exits 4.
      expect((await s.api('DELETE', '/admin/users/erin/authorizations', { token: s.adminToken })).status).toBe(204);
      const stale = await run(['auth', 'status']);
      expect(stale.code).toBe(4);
      expect(stale.stdout).toContain('token rejected (HTTP 401)');

      const logout = ok(await run(['auth', 'logout']));
      expect(logout.stdout).toContain('signed out');
      expect(fs.existsSync(box.credentialsFile)).toBe(false);
      const [after, localAgain] = await pool([() => run(['auth', 'status']), () => run(['api', '/user'])]);
      expect(after.code).toBe(4);
      expect(after.stderr).toContain('not signed in');
      // Without saved credentials the CLI is local again: the default data dir under XDG_DATA_HOME, which holds no
      // database yet, so it is refused (exit 2, naming hublet init) rather than silently created.
      const defaultDir = path.join(box.env.XDG_DATA_HOME!, 'hublet');
      expect(localAgain.code).toBe(2);
      expect(localAgain.stderr).toContain('hublet init');
      expect(fs.existsSync(path.join(defaultDir, 'hublet.sqlite'))).toBe(false);
      ok(await run(['init']));
      expect(JSON.parse(ok(await run(['api', '/user'])).stdout).login).toBe('admin');
      expect(fs.existsSync(path.join(defaultDir, 'hublet.sqlite'))).toBe(true);
    } finally {
      box.cleanup();
    }
  });
});

describe('the executable', () => {
  it('exits 0, 1, 2 and 4 as the program says, reads stdin and writes stdout through pipes', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const untouched = path.join(sb.root, 'untouched-bin');
    const local = ['--data', s.dataDir, '--database', s.databaseUrl];
    const [version, usage, created, apiError, refused] = await pool([
      () => spawnCli(['--version'], { env: sb.env }),
      () => spawnCli(['--data', untouched, 'admin', 'user', 'create'], { env: sb.env }),
      () => spawnCli([...local, 'api', '/admin/users', '--input', '-'], { env: localEnv, stdin: '{"login":"piped-in"}' }),
      () => spawnCli([...local, 'api', '/users/nobody-at-all'], { env: localEnv }),
      () => spawnCli(['--server', s.url, 'api', '/user'], { env: sb.env }),
    ]);
    expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("missing required argument 'login'");
    expect(fs.existsSync(untouched)).toBe(false);
    expect(JSON.parse(ok(created).stdout)).toMatchObject({ login: 'piped-in' });
    expect((await s.api('GET', '/users/piped-in')).status).toBe(200);
    expect(apiError.code).toBe(1);
    expect(JSON.parse(apiError.stdout)).toMatchObject({ status: '404' });
    expect(refused.code).toBe(4);
    expect(JSON.parse(refused.stdout)).toMatchObject({ status: '401', message: 'Requires authentication' });
  });
});
