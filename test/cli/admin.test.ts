// The `admin` commands' run functions against a stubbed client and a fake I/O (no server): users, tokens,
// organizations, repository and migration imports as the admin API receives them; `admin fsck` (which reads a data dir
// itself, not through the API) over a data dir `init` made in a temporary directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runFsck } from '../../src/cli/commands/admin/fsck.js';
import { runMigrationImport } from '../../src/cli/commands/admin/migration-import.js';
import { runOrgAddMember } from '../../src/cli/commands/admin/org-add-member.js';
import { runOrgCreate } from '../../src/cli/commands/admin/org-create.js';
import { runRepoImport } from '../../src/cli/commands/admin/repo-import.js';
import { runTokenCreate } from '../../src/cli/commands/admin/token-create.js';
import { runTokenRevoke } from '../../src/cli/commands/admin/token-revoke.js';
import { runUserCreate } from '../../src/cli/commands/admin/user-create.js';
import { runUserDelete } from '../../src/cli/commands/admin/user-delete.js';
import { runSetPassword } from '../../src/cli/commands/admin/user-set-password.js';
import { runInit } from '../../src/cli/commands/init/init.js';
import { readAll } from '../../src/cli/io.js';
import { IMPORT_MAP_HEADER } from '../../src/migrations/import/csv.js';
import { fakeIO } from '../helpers/cli-inprocess.js';
import { repoBody } from './bodies.js';
import { stubClient, type Sent } from './stub-client.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-cli-admin-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('admin user, token, org', () => {
  it('user create and delete', async () => {
    const client = stubClient({
      'POST /admin/users': { status: 201, body: { login: 'alice', site_admin: true } },
      'DELETE /admin/users/alice': { status: 204 },
    });
    const fake = fakeIO();
    await runUserCreate({ client, json: false, login: 'alice', siteAdmin: true, email: 'alice@example.com' }, fake.io);
    await runUserDelete({ client, login: 'alice' }, fake.io);
    expect(client.sent[0].body).toEqual({ login: 'alice', email: 'alice@example.com', site_admin: true });
    expect(fake.stdout()).toBe('created user alice\ndeleted user alice\n');
  });

  it('user set-password sends the password to PUT /admin/users/{login}/password and never prints it', async () => {
    const client = stubClient({ 'PUT /admin/users/al%20ice/password': { status: 204 } });
    const fake = fakeIO();
    await runSetPassword({ client, login: 'al ice', password: 'correct horse battery staple' }, fake.io);
    expect(client.sent.map((r) => [r.method, r.path, r.body])).toEqual([
      ['PUT', '/admin/users/al%20ice/password', { password: 'correct horse battery staple' }],
    ]);
    expect(fake.stdout()).toBe('set the password of al ice\n');
  });

  it('token create prints the token alone (the record with --json), sending the kind as the API spells it; revoke revokes all', async () => {
    const record = { token: 'hlp_abc', scopes: [] };
    const client = stubClient({
      'POST /admin/users/alice/authorizations': { status: 201, body: record },
      'DELETE /admin/users/alice/authorizations': { status: 204 },
    });
    const fake = fakeIO();
    await runTokenCreate(
      {
        client,
        json: false,
        login: 'alice',
        kind: 'fine-grained',
        permissions: { gists: 'write' },
        expires: '2030-01-01T00:00:00Z',
        note: 'laptop',
      },
      fake.io,
    );
    expect(client.sent[0].body).toEqual({
      scopes: undefined,
      kind: 'fine_grained',
      permissions: { gists: 'write' },
      app_id: undefined,
      expires_at: '2030-01-01T00:00:00Z',
      note: 'laptop',
    });
    await runTokenCreate({ client, json: false, login: 'alice', kind: 'classic', scopes: ['gist'], expires: '30d' }, fake.io);
    expect((client.sent[1].body as { expires_at: string }).expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    await runTokenRevoke({ client, login: 'alice' }, fake.io);
    expect(fake.stdout()).toBe('hlp_abc\nhlp_abc\nrevoked every token of alice\n');
  });

  it('org create and add-member', async () => {
    const client = stubClient({
      'POST /admin/organizations': { status: 201, body: { login: 'acme' } },
      'PUT /orgs/acme/memberships/bob': { body: { role: 'admin', state: 'active' } },
    });
    const fake = fakeIO();
    await runOrgCreate({ client, json: false, org: 'acme', owner: 'alice', name: 'Acme, Inc.' }, fake.io);
    await runOrgAddMember({ client, json: false, org: 'acme', login: 'bob', role: 'admin' }, fake.io);
    expect(client.sent.map((s) => s.body)).toEqual([{ login: 'acme', admin: 'alice', profile_name: 'Acme, Inc.' }, { role: 'admin' }]);
    expect(fake.stdout()).toBe('created organization acme owned by alice\nbob is now an owner of acme\n');
  });
});

describe('admin repo import, migration import', () => {
  it('repo import sends the path as the server sees it, the owner being you for NAME alone', async () => {
    const client = stubClient(
      {
        'GET /user': { body: { login: 'admin' } },
        'POST /admin/repos/import': { status: 201, body: repoBody('admin/dotfiles', { private: true, visibility: 'private' }) },
      },
      { serverPath: (p) => `/srv${p}` },
    );
    const fake = fakeIO();
    await runRepoImport({ client, json: false, spec: { name: 'dotfiles' }, from: '/git/dotfiles.git', private: true }, fake.io);
    expect(client.sent[1].body).toEqual({
      owner: 'admin',
      name: 'dotfiles',
      path: '/srv/git/dotfiles.git',
      private: true,
      description: undefined,
    });
    expect(fake.stdout().split('\n').slice(0, 2)).toEqual([
      'imported /srv/git/dotfiles.git as admin/dotfiles',
      'name:           admin/dotfiles',
    ]);
  });

  it('migration import streams the archive from stdin with the map, prints the dry run and writes the conflicts', async () => {
    const report = {
      dry_run: true,
      schema_version: '1.0.1',
      records: [
        {
          model_name: 'repository',
          source_url: 'https://github.com/acme/tools',
          target_url: 'http://hublet.test/acme/tools',
          recommended_action: 'import',
        },
      ],
      counts: [{ model_name: 'repository', imported: 1, mapped: 0, renamed: 0, skipped: 0 }],
      not_imported: [{ model_name: 'issue', count: 3 }],
      notes: ['a note'],
    };
    let uploaded = '';
    const client = stubClient({
      'POST /admin/migrations/import?dry_run=true': async (req: Sent) => {
        uploaded = (await readAll(req.upload!)).toString();
        return { body: report };
      },
    });
    const fake = fakeIO({ stdin: 'archive bytes' });
    const conflicts = path.join(tmp, 'conflicts.csv');
    await runMigrationImport({ client, json: false, archive: '-', dryRun: true, conflicts, map: report.records as never }, fake.io);
    expect(uploaded).toBe('archive bytes');
    const headers = client.sent[0].headers!;
    expect(headers['content-type']).toBe('application/gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(headers[IMPORT_MAP_HEADER], 'base64url')).toString())).toEqual(report.records);
    expect(fake.stdout()).toBe(
      [
        'ACTION  MODEL       SOURCE                         TARGET',
        'import  repository  https://github.com/acme/tools  http://hublet.test/acme/tools',
        '',
        'would be done (dry run, nothing written):',
        'MODEL_NAME  IMPORTED  MAPPED  RENAMED  SKIPPED',
        'repository  1         0       0        0',
        '',
        'skipped, not modelled by hublet:',
        'MODEL_NAME  COUNT',
        'issue       3',
        'note: a note',
        '',
      ].join('\n'),
    );
    expect(fs.readFileSync(conflicts, 'utf8')).toBe(
      'model_name,source_url,target_url,recommended_action\nrepository,https://github.com/acme/tools,http://hublet.test/acme/tools,import\n',
    );
    expect(fake.stderr()).toBe(`wrote 1 records with their actions to ${conflicts}\n`);
  });

  it('migration import of an archive that cannot be read is a usage error before anything is sent', async () => {
    const client = stubClient({});
    await expect(
      runMigrationImport({ client, json: false, archive: path.join(tmp, 'missing.tar.gz'), dryRun: false }, fakeIO().io),
    ).rejects.toMatchObject({ code: 2 });
    expect(client.sent).toEqual([]);
  });
});

describe('admin fsck', () => {
  it('checks a data dir init made: nothing in it, no problems', async () => {
    const data = path.join(tmp, 'data');
    await runInit({ data, json: true, env: {} }, fakeIO().io);
    const fake = fakeIO();
    await runFsck({ data, gitFsck: true, json: false, env: {} }, fake.io);
    expect(fake.stdout()).toBe('checked 0 gists and 0 repositories: no problems\n');
  });
});
