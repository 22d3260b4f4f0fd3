// `hublet admin migration import` of an archive laid out as GitHub's own: conflicts first (--dry-run, --conflicts),
// a migration map applied (a user mapped onto an existing one, a repository renamed), the audit listing what hublet does
// not model; and hostile or damaged archives refused (CLI exit 1, API 422) with nothing written.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { create as createTar } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutHints } from '../helpers/cli.js';
import { type InProcessCliServer, startInProcessCliServer } from '../helpers/cli-inprocess.js';
import { startServer } from '../helpers/server.js';
import { git, tempDir } from './support.js';
import { githubStyleArchiveDir, lsRemote } from './import-support.js';

let cli: InProcessCliServer;
let tmp: string;
let archiveDir: string;
let archive: string;
const gh = (p: string) => `https://github.example${p}`;

/** Packs `entries` of `dir` as a tar.gz at `file` (`preservePaths` keeps `..` and absolute names as given). */
async function pack(dir: string, file: string, entries: string[], preservePaths = false): Promise<string> {
  await createTar({ gzip: true, cwd: dir, file, portable: true, preservePaths }, entries);
  return file;
}

/** A copy of the GitHub-style archive's directory, changed by `change`, packed. */
async function variant(name: string, change: (dir: string) => Promise<void> | void): Promise<string> {
  const dir = path.join(tmp, name);
  fs.cpSync(archiveDir, dir, { recursive: true });
  await change(dir);
  return pack(dir, path.join(tmp, `${name}.tar.gz`), fs.readdirSync(dir));
}

beforeAll(async () => {
  cli = await startInProcessCliServer();
  tmp = tempDir('hublet-import-');
  archiveDir = await githubStyleArchiveDir(tmp);
  archive = await pack(archiveDir, path.join(tmp, 'github.tar.gz'), fs.readdirSync(archiveDir));
  // Already here: octo (whom octocat will be mapped onto) and acme with its own widgets.
  const s = cli.server;
  await s.createUser('octo');
  const owner = await s.userWithToken('wile', ['repo', 'admin:org']);
  await s.createOrg('acme', 'wile');
  const r = await s.api('POST', '/orgs/acme/repos', { token: owner.token, body: { name: 'widgets', description: 'the existing one' } });
  if (r.status !== 201) throw new Error(r.text);
}, 120_000);
afterAll(async () => {
  await cli?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** What a refused import must not leave: no new rows, no repository directories, nothing unpacked. */
async function snapshot() {
  const s = cli.server;
  const users = await s.db.selectFrom('users').select(['login']).orderBy('id').execute();
  const repos = await s.db.selectFrom('repositories').select(['name', 'owner_id']).orderBy('id').execute();
  const members = await s.db.selectFrom('memberships').select(['org_id', 'user_id', 'role']).orderBy('org_id').orderBy('user_id').execute();
  const gitDirs = fs.readdirSync(path.join(s.dataDir, 'git', 'repos')).sort();
  const imports = path.join(s.dataDir, 'tmp', 'imports');
  return { users, repos, members, gitDirs, unpacked: fs.existsSync(imports) ? fs.readdirSync(imports) : [] };
}

const NOT_IMPORTED = [
  { model_name: 'issues', count: 2 },
  { model_name: 'pull_requests', count: 1 },
  { model_name: 'releases', count: 1 },
  { model_name: 'teams', count: 1 },
  { model_name: 'repository labels', count: 2 },
  { model_name: 'wikis', count: 1 },
];

describe('conflicts first: --dry-run and --conflicts', { timeout: 60_000 }, () => {
  it('lists every record with its proposed action, the kinds hublet does not model, and writes nothing', async () => {
    const before = await snapshot();
    const csv = path.join(tmp, 'conflicts.csv');
    const r = await cli.local(['--json', 'admin', 'migration', 'import', archive, '--dry-run', '--conflicts', csv]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({
      dry_run: true,
      schema_version: '1.2.0',
      notes: [
        'organization webhooks are imported inactive: archives carry no webhook secrets (the import reports each one it cannot create)',
      ],
    });
    expect(report.counts).toContainEqual({ model_name: 'organization webhook', imported: 1, mapped: 0, renamed: 0, skipped: 0 });
    expect(report.not_imported).toEqual(NOT_IMPORTED);
    const t = cli.server.url;
    expect(fs.readFileSync(csv, 'utf8').split('\n')).toEqual([
      'model_name,source_url,target_url,recommended_action',
      `user,${gh('/octocat')},${t}/octocat,import`,
      `user,${gh('/hubot')},${t}/hubot,import`,
      `organization,${gh('/acme')},${t}/acme,map`,
      `repository,${gh('/acme/widgets')},${t}/acme/widgets,skip`,
      '',
    ]);
    expect(await snapshot()).toEqual(before);
  });
});

describe('--map: the edited CSV applied', { timeout: 60_000 }, () => {
  it('refuses a map that cannot apply (a rename onto an existing repository), naming it, and writes nothing', async () => {
    const before = await snapshot();
    const map = path.join(tmp, 'bad-map.csv');
    fs.writeFileSync(
      map,
      `model_name,source_url,target_url,recommended_action\nrepository,${gh('/acme/widgets')},${cli.server.url}/acme/widgets,rename\n`,
    );
    const r = await cli.local(['admin', 'migration', 'import', archive, '--map', map]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The migration map cannot be applied');
    expect(r.stderr).toContain('repository acme/widgets: acme/widgets already exists');
    expect(await snapshot()).toEqual(before);
  });

  it('a map file that is not one is a usage error (exit 2)', async () => {
    const map = path.join(tmp, 'not-a-map.csv');
    fs.writeFileSync(map, 'a,b\n1,2\n');
    const r = await cli.local(['admin', 'migration', 'import', archive, '--map', map]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'is not a migration map: the header must name the columns model_name,source_url,target_url,recommended_action',
    );
  });

  it('maps octocat onto octo, renames acme/widgets to acme/widgets-old, and audits every kind (remote mode)', async () => {
    const map = path.join(tmp, 'map.csv');
    const t = cli.server.url;
    fs.writeFileSync(
      map,
      [
        'model_name,source_url,target_url,recommended_action',
        `user,${gh('/octocat')},${t}/octo,map`,
        `user,${gh('/hubot')},${t}/hubot,import`,
        `organization,${gh('/acme')},${t}/acme,map`,
        `repository,${gh('/acme/widgets')},${t}/acme/widgets-old,rename`,
        '',
      ].join('\n'),
    );
    const r = await cli.remote(cli.server.adminToken, ['admin', 'migration', 'import', archive, '--map', map]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^user\s+1\s+1\s+0\s+0$/m);
    expect(r.stdout).toMatch(/^organization\s+0\s+1\s+0\s+0$/m);
    expect(r.stdout).toMatch(/^membership\s+2\s+0\s+0\s+0$/m);
    expect(r.stdout).toMatch(/^repository\s+0\s+0\s+1\s+0$/m);
    expect(r.stdout).toContain('skipped, not modelled by hublet:');
    for (const { model_name, count } of NOT_IMPORTED) expect(r.stdout).toMatch(new RegExp(`^${model_name}\\s+${count}$`, 'm'));
    expect(r.stdout).toMatch(/^organization webhook\s+1\s+0\s+0\s+0$/m);
    expect(r.stdout).toContain('note: organization webhooks: 1 imported inactive (no secrets in archives: set a secret and activate them)');

    const s = cli.server;
    const octo = await s.createToken('octo', { scopes: ['repo', 'admin:org'] });
    const role = async (login: string) => (await s.api('GET', `/orgs/acme/memberships/${login}`, { token: octo })).body.role;
    expect(await role('octo')).toBe('admin');
    expect(await role('hubot')).toBe('member');
    expect(await role('wile')).toBe('admin');
    const old = await s.api('GET', '/repos/acme/widgets-old', { token: octo });
    expect(old.body).toMatchObject({
      full_name: 'acme/widgets-old',
      private: true,
      description: 'All the widgets',
      topics: ['widgets'],
      default_branch: 'main',
    });
    const existing = await s.api('GET', '/repos/acme/widgets', { token: octo });
    expect(existing.body.description).toBe('the existing one');
    const source = await git(['ls-remote', path.join(archiveDir, 'repositories', 'acme', 'widgets.git')], tmp);
    expect(source).toContain('\trefs/pull/1/head\n');
    const branchesAndTags = source
      .split('\n')
      .filter((l) => !l.includes('\trefs/pull/'))
      .join('\n');
    expect(await lsRemote(s, octo, 'acme/widgets-old')).toBe(branchesAndTags);
    expect((await s.api('GET', '/users/octocat', { token: octo })).status).toBe(404);
  });
});

describe('organization webhooks: imported inactive, without a secret', { timeout: 60_000 }, () => {
  /** The organization's hooks as its owner (octo) sees them through the API, with each one's config. */
  async function hooksOf(org: string) {
    const s = cli.server;
    const token = await s.createToken('octo', { scopes: ['admin:org_hook'] }); // octocat, an owner in the archive, was mapped onto octo
    const list = await s.api('GET', `/orgs/${org}/hooks`, { token });
    expect(list.status).toBe(200);
    return list.body as { id: number; active: boolean; events: string[]; config: Record<string, unknown> }[];
  }

  it('creates each hook inactive with its URL, events, content type and insecure_ssl, refuses the ones the rules refuse, and a re-run adds none', async () => {
    const hooked = await variant('hooks', (dir) => {
      const file = path.join(dir, 'organizations_000001.json');
      const [org] = JSON.parse(fs.readFileSync(file, 'utf8'));
      org.webhooks.push(
        {
          payload_url: 'http://build.acme.example:8080/events',
          content_type: 'form',
          event_types: ['issues', 'repository'],
          enable_ssl_verification: false,
          active: true,
        },
        { payload_url: 'http://token:s3cret@169.254.169.254/latest/meta-data', content_type: 'json', event_types: ['push'], active: true },
        { payload_url: 'ftp://files.acme.example/hook', content_type: 'json', event_types: ['push'], active: true },
        { payload_url: 'https://ci.acme.example/other', content_type: 'json', event_types: ['no_such_event'], active: true },
      );
      fs.writeFileSync(file, JSON.stringify([org]));
    });
    const t = cli.server.url;
    const map = (orgAction: string) => {
      const file = path.join(tmp, `hooks-${orgAction}.csv`);
      fs.writeFileSync(
        file,
        [
          'model_name,source_url,target_url,recommended_action',
          `user,${gh('/octocat')},${t}/octo,map`,
          `user,${gh('/hubot')},${t}/hubot,skip`,
          `organization,${gh('/acme')},${t}/acme-hooks,${orgAction}`,
          `repository,${gh('/acme/widgets')},${t}/acme-hooks/widgets,skip`,
          '',
        ].join('\n'),
      );
      return file;
    };

    // A new organization (acme renamed): its hooks are created in its own transaction.
    const first = await cli.local(['--json', 'admin', 'migration', 'import', hooked, '--map', map('rename')]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report.counts).toContainEqual({ model_name: 'organization webhook', imported: 2, mapped: 0, renamed: 0, skipped: 3 });
    expect(report.notes).toEqual(
      expect.arrayContaining([
        'organization webhooks: 2 imported inactive (no secrets in archives: set a secret and activate them)',
        'organization webhook http://token:********@169.254.169.254/latest/meta-data of acme-hooks not imported: deliveries there are refused: 169.254.169.254 is a cloud metadata address',
        'organization webhook ftp://files.acme.example/hook of acme-hooks not imported: url is not a valid http(s) URL of at most 2048 bytes',
        'organization webhook https://ci.acme.example/other of acme-hooks not imported: Invalid event(s): "no_such_event"',
      ]),
    );
    expect(first.stdout).not.toContain('s3cret');
    const hooks = await hooksOf('acme-hooks');
    expect(hooks.map((h) => ({ active: h.active, events: h.events, config: h.config }))).toEqual([
      { active: false, events: ['push'], config: { url: 'https://ci.acme.example/hook', content_type: 'json', insecure_ssl: '0' } },
      {
        active: false,
        events: ['issues', 'repository'],
        config: { url: 'http://build.acme.example:8080/events', content_type: 'form', insecure_ssl: '1' },
      },
    ]);
    const rows = await cli.server.db
      .selectFrom('hooks')
      .select(['secret', 'active'])
      .where(
        'org_id',
        '=',
        (await cli.server.db.selectFrom('users').select('id').where('login', '=', 'acme-hooks').executeTakeFirstOrThrow()).id,
      )
      .execute();
    expect(rows).toEqual([
      { secret: null, active: 0 },
      { secret: null, active: 0 },
    ]);

    // The same archive again onto the organization now there: no hook doubled.
    const again = await cli.local(['--json', 'admin', 'migration', 'import', hooked, '--map', map('map')]);
    expect(again.code).toBe(0);
    const second = JSON.parse(again.stdout);
    expect(second.counts).toContainEqual({ model_name: 'organization webhook', imported: 0, mapped: 0, renamed: 0, skipped: 5 });
    expect(second.notes).toContain('organization webhooks: 0 imported inactive (no secrets in archives: set a secret and activate them)');
    expect((await hooksOf('acme-hooks')).map((h) => h.id)).toEqual(hooks.map((h) => h.id));
  });
});

describe('refused archives: nothing written', { timeout: 60_000 }, () => {
  const cases: [string, () => Promise<string>, RegExp][] = [
    [
      'an entry leaving the archive (../)',
      async () => {
        const dir = path.join(tmp, 'escape', 'inner');
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(tmp, 'escape', 'evil.txt'), 'evil\n');
        fs.writeFileSync(path.join(dir, 'schema.json'), '{"version":"1.0.1"}');
        return pack(dir, path.join(tmp, 'escape.tar.gz'), ['schema.json', '../evil.txt'], true);
      },
      /the entry "\.\.\/evil\.txt" leaves the archive/,
    ],
    [
      'an absolute path',
      async () => {
        const dir = path.join(tmp, 'absolute');
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'schema.json'), '{"version":"1.0.1"}');
        return pack(dir, path.join(tmp, 'absolute.tar.gz'), ['schema.json', path.join(dir, 'schema.json')], true);
      },
      /has an absolute or non-POSIX path/,
    ],
    [
      'a symbolic link',
      () => variant('symlink', (dir) => fs.symlinkSync('/etc/passwd', path.join(dir, 'passwd'))),
      /the entry "passwd" is a symbolic link/,
    ],
    [
      'a truncated gzip stream',
      async () => {
        const bytes = fs.readFileSync(archive);
        const file = path.join(tmp, 'truncated.tar.gz');
        fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
        return file;
      },
      /it is damaged or truncated/,
    ],
    [
      'an unknown schema.json version',
      () => variant('schema2', (dir) => fs.writeFileSync(path.join(dir, 'schema.json'), '{"version":"2.0.0"}')),
      /schema\.json says version "2\.0\.0"; this importer reads versions 1\.x/,
    ],
    [
      'a repository that fails git fsck',
      () =>
        variant('corrupt', (dir) => {
          // A repository this server does not have yet (acme/widgets is skipped: only what is imported is checked).
          const records = path.join(dir, 'repositories_000001.json');
          fs.writeFileSync(records, fs.readFileSync(records, 'utf8').replaceAll('widgets', 'gizmos'));
          const repos = path.join(dir, 'repositories', 'acme');
          fs.renameSync(path.join(repos, 'widgets.git'), path.join(repos, 'gizmos.git'));
          fs.renameSync(path.join(repos, 'widgets.wiki.git'), path.join(repos, 'gizmos.wiki.git'));
          const objects = path.join(repos, 'gizmos.git', 'objects');
          const sub = fs.readdirSync(objects).find((d) => /^[0-9a-f]{2}$/.test(d));
          if (!sub) throw new Error('the test repository has no loose objects to damage');
          const file = path.join(objects, sub, fs.readdirSync(path.join(objects, sub))[0]);
          fs.chmodSync(file, 0o644);
          fs.writeFileSync(file, 'not a git object');
        }),
      /the git data of https:\/\/github\.example\/acme\/gizmos fails git fsck/,
    ],
  ];

  for (const [what, make, reason] of cases) {
    it(`refuses ${what}: API 422 in GitHub's shape, CLI exit 1`, async () => {
      const file = await make();
      const before = await snapshot();
      const res = await fetch(`${cli.server.url}/admin/migrations/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${cli.server.adminToken}`, 'content-type': 'application/gzip' },
        body: fs.readFileSync(file),
      });
      expect(res.status).toBe(422);
      const body = await res.json();
      expect(body.message).toMatch(/^The archive was refused: /);
      expect(body.message).toMatch(reason);
      expect(body).toMatchObject({
        status: '422',
        documentation_url: expect.any(String),
        errors: [{ resource: 'Migration', field: 'archive', code: 'invalid' }],
      });
      const r = await cli.local(['admin', 'migration', 'import', file]);
      expect(r.code).toBe(1);
      expect(JSON.parse(withoutHints(r.stderr)).message).toMatch(reason);
      expect(await snapshot()).toEqual(before);
    });
  }

  it('is not there for anyone but a site admin (404, as the rest of the admin API)', async () => {
    const token = await cli.server.createToken('octo', { scopes: ['repo', 'admin:org'] });
    const res = await fetch(`${cli.server.url}/admin/migrations/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
      body: fs.readFileSync(archive),
    });
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe('Not Found');
  });
});

describe('the size limit (HUBLET_IMPORT_MAX_SIZE)', { timeout: 60_000 }, () => {
  it('refuses an archive larger than the limit (422) whether it comes with a Content-Length or as a stream', async () => {
    const small = await startServer({ config: { importMaxBytes: 4096 } });
    try {
      const headers = { authorization: `Bearer ${small.adminToken}`, 'content-type': 'application/gzip' };
      const url = `${small.url}/admin/migrations/import`;
      const sized = await fetch(url, { method: 'POST', headers, body: fs.readFileSync(archive) });
      const streamed = await fetch(url, {
        method: 'POST',
        headers,
        body: Readable.toWeb(fs.createReadStream(archive)) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      for (const res of [sized, streamed]) {
        expect(res.status).toBe(422);
        expect((await res.json()).message).toMatch(
          /^The archive was refused: it (is larger|unpacks to more) than 4096 bytes \(the import size limit\)$/,
        );
      }
      expect(await small.db.selectFrom('repositories').select('id').execute()).toEqual([]);
      expect(fs.readdirSync(path.join(small.dataDir, 'tmp', 'imports'))).toEqual([]);
    } finally {
      await small.close();
    }
  });
});
