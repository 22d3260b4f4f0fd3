// The pure plan of a migration import (src/migrations/import/plan.ts), against a server held in memory: defaults for
// every record, renames to a free login, skips of what exists, migration map rows and the 422 listing what cannot apply.
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/core/errors.js';
import { makeUrls } from '../../src/core/urls.js';
import type { UserRow } from '../../src/db/schema.js';
import type { RepositoryRow } from '../../src/db/tables/repos.js';
import type { MapRow } from '../../src/migrations/import/csv.js';
import type { ArchiveContents, ArchiveOrganization, ArchiveRepository, ArchiveUser } from '../../src/migrations/import/layout.js';
import { accountKey, planImport, repositoryKey, type ImportPlan, type Lookup } from '../../src/migrations/import/plan.js';
import { repositoryRow, userRow } from '../helpers/rows.js';

const SOURCE = 'https://github.example';
const urls = makeUrls('http://hublet.test');

const archiveUser = (login: string): ArchiveUser => ({
  url: `${SOURCE}/${login}`,
  login,
  name: null,
  company: null,
  website: null,
  location: null,
  email: null,
});
const archiveOrg = (login: string): ArchiveOrganization => ({
  url: `${SOURCE}/${login}`,
  login,
  name: null,
  description: null,
  website: null,
  location: null,
  email: null,
  members: [],
  webhooks: [],
});
const archiveRepo = (owner: string, name: string, topics: string[] = []): ArchiveRepository => ({
  url: `${SOURCE}/${owner}/${name}`,
  owner: `${SOURCE}/${owner}`,
  name,
  description: null,
  homepage: null,
  private: false,
  hasIssues: true,
  hasWiki: true,
  hasDownloads: true,
  archived: false,
  defaultBranch: 'main',
  topics,
  gitDir: null,
  extras: {},
});
const archive = (parts: Partial<ArchiveContents>): ArchiveContents => ({
  version: '1.0.1',
  users: [],
  organizations: [],
  repositories: [],
  unmodeled: {},
  ...parts,
});

/** What the server in memory holds. */
class Server {
  accounts: UserRow[] = [];
  repositories: RepositoryRow[] = [];

  account(login: string, type: UserRow['type'] = 'User'): UserRow {
    const row = userRow(this.accounts.length + 1, login, type);
    this.accounts.push(row);
    return row;
  }

  repository(owner: UserRow, name: string): RepositoryRow {
    const row = repositoryRow(this.repositories.length + 1, owner, name);
    this.repositories.push(row);
    return row;
  }
}

/** Plans as the service does: each pass's lookups answered from `server`, until a pass needs none. */
function settle(contents: ArchiveContents, server: Server, edits: MapRow[] = []): { plan: ImportPlan; asked: Lookup[] } {
  const accounts = new Map<string, UserRow | null>();
  const repositories = new Map<string, RepositoryRow | null>();
  const asked: Lookup[] = [];
  for (let pass = 0; pass < 20; pass++) {
    const outcome = planImport(contents, edits, { accounts, repositories }, urls);
    if ('plan' in outcome) return { plan: outcome.plan, asked };
    for (const l of outcome.missing) {
      asked.push(l);
      if (l.kind === 'account')
        accounts.set(accountKey(l.login), server.accounts.find((a) => a.login_lower === l.login.toLowerCase()) ?? null);
      else
        repositories.set(
          repositoryKey(l.ownerId, l.name),
          server.repositories.find((r) => r.owner_id === l.ownerId && r.name_lower === l.name.toLowerCase()) ?? null,
        );
    }
  }
  throw new Error('the plan did not settle');
}

/** The 422 the plan throws, with its errors' messages. */
function refusal(contents: ArchiveContents, server: Server, edits: MapRow[]): { message: string; errors: string[] } {
  try {
    settle(contents, server, edits);
  } catch (err) {
    if (err instanceof HttpError && err.status === 422)
      return { message: err.message, errors: (err.extra.errors as { message: string }[]).map((e) => e.message) };
    throw err;
  }
  throw new Error('expected a 422');
}

const row = (model_name: MapRow['model_name'], source: string, recommended_action: MapRow['recommended_action'], target = ''): MapRow => ({
  model_name,
  source_url: `${SOURCE}/${source}`,
  target_url: target && `http://hublet.test/${target}`,
  recommended_action,
});
const actions = (plan: ImportPlan) => plan.rows.map((r) => `${r.model_name} ${r.recommended_action} ${r.target_url}`);

describe('planImport without a map', () => {
  it('asks for the accounts the archive names before it judges anything, then for the repositories of accounts it found', () => {
    const server = new Server();
    server.account('mona');
    const contents = archive({ users: [archiveUser('mona')], repositories: [archiveRepo('mona', 'mine')] });
    const first = planImport(contents, [row('user', 'nobody', 'import')], { accounts: new Map(), repositories: new Map() }, urls);
    expect(first).toEqual({ missing: [{ kind: 'account', login: 'mona' }] });
    expect(settle(contents, server).asked).toEqual([
      { kind: 'account', login: 'mona' },
      { kind: 'repository', ownerId: 1, name: 'mine' },
    ]);
  });

  it('imports everything into an empty server under its own names, its repository names and topics as hublet keeps them', () => {
    const contents = archive({
      users: [archiveUser('mona')],
      organizations: [archiveOrg('octo-org')],
      repositories: [archiveRepo('octo-org', 'my tools.git', ['Tools', 'git', 'tools']), archiveRepo('mona', 'mine')],
    });
    const { plan } = settle(contents, new Server());
    expect(actions(plan)).toEqual([
      'user import http://hublet.test/mona',
      'organization import http://hublet.test/octo-org',
      'repository import http://hublet.test/octo-org/my-tools',
      'repository import http://hublet.test/mona/mine',
    ]);
    expect(plan.repositories[0]).toMatchObject({
      name: 'my-tools',
      topics: ['tools', 'git'],
      owner: { login: 'octo-org', action: 'import' },
    });
    expect(plan.account(`${SOURCE}/octo-org/`)).toBe(plan.organizations[0]);
    expect(plan.account('https://elsewhere.example/MONA')).toBe(plan.users[0]);
  });

  it('maps onto an account of the same kind and login, and skips a repository that is already there (a re-run)', () => {
    const server = new Server();
    const mona = server.account('Mona');
    const there = server.repository(mona, 'Mine');
    const { plan } = settle(
      archive({ users: [archiveUser('mona')], repositories: [archiveRepo('mona', 'mine'), archiveRepo('mona', 'new')] }),
      server,
    );
    expect(plan.users[0]).toMatchObject({ action: 'map', login: 'Mona', existing: mona });
    expect(plan.repositories.map((r) => [r.action, r.existing?.id])).toEqual([
      ['skip', there.id],
      ['import', undefined],
    ]);
  });

  it('renames an account whose login another kind holds to the first free <login>-N, one each', () => {
    const server = new Server();
    server.account('acme', 'Organization');
    server.account('acme-1');
    const long = 'l'.repeat(36);
    server.account(`${long}a`, 'Organization');
    server.account(`${long}b`, 'Organization');
    const { plan } = settle(archive({ users: [archiveUser('acme'), archiveUser(`${long}a`), archiveUser(`${long}b`)] }), server);
    expect(plan.users.map((u) => [u.action, u.login])).toEqual([
      ['rename', 'acme-2'],
      ['rename', `${'l'.repeat(35)}-1`],
      ['rename', `${'l'.repeat(35)}-2`],
    ]);
  });

  it('plans one record per login (a login listed as a user and as an organization is the user)', () => {
    const { plan } = settle(archive({ users: [archiveUser('dup')], organizations: [archiveOrg('DUP'), archiveOrg('org')] }), new Server());
    expect(plan.users.map((u) => u.login)).toEqual(['dup']);
    expect(plan.organizations.map((o) => o.login)).toEqual(['org']);
  });

  it('puts a repository whose owner the archive lacks into the account of that login here, or skips it when there is none', () => {
    const server = new Server();
    const hubot = server.account('hubot');
    const { plan } = settle(archive({ repositories: [archiveRepo('hubot', 'a'), archiveRepo('ghost', 'b')] }), server);
    expect(plan.repositories.map((r) => [r.owner.login, r.owner.existing?.id, r.action])).toEqual([
      ['hubot', hubot.id, 'import'],
      ['ghost', undefined, 'skip'],
    ]);
  });
});

describe('planImport with a migration map', () => {
  it('maps a user onto another account, renames an organization and a repository, skips one, as the rows say', () => {
    const server = new Server();
    const octo = server.account('octo');
    const contents = archive({
      users: [archiveUser('octocat')],
      organizations: [archiveOrg('acme')],
      repositories: [archiveRepo('acme', 'widgets'), archiveRepo('acme', 'old')],
    });
    const edits = [
      row('user', 'octocat', 'map', 'octo'),
      row('organization', 'acme', 'rename', 'acme-corp'),
      row('repository', 'acme/widgets', 'rename', 'acme-corp/widgets-old'),
      row('repository', 'acme/old', 'skip'),
    ];
    const { plan } = settle(contents, server, edits);
    expect(plan.users[0]).toMatchObject({ action: 'map', login: 'octo', existing: octo });
    expect(actions(plan)).toEqual([
      'user map http://hublet.test/octo',
      'organization rename http://hublet.test/acme-corp',
      'repository rename http://hublet.test/acme-corp/widgets-old',
      'repository skip http://hublet.test/acme-corp/old',
    ]);
  });

  it('refuses a map that cannot apply with one 422 listing every problem, in the archive’s order', () => {
    const server = new Server();
    const mona = server.account('mona');
    server.account('taken');
    server.repository(mona, 'exists');
    const contents = archive({
      users: [archiveUser('mona'), archiveUser('ghost'), archiveUser('newbie')],
      organizations: [archiveOrg('skipped')],
      repositories: [archiveRepo('mona', 'a'), archiveRepo('mona', 'b'), archiveRepo('mona', 'c'), archiveRepo('skipped', 'd')],
    });
    const edits = [
      row('user', 'ghost', 'map', 'nobody'),
      row('user', 'newbie', 'rename', 'taken'),
      row('organization', 'skipped', 'skip'),
      row('repository', 'mona/a', 'rename', 'mona/exists'),
      row('repository', 'mona/b', 'map', 'mona/missing'),
      row('repository', 'mona/c', 'rename', 'other/c'),
      row('repository', 'skipped/d', 'import'),
      row('repository', 'mona/zzz', 'skip'),
    ];
    expect(refusal(contents, server, edits)).toEqual({
      message: 'The migration map cannot be applied',
      errors: [
        'user ghost: there is no user nobody to map onto',
        'user newbie: taken already exists',
        'repository mona/a: mona/exists already exists',
        'repository mona/b: there is no repository mona/missing to map onto',
        'repository mona/c: its target must be under mona, where its owner goes',
        'repository skipped/d: its owner skipped is skipped or does not exist',
        'the map names a repository the archive does not have',
      ],
    });
  });

  it('refuses two records given one login or one repository name, and a login GitHub would refuse', () => {
    const contents = archive({
      users: [archiveUser('one'), archiveUser('two'), archiveUser('three')],
      repositories: [archiveRepo('one', 'a b'), archiveRepo('one', 'a-b')],
    });
    const edits = [row('user', 'two', 'rename', 'ONE'), row('user', 'three', 'rename', 'api')];
    expect(refusal(contents, new Server(), edits).errors).toEqual([
      'user two: another record of this import is given the login ONE',
      "user three: login 'api' is reserved",
      'repository one/a-b: another record of this import is given the name one/a-b',
    ]);
  });
});
