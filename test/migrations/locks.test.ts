// lock_repositories: pushes are refused while a migration holds the lock, and accepted again once it is unlocked.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { authedUrl, git, repoWithHistory, tempDir, waitForState } from './support.js';

let server: TestServer;
let mona: { token: string };
let tmp: string;

beforeAll(async () => {
  server = await startServer();
  tmp = tempDir();
  mona = await server.userWithToken('mona', ['repo', 'admin:org', 'user']);
  await server.createOrg('octo-org', 'mona');
  await repoWithHistory(server, mona.token, { org: 'octo-org' }, 'alpha');
  await repoWithHistory(server, mona.token, { org: 'octo-org' }, 'beta');
  await repoWithHistory(server, mona.token, {}, 'own');
});
afterAll(async () => {
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Clones, commits one file and pushes; resolves to git's stderr when the push is refused, '' when accepted. */
async function tryPush(fullName: string, file: string): Promise<string> {
  const work = path.join(tmp, `${fullName.replace('/', '-')}-${file}`);
  await git(['clone', '-q', authedUrl(server, mona.token, fullName), work], tmp);
  fs.writeFileSync(path.join(work, file), `${file}\n`);
  await git(['add', '.'], work);
  await git(['commit', '-qm', file], work);
  return git(['push', '-q', 'origin', 'main'], work).then(
    () => '',
    (e: { stderr: string }) => String(e.stderr),
  );
}

describe('DELETE /orgs/{org}/migrations/{migration_id}/repos/{repo_name}/lock', () => {
  it('locks at start: a real push is refused, then accepted after unlocking (204)', async () => {
    const start = await server.api('POST', '/orgs/octo-org/migrations', {
      token: mona.token,
      body: { repositories: ['alpha', 'beta'], lock_repositories: true },
    });
    expect(start.status).toBe(201);
    expect(start.body.lock_repositories).toBe(true);
    const id = start.body.id;
    // Locked from the moment the migration is started, before the export ran.
    expect(await tryPush('octo-org/alpha', 'early.txt')).toContain('Repository is locked for migration');
    const m = await waitForState(server, `/orgs/octo-org/migrations/${id}`, mona.token);
    expect(m.state).toBe('exported');
    expect(await tryPush('octo-org/alpha', 'refused.txt')).toContain('Repository is locked for migration');

    const unlock = await server.api('DELETE', `/orgs/octo-org/migrations/${id}/repos/alpha/lock`, { token: mona.token });
    expect(unlock.status).toBe(204);
    checkSchema(unlock, 'DELETE /orgs/{org}/migrations/{migration_id}/repos/{repo_name}/lock');
    expect(await tryPush('octo-org/alpha', 'accepted.txt')).toBe('');
    // Beta is still locked; alpha's lock is gone, so a second unlock is 404.
    expect(await tryPush('octo-org/beta', 'still-refused.txt')).toContain('Repository is locked for migration');
    expect((await server.api('DELETE', `/orgs/octo-org/migrations/${id}/repos/alpha/lock`, { token: mona.token })).status).toBe(404);
    expect(
      (await server.octokit(mona.token).rest.migrations.unlockRepoForOrg({ org: 'octo-org', migration_id: id, repo_name: 'BETA' })).status,
    ).toBe(204);
    expect(await tryPush('octo-org/beta', 'now-accepted.txt')).toBe('');
  });

  it('refuses to lock a repository another migration holds (422), and locks nothing then', async () => {
    const first = await server.api('POST', '/orgs/octo-org/migrations', {
      token: mona.token,
      body: { repositories: ['alpha'], lock_repositories: true },
    });
    expect(first.status).toBe(201);
    const second = await server.api('POST', '/orgs/octo-org/migrations', {
      token: mona.token,
      body: { repositories: ['beta', 'alpha'], lock_repositories: true },
    });
    expect(second.status).toBe(422);
    expect(second.body.message).toMatch(/already locked/);
    expect(await tryPush('octo-org/beta', 'not-locked.txt')).toBe('');
    // Without lock_repositories the same repository may be exported again.
    expect((await server.api('POST', '/orgs/octo-org/migrations', { token: mona.token, body: { repositories: ['alpha'] } })).status).toBe(
      201,
    );
    // Unlocking through a migration that does not hold the lock is 404.
    const later = (await server.api('GET', '/orgs/octo-org/migrations', { token: mona.token })).body[0].id;
    expect((await server.api('DELETE', `/orgs/octo-org/migrations/${later}/repos/alpha/lock`, { token: mona.token })).status).toBe(404);
    expect((await server.api('DELETE', `/orgs/octo-org/migrations/${first.body.id}/repos/alpha/lock`, { token: mona.token })).status).toBe(
      204,
    );
    await server.app.hublet.jobs.idle();
  });

  it('locks and unlocks user repositories the same way', async () => {
    const start = await server
      .octokit(mona.token)
      .rest.migrations.startForAuthenticatedUser({ repositories: ['own'], lock_repositories: true });
    expect(start.status).toBe(201);
    expect(await tryPush('mona/own', 'refused.txt')).toContain('Repository is locked for migration');
    const unlock = await server
      .octokit(mona.token)
      .rest.migrations.unlockRepoForAuthenticatedUser({ migration_id: start.data.id, repo_name: 'own' });
    expect(unlock.status).toBe(204);
    expect(await tryPush('mona/own', 'accepted.txt')).toBe('');
    await server.app.hublet.jobs.idle();
  });
});
