// The `migration` commands' run functions against a stubbed client and a fake I/O (no server, no data dir): user and
// organization migrations, the hints for a migration asked for in the wrong scope, and what a download refuses.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDeleteArchive } from '../../src/cli/commands/migration/delete-archive.js';
import { runDownload } from '../../src/cli/commands/migration/download.js';
import { runList } from '../../src/cli/commands/migration/list.js';
import { runRepos } from '../../src/cli/commands/migration/repos.js';
import { runStart } from '../../src/cli/commands/migration/start.js';
import { runStatus } from '../../src/cli/commands/migration/status.js';
import { runUnlock } from '../../src/cli/commands/migration/unlock.js';
import { fakeIO } from '../helpers/cli-inprocess.js';
import { BASE, migrationBody } from './bodies.js';
import { stubClient } from './stub-client.js';

const notFound = { status: 404, body: { message: 'Not Found' } };
const mine = migrationBody({
  id: 8,
  state: 'pending',
  owner: { login: 'alice', type: 'User' },
  repositories: [{ full_name: 'alice/dotfiles' }],
  url: `${BASE}/user/migrations/8`,
});

describe('migration start', () => {
  it('starts a user migration with every flag in the body; locally it says how to run the export now', async () => {
    const client = stubClient({ 'POST /user/migrations': { status: 201, body: mine } }, { mode: 'local' });
    const fake = fakeIO();
    await runStart({ client, json: false, repos: ['dotfiles'], lock: true }, fake.io);
    expect(client.sent[0].body).toEqual({
      repositories: ['dotfiles'],
      lock_repositories: true,
      exclude_metadata: false,
      exclude_git_data: false,
      exclude_attachments: false,
      exclude_releases: false,
      exclude_owner_projects: false,
      org_metadata_only: false,
    });
    expect(fake.stdout()).toBe(
      'started migration 8 (pending) of alice: alice/dotfiles\n  it exports when a server runs on this data dir, or now with: hublet migration status 8 --wait\n',
    );
  });

  it("a 422 for another owner's repositories without --org hints at --org OWNER", async () => {
    const client = stubClient({ 'POST /user/migrations': { status: 422, body: { message: 'Validation Failed' } } });
    const err = await runStart({ client, json: false, repos: ['acme/tools'] }, fakeIO().io).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.message.split('\n').at(-1)).toBe(
      "hublet: without --org this is a migration of your own repositories; for acme's add --org acme",
    );
  });

  it('--org starts an organization migration', async () => {
    const client = stubClient({ 'POST /orgs/acme/migrations': { status: 201, body: migrationBody({ state: 'pending' }) } });
    const fake = fakeIO();
    await runStart({ client, json: true, repos: ['tools'], org: 'acme' }, fake.io);
    expect(JSON.parse(fake.stdout())).toMatchObject({ id: 7, state: 'pending' });
  });
});

describe('migration list, status, repos', () => {
  it('list follows Link rel="next" through every page', async () => {
    const client = stubClient({
      'GET /orgs/acme/migrations?per_page=100': {
        body: [migrationBody()],
        headers: { link: `<${BASE}/orgs/acme/migrations?per_page=100&page=2>; rel="next"` },
      },
      'GET /orgs/acme/migrations?per_page=100&page=2': { body: [migrationBody({ id: 6, state: 'failed', repositories: [] })] },
    });
    const fake = fakeIO();
    await runList({ client, json: false, org: 'acme' }, fake.io);
    expect(fake.stdout().split('\n')).toEqual([
      'ID  STATE     REPOSITORIES  CREATED',
      '7   exported  acme/tools    2026-01-02T03:04:05Z',
      '6   failed                  2026-01-02T03:04:05Z',
      '',
    ]);
  });

  it('status describes the migration; a failed one exits 1 with its reason', async () => {
    const client = stubClient({
      'GET /orgs/acme/migrations/7': { body: migrationBody({ archive_url: `${BASE}/orgs/acme/migrations/7/archive` }) },
      'GET /orgs/acme/migrations/6': { body: migrationBody({ id: 6, state: 'failed', failure_reason: 'disk full' }) },
    });
    const fake = fakeIO();
    await runStatus({ client, json: false, org: 'acme', id: '7' }, fake.io);
    expect(fake.stdout()).toBe(
      'migration 7 (acme): exported\n  guid: 0b989ba4-242f-11e5-81e1-c7b6966d2516\n  repositories: acme/tools\n  archive: ready (hublet migration download 7 --org acme)\n  created: 2026-01-02T03:04:05Z\n  updated: 2026-01-02T03:04:06Z\n',
    );
    await expect(runStatus({ client, json: false, org: 'acme', id: '6' }, fakeIO().io)).rejects.toMatchObject({
      code: 1,
      message: 'hublet: migration 6 failed: disk full',
    });
  });

  it('status of a migration not found for your user hints at --org', async () => {
    const client = stubClient({ 'GET /user/migrations/7': notFound });
    const err = await runStatus({ client, json: false, id: '7' }, fakeIO().io).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.message.split('\n').at(-1)).toBe(
      "hublet: migration 7 not found for your user; for an organization's migration add --org ORG",
    );
  });

  it('repos lists the repositories as a table', async () => {
    const client = stubClient({
      'GET /user/migrations/8/repositories?per_page=100': {
        body: [{ full_name: 'alice/dotfiles', private: true, default_branch: 'main' }],
      },
    });
    const fake = fakeIO();
    await runRepos({ client, json: false, id: '8' }, fake.io);
    expect(fake.stdout()).toBe('REPOSITORY      VISIBILITY  DEFAULT_BRANCH\nalice/dotfiles  private     main\n');
  });
});

describe('migration delete-archive, unlock', () => {
  it('delete-archive deletes it; a 404 of a migration that exists gets no scope hint', async () => {
    const client = stubClient({
      'DELETE /user/migrations/8/archive': [{ status: 204 }, notFound],
      'GET /user/migrations/8?exclude=repositories': { body: mine },
    });
    const fake = fakeIO();
    await runDeleteArchive({ client, json: false, id: '8' }, fake.io);
    expect(fake.stdout()).toBe('deleted the archive of migration 8\n');
    const err = await runDeleteArchive({ client, json: false, id: '8' }, fakeIO().io).catch((e) => e);
    expect(err).toMatchObject({ code: 1 });
    expect(err.message).not.toContain('--org');
  });

  it('unlock refuses OWNER/NAME of another owner before unlocking anything (exit 2); NAME alone unlocks', async () => {
    const client = stubClient({
      'GET /orgs/acme/migrations/7?exclude=repositories': { body: migrationBody() },
      'DELETE /orgs/acme/migrations/7/repos/tools/lock': { status: 204 },
    });
    await expect(
      runUnlock({ client, json: false, org: 'acme', id: '7', repo: { owner: 'octo', name: 'tools' } }, fakeIO().io),
    ).rejects.toMatchObject({
      code: 2,
      message: "hublet: migration 7 is acme's: its repositories are acme/NAME, not octo/tools",
    });
    expect(client.calls()).toEqual(['GET /orgs/acme/migrations/7?exclude=repositories']);
    const fake = fakeIO();
    await runUnlock({ client, json: true, org: 'acme', id: '7', repo: { name: 'tools' } }, fake.io);
    expect(JSON.parse(fake.stdout())).toEqual({ id: 7, repository: 'tools', locked: false });
  });
});

describe('migration download', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-cli-download-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const out = () => path.join(fs.mkdtempSync(path.join(tmp, 'out-')), 'archive.tar.gz');

  it('refuses a migration still exporting, saying how to wait, and writes nothing', async () => {
    const client = stubClient({ 'GET /orgs/acme/migrations/7?exclude=repositories': { body: migrationBody({ state: 'exporting' }) } });
    const file = out();
    await expect(runDownload({ client, json: false, org: 'acme', id: '7', out: file, clobber: false }, fakeIO().io)).rejects.toMatchObject({
      code: 1,
      message: 'hublet: migration 7 is exporting: its archive is not ready yet; wait with: hublet migration status 7 --org acme --wait',
    });
    expect(fs.readdirSync(path.dirname(file))).toEqual([]);
  });

  it('says the archive is gone when the archive route answers 404', async () => {
    const client = stubClient({
      'GET /user/migrations/8?exclude=repositories': { body: { ...mine, state: 'exported' } },
      'GET /user/migrations/8/archive': notFound,
    });
    const err = await runDownload({ client, json: false, id: '8', out: out(), clobber: false }, fakeIO().io).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.message.split('\n').at(-1)).toBe('hublet: migration 8 has no archive to download now (deleted, or past its lifetime)');
  });
});
