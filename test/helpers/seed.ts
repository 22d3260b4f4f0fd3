// Real resources for the hostile-input and fuzz tests: a user with a token, a gist with a comment, an org with a hook, repositories, migrations.
import type { TestServer } from './server.js';

export interface Seeded {
  user: { login: string; id: number; token: string };
  org: string;
  repo: string;
  gistId: string;
  /** The gist's only revision. */
  gistVersion: string;
  repoId: number;
  commentId: number;
  hookId: number;
  orgMigrationId: number;
  userMigrationId: number;
}

async function created(s: TestServer, method: string, path: string, token: string, body: unknown): Promise<any> {
  const r = await s.api(method, path, { token, body });
  if (r.status !== 201 && r.status !== 202) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.body;
}

/** One of everything a route can name; the hook points at a closed port on loopback (its deliveries fail, harmlessly). */
export async function seed(s: TestServer): Promise<Seeded> {
  const user = await s.userWithToken('mona', ['gist', 'repo', 'admin:org', 'admin:org_hook', 'user', 'delete_repo']);
  const org = 'octo-org';
  await s.createOrg(org, user.login);
  const repo = 'hello';
  const userRepo = await created(s, 'POST', '/user/repos', user.token, { name: repo, auto_init: true });
  await created(s, 'POST', `/orgs/${org}/repos`, user.token, { name: repo, auto_init: true });
  const gist = await created(s, 'POST', '/gists', user.token, { public: true, files: { 'a.txt': { content: 'hello' } } });
  const comment = await created(s, 'POST', `/gists/${gist.id}/comments`, user.token, { body: 'nice' });
  const hook = await created(s, 'POST', `/orgs/${org}/hooks`, user.token, { name: 'web', config: { url: 'http://127.0.0.1:9/hook' } });
  const orgMigration = await created(s, 'POST', `/orgs/${org}/migrations`, user.token, { repositories: [repo] });
  const userMigration = await created(s, 'POST', '/user/migrations', user.token, { repositories: [repo] });
  return {
    user,
    org,
    repo,
    gistId: gist.id,
    gistVersion: gist.history[0].version,
    repoId: userRepo.id,
    commentId: comment.id,
    hookId: hook.id,
    orgMigrationId: orgMigration.id,
    userMigrationId: userMigration.id,
  };
}
