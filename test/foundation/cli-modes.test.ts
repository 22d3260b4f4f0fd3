// Which mode a client command runs in, over what and as whom (flag > environment > saved credentials), run in-process
// against a fake I/O: conflicting options refused as usage errors, `auth status` naming the mode, the server or data dir
// and the user with where each came from, a data dir without a hublet database refused (a mistyped --data), and
// `hublet init` creating one with the site admin's one-time token.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, pool, sandbox, type Env, type Sandbox } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-inprocess.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let sb: Sandbox;
let erinToken: string;
let frankToken: string;
/** A data dir made by `hublet init`, and the options naming it (with --database on PostgreSQL). */
let dataDir: string;
let localDatabase: string;
let localArgs: string[];
const databases: TestDatabase[] = [];

const run = (args: string[], extraEnv: Env = {}) => runInProcess(args, { env: sb.env, extraEnv });

/** A config dir holding credentials as `auth login` saves them. */
function savedCredentials(name: string, server: string, token: string, login?: string): Env {
  const dir = path.join(sb.root, `config-${name}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'credentials.json'), JSON.stringify({ server, token, login }), { mode: 0o600 });
  return { HUBLET_CONFIG_DIR: dir };
}

/** An empty data dir and a database for it (a fresh PostgreSQL database on PostgreSQL; the dir's default file on SQLite). */
async function freshDataDir(name: string): Promise<{ dir: string; args: string[]; db: TestDatabase }> {
  const dir = path.join(sb.root, name);
  fs.mkdirSync(dir);
  const db = await createTestDatabase(dir);
  databases.push(db);
  return { dir, db, args: ['--data', dir, ...(onPostgres ? ['--database', db.url] : [])] };
}

const loginOf = (stdout: string) => (JSON.parse(stdout) as { login: string }).login;

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  sb = sandbox();
  erinToken = (await s.userWithToken('erin', ['gist', 'read:org'])).token;
  frankToken = (await s.userWithToken('frank', ['gist'])).token;
  const fresh = await freshDataDir('local');
  dataDir = fresh.dir;
  localDatabase = fresh.db.url;
  localArgs = fresh.args;
  ok(await run(['init', ...localArgs]));
  for (const login of ['bob', 'carol']) ok(await run([...localArgs, 'admin', 'user', 'create', login]));
});
afterAll(async () => {
  await s?.close();
  for (const d of databases) await d.drop();
  sb?.cleanup();
});

describe('hublet init', () => {
  it('creates a data dir and its database with the site admin, printing its one-time token once; again, it changes nothing and says how to make another', async () => {
    const fresh = await freshDataDir('init-fresh');
    const first = ok(await run(['init', ...fresh.args]));
    expect(first.stdout).toContain(`created a hublet data dir in ${fresh.dir}`);
    const token = /^created site admin "admin"; its token \(shown once\): (hlp_\w+)$/m.exec(first.stdout)?.[1];
    expect(token).toBeTruthy();
    if (!onPostgres) expect(fs.existsSync(path.join(fresh.dir, 'hublet.sqlite'))).toBe(true);
    // The data dir is one client commands accept now.
    expect(loginOf(ok(await run([...fresh.args, 'api', '/user'])).stdout)).toBe('admin');

    const again = ok(await run(['init', ...fresh.args]));
    expect(again.stdout).toContain(`${fresh.dir} already holds a hublet database`);
    expect(again.stdout).toContain(`lost it? make another: hublet admin token create admin --scopes `);
    expect(again.stdout).toContain(`--data ${fresh.dir}`);
    expect(again.stdout).not.toMatch(/hlp_/);
  });

  it('--json gives the token as a field; HUBLET_ADMIN_TOKEN is registered instead and printed nowhere; HUBLET_DATA names the dir', async () => {
    const a = await freshDataDir('init-json');
    const json = JSON.parse(ok(await run(['--json', 'init', ...a.args])).stdout);
    expect(json).toMatchObject({ data_dir: a.dir, created: true, admin_token: expect.stringMatching(/^hlp_\w+$/) });

    const b = await freshDataDir('init-fixed');
    const fixed = `hlp_${'F'.repeat(36)}`;
    const fromEnv = ok(
      await run(['init'], { HUBLET_DATA: b.dir, HUBLET_ADMIN_TOKEN: fixed, ...(onPostgres ? { HUBLET_DATABASE: b.db.url } : {}) }),
    );
    expect(fromEnv.stdout).toContain(`created a hublet data dir in ${b.dir}`);
    expect(fromEnv.stdout).not.toContain(fixed);
    expect(fromEnv.stdout).not.toContain('shown once');
    expect(fromEnv.stdout).not.toContain('lost it');
  });

  it('refuses remote-mode options (exit 2) without creating anything', async () => {
    const never = path.join(sb.root, 'init-never');
    const [server, token] = await pool([
      () => run(['init', '--data', never, '--server', s.url]),
      () => run(['init', '--data', never, '--token', 'x']),
    ]);
    for (const r of [server, token]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(server.stderr).toContain('--server has no meaning');
    expect(fs.existsSync(never)).toBe(false);
  });
});

describe('a data dir without a hublet database', () => {
  it('is refused by client commands (exit 2), naming the path and how to create one, and nothing is created', async () => {
    const typo = path.join(sb.root, 'dta2');
    const empty = path.join(sb.root, 'empty-dir');
    fs.mkdirSync(empty);
    const [flag, env, emptyDir, defaultDir] = await pool([
      () => run(['--data', typo, 'admin', 'user', 'create', 'carol']),
      () => run(['gist', 'list'], { HUBLET_DATA: typo }),
      () => run(['--data', empty, 'api', '/user']),
      () => run(['api', '/user']),
    ]);
    for (const r of [flag, env, emptyDir, defaultDir]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(flag.stderr).toContain(`hublet: no hublet database in data dir ${typo} (from --data).`);
    expect(flag.stderr).toContain(`hublet init --data ${typo}`);
    expect(flag.stderr).toContain(`hublet serve --data ${typo}`);
    expect(env.stderr).toContain(`no hublet database in data dir ${typo} (from HUBLET_DATA)`);
    expect(emptyDir.stderr).toContain(`no hublet database in data dir ${empty} (from --data)`);
    const defaultPath = path.join(sb.env.XDG_DATA_HOME!, 'hublet');
    expect(defaultDir.stderr).toContain(`no hublet database in data dir ${defaultPath} (the default)`);
    expect(defaultDir.stderr).toContain('hublet auth login');
    expect(fs.existsSync(typo)).toBe(false);
    expect(fs.readdirSync(empty)).toEqual([]);
    expect(fs.existsSync(defaultPath)).toBe(false);
  });

  it('is refused when --database names an empty database', async () => {
    const fresh = await freshDataDir('empty-database');
    const r = await run(['--data', fresh.dir, '--database', fresh.db.url, 'api', '/user']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `no hublet database in database ${onPostgres ? fresh.db.url : path.join(fresh.dir, 'hublet.sqlite')} (from --database)`,
    );
    expect(r.stderr).toContain(`hublet init --data ${fresh.dir}`);
  });
});

describe('which mode runs, and as whom: flag > environment > saved credentials', () => {
  it('chooses the data dir or server and the token by that rule', async () => {
    const savedErin = savedCredentials('erin', s.url, erinToken, 'erin');
    const savedElsewhere = savedCredentials('elsewhere', 'http://127.0.0.1:1', 'hlp_nothing_here');
    const cases: [string, () => Promise<{ code: number | null; stdout: string; stderr: string }>, string][] = [
      // The case: an explicit --data wins over HUBLET_SERVER (and HUBLET_TOKEN, exported for curl, is not a conflict).
      ['--data over HUBLET_SERVER', () => run([...localArgs, 'api', '/user'], { HUBLET_SERVER: s.url, HUBLET_TOKEN: erinToken }), 'admin'],
      [
        'HUBLET_DATA over saved credentials',
        () => run(['api', '/user'], { ...savedErin, HUBLET_DATA: dataDir, ...(onPostgres ? { HUBLET_DATABASE: localDatabase } : {}) }),
        'admin',
      ],
      ['--server over HUBLET_DATA', () => run(['--server', s.url, '--token', erinToken, 'api', '/user'], { HUBLET_DATA: dataDir }), 'erin'],
      [
        'HUBLET_SERVER over saved credentials',
        () => run(['api', '/user'], { ...savedElsewhere, HUBLET_SERVER: s.url, HUBLET_TOKEN: erinToken }),
        'erin',
      ],
      ['saved credentials alone', () => run(['api', '/user'], savedErin), 'erin'],
      ['--server with the token saved for that server', () => run(['--server', `${s.url}/`, 'api', '/user'], savedErin), 'erin'],
      [
        '--token over HUBLET_TOKEN over the saved token',
        () => run(['--token', frankToken, 'api', '/user'], { ...savedErin, HUBLET_TOKEN: erinToken }),
        'frank',
      ],
      ['HUBLET_TOKEN over the saved token', () => run(['api', '/user'], { ...savedErin, HUBLET_TOKEN: frankToken }), 'frank'],
      ['--as over HUBLET_USER', () => run([...localArgs, '--as', 'bob', 'api', '/user'], { HUBLET_USER: 'carol' }), 'bob'],
      ['HUBLET_USER over the default', () => run([...localArgs, 'api', '/user'], { HUBLET_USER: 'carol' }), 'carol'],
      [
        'a flag settles conflicting environment variables',
        () => run([...localArgs, 'api', '/user'], { HUBLET_SERVER: s.url, HUBLET_DATA: path.join(sb.root, 'nowhere') }),
        'admin',
      ],
    ];
    const results = await pool(
      cases.map(([, c]) => c),
      3,
    );
    cases.forEach(([what, , login], i) => {
      expect(results[i].stderr, what).toBe('');
      expect({ what, login: loginOf(results[i].stdout) }).toEqual({ what, login });
    });
    // A token saved for another server is not sent to this one: anonymous, refused.
    const other = await run(['--server', s.url, 'api', '/user'], savedElsewhere);
    expect(other.code).toBe(4);
    expect(other.stderr).toContain('Requires authentication');
  });

  it('refuses options that contradict each other with a usage error (exit 2), saying what chose the mode', async () => {
    const savedErin = savedCredentials('erin-conflicts', s.url, erinToken, 'erin');
    const [both, asRemote, asSaved, tokenLocal, baseUrlRemote, envBoth, dbAndServer] = await pool([
      () => run([...localArgs, '--server', s.url, 'api', '/user']),
      () => run(['--server', s.url, '--token', erinToken, '--as', 'bob', 'api', '/user']),
      () => run(['--as', 'bob', 'api', '/user'], savedErin),
      () => run([...localArgs, '--token', erinToken, 'api', '/user']),
      () => run(['--server', s.url, '--base-url', 'http://links.example.test', 'api', '/user']),
      () => run(['api', '/user'], { HUBLET_SERVER: s.url, HUBLET_DATA: dataDir }),
      () => run(['--database', 'postgres://x@127.0.0.1:1/none', '--server', s.url, 'api', '/user']),
    ]);
    for (const r of [both, asRemote, asSaved, tokenLocal, baseUrlRemote, envBoth, dbAndServer]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(both.stderr).toBe('hublet: --server (remote mode) and --data (local mode) cannot be used together; choose one\n');
    expect(dbAndServer.stderr).toContain('--server (remote mode) and --database (local mode) cannot be used together');
    expect(asRemote.stderr).toContain(
      `--as works only in local mode; this command would run in remote mode (server ${s.url} from --server)`,
    );
    expect(asSaved.stderr).toContain(
      `--as works only in local mode; this command would run in remote mode (server ${s.url} from saved credentials)`,
    );
    expect(asSaved.stderr).toContain('--data DIR');
    expect(tokenLocal.stderr).toContain('--token works only in remote mode; this command would run in local mode (data dir from --data)');
    expect(baseUrlRemote.stderr).toContain('--base-url works only in local mode');
    expect(envBoth.stderr).toContain('HUBLET_SERVER (remote mode) and HUBLET_DATA (local mode) are both set');
  });
});

describe('hublet auth status', () => {
  it('local mode: the data dir, database and user, each with where it came from, and the links', async () => {
    const database = onPostgres ? localDatabase : path.join(dataDir, 'hublet.sqlite');
    const databaseFrom = onPostgres ? 'from --database' : 'default';
    const [plain, asBob, fromEnv, json, ghost] = await pool([
      () => run([...localArgs, 'auth', 'status']),
      () => run([...localArgs, '--as', 'bob', 'auth', 'status']),
      () => run(['auth', 'status'], { HUBLET_DATA: dataDir, HUBLET_USER: 'carol', ...(onPostgres ? { HUBLET_DATABASE: database } : {}) }),
      () => run([...localArgs, '--json', '--base-url', 'http://links.example.test:8080', 'auth', 'status']),
      () => run([...localArgs, '--as', 'ghost', 'auth', 'status']),
    ]);
    expect(ok(plain).stdout).toBe(
      `local mode: data dir ${dataDir} (from --data), database ${database} (${databaseFrom})\n` +
        'user: admin (default)\n' +
        'links: http://127.0.0.1:3000 (default; no hublet serve has recorded its URL in this data dir)\n',
    );
    expect(ok(asBob).stdout).toContain('user: bob (from --as)\n');
    expect(ok(fromEnv).stdout).toContain(`local mode: data dir ${dataDir} (from HUBLET_DATA)`);
    expect(fromEnv.stdout).toContain('user: carol (from HUBLET_USER)\n');
    expect(JSON.parse(ok(json).stdout)).toEqual({
      mode: 'local',
      data_dir: dataDir,
      database,
      login: 'admin',
      valid: true,
      scopes: null,
      base_url: 'http://links.example.test:8080',
      sources: { data_dir: 'flag', database: onPostgres ? 'flag' : 'default', user: 'default', base_url: 'flag' },
    });
    expect(ghost.code).toBe(4);
    expect(ghost.stdout).toContain('user: none (ghost from --as cannot act here)');
    expect(ghost.stderr).toContain('there is no user ghost (from --as)');
  });

  it('remote mode: the server and the token’s user, each with where it came from; exit 4 without a working token', async () => {
    const savedErin = savedCredentials('erin-status', s.url, erinToken, 'erin');
    const [flags, env, saved, json, anonymous, rejected] = await pool([
      () => run(['--server', s.url, '--token', frankToken, 'auth', 'status'], savedErin),
      () => run(['auth', 'status'], { HUBLET_SERVER: s.url, HUBLET_TOKEN: frankToken }),
      () => run(['auth', 'status'], savedErin),
      () => run(['--json', 'auth', 'status'], savedErin),
      () => run(['--server', s.url, 'auth', 'status']),
      () => run(['--server', s.url, '--token', `hlp_${'n'.repeat(36)}`, 'auth', 'status']),
    ]);
    expect(ok(flags).stdout).toBe(`remote mode: server ${s.url} (from --server)\nuser: frank (token from --token); scopes: gist\n`);
    expect(ok(env).stdout).toBe(`remote mode: server ${s.url} (from HUBLET_SERVER)\nuser: frank (token from HUBLET_TOKEN); scopes: gist\n`);
    expect(ok(saved).stdout).toBe(
      `remote mode: server ${s.url} (from saved credentials)\nuser: erin (token from saved credentials); scopes: gist, read:org\n`,
    );
    expect(JSON.parse(ok(json).stdout)).toEqual({
      mode: 'remote',
      server: s.url,
      login: 'erin',
      valid: true,
      scopes: ['gist', 'read:org'],
      sources: { server: 'saved', token: 'saved' },
    });
    expect(anonymous.code).toBe(4);
    expect(anonymous.stdout).toContain('user: none, anonymous (no token');
    expect(rejected.code).toBe(4);
    expect(rejected.stdout).toContain('user: none, token rejected (HTTP 401) (token from --token)');
    expect(rejected.stderr).toContain('no longer works');
  });

  it('with nothing named and nothing saved: local mode over the default data dir, which holds nothing: not signed in, exit 4', async () => {
    const r = await run(['auth', 'status']);
    const defaultPath = path.join(sb.env.XDG_DATA_HOME!, 'hublet');
    expect(r.code).toBe(4);
    expect(r.stdout).toContain(`local mode: data dir ${defaultPath} (default)`);
    expect(r.stderr).toContain(`hublet: not signed in to any server, and no hublet database in data dir ${defaultPath} (the default)`);
    expect(fs.existsSync(defaultPath)).toBe(false);
  });
});
