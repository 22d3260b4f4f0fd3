// `hublet admin migration import`: an organization archive and a user archive exported by one hublet server, imported
// into fresh servers in local mode and in remote mode: every repository's refs, its API record, the members and their
// roles come back the same; a second run skips what is there; a dry run lists every record and writes the conflicts CSV.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { type InProcessCliServer, startInProcessCliServer } from '../helpers/cli-inprocess.js';
import type { TestServer } from '../helpers/server.js';
import { comparableRepository, lsRemote, membersWithRoles, ORG_REPOS, startSource, type Source } from './import-support.js';

let source: Source;
let local: InProcessCliServer;
let remote: InProcessCliServer;

beforeAll(async () => {
  source = await startSource();
  local = await startInProcessCliServer();
  remote = await startInProcessCliServer();
}, 120_000);
afterAll(async () => {
  await local?.close();
  await remote?.close();
  await source?.close();
});

const counts = (user: number[], org: number[], membership: number[], repository: number[]) =>
  (
    [
      ['user', user],
      ['organization', org],
      ['membership', membership],
      ['repository', repository],
    ] as const
  ).map(([model_name, [imported, mapped, renamed, skipped]]) => ({ model_name, imported, mapped, renamed, skipped }));

function ok(r: CliResult): any {
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

async function sameAsSource(target: TestServer): Promise<void> {
  const token = await target.createToken('mona', { scopes: ['repo', 'admin:org', 'user'] });
  for (const full of [...ORG_REPOS.map((n) => `octo-org/${n}`), 'mona/mine']) {
    expect(await lsRemote(target, token, full), full).toBe(await lsRemote(source.server, source.mona.token, full));
    expect(await comparableRepository(target, token, full), full).toEqual(
      await comparableRepository(source.server, source.mona.token, full),
    );
  }
  expect(await membersWithRoles(target, token, 'octo-org')).toEqual(['hubot:member', 'mona:admin']);
  expect(await membersWithRoles(target, token, 'octo-org')).toEqual(await membersWithRoles(source.server, source.mona.token, 'octo-org'));
  const hubot = (await target.api('GET', '/users/hubot', { token })).body;
  expect(hubot).toMatchObject({ login: 'hubot', type: 'User' });
}

for (const mode of ['local', 'remote'] as const) {
  describe(`hublet admin migration import (${mode} mode)`, { timeout: 120_000 }, () => {
    const cli = () => (mode === 'local' ? local : remote);
    const run = (args: string[]) => (mode === 'local' ? local.local(args) : remote.remote(remote.server.adminToken, args));

    it('imports the organization archive: users, the organization with its members, every repository', async () => {
      const report = ok(await run(['--json', 'admin', 'migration', 'import', source.orgArchive]));
      expect(report.dry_run).toBe(false);
      expect(report.schema_version).toBe('1.0.1');
      expect(report.counts).toEqual(counts([2, 0, 0, 0], [1, 0, 0, 0], [2, 0, 0, 0], [3, 0, 0, 0]));
      expect(report.not_imported).toEqual([]);
      expect(report.records).toContainEqual({
        model_name: 'repository',
        source_url: `${source.server.url}/octo-org/beta`,
        target_url: `${cli().server.url}/octo-org/beta`,
        recommended_action: 'import',
      });
    });

    it("imports the user archive onto the user the first import made: mona's repository joins her", async () => {
      const report = ok(await run(['--json', 'admin', 'migration', 'import', source.userArchive]));
      expect(report.counts).toEqual(counts([0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]));
    });

    it('gives back every ref, every API record (ids and times apart) and every membership with its role', async () => {
      await sameAsSource(cli().server);
    });
  });
}

describe('importing again (local mode)', { timeout: 120_000 }, () => {
  it('skips every repository that exists and maps every account: nothing changes', async () => {
    const before = await local.server.db.selectFrom('repositories').select(['id', 'name', 'updated_at']).orderBy('id').execute();
    const r = await local.local(['admin', 'migration', 'import', source.orgArchive]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^audit:\nMODEL_NAME\s+IMPORTED\s+MAPPED\s+RENAMED\s+SKIPPED\n/);
    expect(r.stdout).toMatch(/^user\s+0\s+2\s+0\s+0$/m);
    expect(r.stdout).toMatch(/^organization\s+0\s+1\s+0\s+0$/m);
    expect(r.stdout).toMatch(/^membership\s+0\s+2\s+0\s+0$/m);
    expect(r.stdout).toMatch(/^repository\s+0\s+0\s+0\s+3$/m);
    expect(await local.server.db.selectFrom('repositories').select(['id', 'name', 'updated_at']).orderBy('id').execute()).toEqual(before);
    await sameAsSource(local.server);
  });

  it('--dry-run prints every record with its action and --conflicts writes them as CSV', async () => {
    const csv = path.join(local.sandbox.root, 'conflicts.csv');
    const r = await local.local(['admin', 'migration', 'import', source.orgArchive, '--dry-run', '--conflicts', csv]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^ACTION\s+MODEL\s+SOURCE\s+TARGET$/);
    expect(r.stdout).toMatch(
      new RegExp(`^skip\\s+repository\\s+${source.server.url}/octo-org/alpha\\s+${local.server.url}/octo-org/alpha$`, 'm'),
    );
    expect(r.stdout).toContain('would be done (dry run, nothing written):');
    expect(r.stderr).toBe(`wrote 6 records with their actions to ${csv}\n`);
    const s = source.server.url;
    const t = local.server.url;
    expect(fs.readFileSync(csv, 'utf8')).toBe(
      [
        'model_name,source_url,target_url,recommended_action',
        `user,${s}/hubot,${t}/hubot,map`,
        `user,${s}/mona,${t}/mona,map`,
        `organization,${s}/octo-org,${t}/octo-org,map`,
        `repository,${s}/octo-org/alpha,${t}/octo-org/alpha,skip`,
        `repository,${s}/octo-org/beta,${t}/octo-org/beta,skip`,
        `repository,${s}/octo-org/gamma,${t}/octo-org/gamma,skip`,
        '',
      ].join('\n'),
    );
  });
});
