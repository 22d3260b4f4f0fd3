// Shared by the import tests: a source server holding an organization (an owner and a member, public, private and
// archived repositories with branches, tags and topics) and a user's repository, exported to archives on disk; and
// how a repository and a membership are compared between two servers.
import fs from 'node:fs';
import path from 'node:path';
import { startServer, type TestServer } from '../helpers/server.js';
import { authedUrl, downloadArchive, git, repoWithHistory, tempDir, waitForState } from './support.js';

export interface Source {
  server: TestServer;
  mona: { token: string };
  tmp: string;
  /** The organization export of octo-org (alpha, beta private, gamma archived). */
  orgArchive: string;
  /** mona's user export (her repository `mine`). */
  userArchive: string;
  close(): Promise<void>;
}

export const ORG_REPOS = ['alpha', 'beta', 'gamma'];

async function exportTo(server: TestServer, token: string, base: string, repositories: string[], dest: string): Promise<void> {
  const started = await server.api('POST', base, { token, body: { repositories } });
  if (started.status !== 201) throw new Error(`start ${base}: ${started.status} ${started.text}`);
  const m = await waitForState(server, `${base}/${started.body.id}`, token);
  if (m.state !== 'exported') throw new Error(`export ${base}: ${m.state} ${m.failure_reason}`);
  await downloadArchive(server, `${base}/${m.id}/archive`, token, dest);
}

/** The source server with its two archives exported. */
export async function startSource(): Promise<Source> {
  const server = await startServer();
  const tmp = tempDir('hublet-import-');
  const close = async () => {
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    const mona = await server.userWithToken('mona', ['repo', 'admin:org', 'user']);
    await server.createUser('hubot', { email: 'hubot@example.com' });
    await server.createOrg('octo-org', 'mona');
    await server.addMember('octo-org', 'hubot');
    await repoWithHistory(server, mona.token, { org: 'octo-org' }, 'alpha');
    await repoWithHistory(server, mona.token, { org: 'octo-org' }, 'beta', { private: true, description: 'the private one' });
    await repoWithHistory(server, mona.token, { org: 'octo-org' }, 'gamma');
    await repoWithHistory(server, mona.token, {}, 'mine');
    const patch = async (full: string, body: unknown) => {
      const r = await server.api('PATCH', `/repos/${full}`, { token: mona.token, body });
      if (r.status !== 200) throw new Error(`PATCH ${full}: ${r.status} ${r.text}`);
    };
    await patch('octo-org/alpha', { homepage: 'https://alpha.example.com', has_wiki: false, default_branch: 'feature' });
    await patch('octo-org/gamma', { archived: true, has_issues: false });
    for (const [full, names] of [
      ['octo-org/alpha', ['tools', 'git']],
      ['mona/mine', ['dotfiles']],
    ] as const) {
      const r = await server.api('PUT', `/repos/${full}/topics`, { token: mona.token, body: { names } });
      if (r.status !== 200) throw new Error(`topics ${full}: ${r.status} ${r.text}`);
    }
    const orgArchive = path.join(tmp, 'octo-org.tar.gz');
    const userArchive = path.join(tmp, 'mona.tar.gz');
    await exportTo(server, mona.token, '/orgs/octo-org/migrations', ORG_REPOS, orgArchive);
    await exportTo(server, mona.token, '/user/migrations', ['mine'], userArchive);
    return { server, mona, tmp, orgArchive, userArchive, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** `git ls-remote` of a repository: every ref and its object, HEAD included. */
export async function lsRemote(server: TestServer, token: string, fullName: string): Promise<string> {
  return git(['ls-remote', authedUrl(server, token, fullName)], process.cwd());
}

/** A repository as the API shows it, apart from what a server assigns (ids, node ids, times, its own URLs, disk size). */
export async function comparableRepository(server: TestServer, token: string, fullName: string): Promise<Record<string, unknown>> {
  const r = await server.api('GET', `/repos/${fullName}`, { token });
  if (r.status !== 200) throw new Error(`GET /repos/${fullName}: ${r.status} ${r.text}`);
  const assigned =
    /(^|_)(id|url|at)$|^size$|^node_id$|^permissions$|^owner$|^organization$|^network_count$|^subscribers_count$|^temp_clone_token$/;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r.body as Record<string, unknown>)) if (!assigned.test(k)) out[k] = v;
  out.owner = (r.body as { owner: { login: string; type: string } }).owner.login;
  return out;
}

/** An organization's members with their roles, sorted: `login:role`. */
export async function membersWithRoles(server: TestServer, token: string, org: string): Promise<string[]> {
  const out: string[] = [];
  for (const role of ['admin', 'member']) {
    const r = await server.api('GET', `/orgs/${org}/members?role=${role}&per_page=100`, { token });
    if (r.status !== 200) throw new Error(`members of ${org}: ${r.status} ${r.text}`);
    for (const m of r.body as { login: string }[]) out.push(`${m.login}:${role}`);
  }
  return out.sort();
}

/** A bare repository at `dir` with two commits on main, a `topic` branch, a tag `v1` and a `refs/pull/1/head`, its objects loose. */
async function bareRepository(dir: string): Promise<void> {
  const work = tempDir('hublet-work-');
  try {
    await git(['init', '-q', '-b', 'main'], work);
    fs.writeFileSync(path.join(work, 'README.md'), '# widgets\n');
    await git(['add', '.'], work);
    await git(['commit', '-qm', 'first'], work);
    fs.writeFileSync(path.join(work, 'widget.c'), 'int main(void) { return 0; }\n');
    await git(['add', '.'], work);
    await git(['commit', '-qm', 'second'], work);
    await git(['tag', 'v1'], work);
    await git(['branch', 'topic', 'HEAD~1'], work);
    fs.mkdirSync(dir, { recursive: true });
    await git(['init', '-q', '--bare', '-b', 'main', dir], work);
    await git(['--git-dir', dir, 'fetch', '-q', work, 'refs/heads/*:refs/heads/*', 'refs/tags/*:refs/tags/*'], work);
    // A pull request's ref, as GitHub's archives carry them (hublet keeps branches and tags only).
    await git(['--git-dir', dir, 'update-ref', 'refs/pull/1/head', 'refs/heads/topic'], work);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Writes `records` as `<kind>_000001.json` in `dir`. */
function writeRecords(dir: string, kind: string, records: unknown[]): void {
  fs.writeFileSync(path.join(dir, `${kind}_000001.json`), JSON.stringify(records, null, 2));
}

/**
 * An archive laid out as GitHub's own exports are, from `https://github.example`: users octocat and hubot, the
 * organization acme (octocat an owner, hubot a member, one webhook), its repository widgets with git data, labels and
 * a topic, and records hublet does not model (issues, pull requests, releases, teams, a wiki). Returns its directory.
 */
export async function githubStyleArchiveDir(root: string): Promise<string> {
  const dir = path.join(root, 'github-style');
  fs.mkdirSync(dir, { recursive: true });
  const gh = (p: string) => `https://github.example${p}`;
  fs.writeFileSync(path.join(dir, 'schema.json'), JSON.stringify({ version: '1.2.0' }));
  fs.writeFileSync(path.join(dir, 'urls.json'), JSON.stringify({ user: '{scheme}://{host}/{user}' }));
  writeRecords(dir, 'users', [
    {
      type: 'user',
      url: gh('/octocat'),
      login: 'octocat',
      name: 'The Octocat',
      company: 'GitHub',
      website: null,
      location: 'SF',
      emails: [{ address: 'octocat@github.example', primary: true }],
      created_at: '2011-01-25T18:44:36.000+00:00',
    },
    {
      type: 'user',
      url: gh('/hubot'),
      login: 'hubot',
      name: null,
      company: null,
      website: null,
      location: null,
      emails: [],
      created_at: '2012-01-25T18:44:36.000+00:00',
    },
  ]);
  writeRecords(dir, 'organizations', [
    {
      type: 'organization',
      url: gh('/acme'),
      login: 'acme',
      name: 'Acme',
      description: 'Widgets since 1949',
      website: 'https://acme.example',
      location: null,
      email: null,
      members: [
        { user: gh('/octocat'), role: 'admin', state: 'active' },
        { user: gh('/hubot'), role: 'direct_member', state: 'active' },
      ],
      webhooks: [{ payload_url: 'https://ci.acme.example/hook', content_type: 'json', event_types: ['push'], active: true }],
      created_at: '2013-01-25T18:44:36.000+00:00',
    },
  ]);
  writeRecords(dir, 'repositories', [
    {
      type: 'repository',
      url: gh('/acme/widgets'),
      owner: gh('/acme'),
      name: 'widgets',
      description: 'All the widgets',
      website: null,
      private: true,
      has_issues: true,
      has_wiki: true,
      has_downloads: true,
      labels: [{ name: 'bug' }, { name: 'enhancement' }],
      collaborators: [],
      webhooks: [],
      repository_topics: [{ name: 'widgets' }],
      created_at: '2014-01-25T18:44:36.000+00:00',
      git_url: 'tarball://root/repositories/acme/widgets.git',
      wiki_url: 'tarball://root/repositories/acme/widgets.wiki.git',
      default_branch: 'main',
    },
  ]);
  writeRecords(dir, 'issues', [{ title: 'one' }, { title: 'two' }]);
  writeRecords(dir, 'pull_requests', [{ title: 'a change' }]);
  writeRecords(dir, 'releases', [{ tag_name: 'v1' }]);
  writeRecords(dir, 'teams', [{ name: 'admins' }]);
  await bareRepository(path.join(dir, 'repositories', 'acme', 'widgets.git'));
  await git(['init', '-q', '--bare', path.join(dir, 'repositories', 'acme', 'widgets.wiki.git')], root);
  return dir;
}
