// PyGithub, unchanged (Debian's python3-github, run by /usr/bin/python3), configured as GitHub Enterprise's docs say:
// Github(base_url="http://HOST/api/v3", login_or_token=TOKEN). It refuses to follow any URL outside that base, so every
// link hublet hands back (gist and hook URLs, Link pages, the migration's URL) must keep the /api/v3 prefix. The python
// scripts beside this file print JSON; here we assert on it and on what the server holds afterwards.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { PYTHON, requirePyGithub, run, succeeded } from './tools.js';

const SCRIPTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pygithub');

let server: TestServer;
let receiver: Receiver;
let api: string;
/** Why PyGithub cannot run here (set in beforeAll): every test then fails with it, none is skipped. */
let missing: string | undefined;

/** Runs one script with `python3 -I` (no PYTHON* settings, no user site, no script dir on sys.path) and parses its JSON. */
async function python(script: string, env: Record<string, string>): Promise<any> {
  if (missing) throw new Error(missing);
  const r = await run(PYTHON, ['-I', path.join(SCRIPTS, script)], {
    env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: server.dataDir, HUBLET_API: api, ...env },
    timeoutMs: 60_000,
  });
  return JSON.parse(succeeded(`python3 ${script}`, r));
}

beforeAll(async () => {
  try {
    requirePyGithub();
  } catch (err) {
    missing = (err as Error).message;
  }
  [server, receiver] = await Promise.all([startServer(), startReceiver()]);
  api = `${server.url}/api/v3`;
});
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

describe('PyGithub', () => {
  it('gists: create, edit, history, fork, star and unstar, comments, page 2 of a list, delete (token scope: gist)', async () => {
    const alice = await server.userWithToken('alice', ['gist']);
    const bob = await server.userWithToken('bob', ['gist']);
    const out = await python('gists.py', { OWNER_TOKEN: alice.token, OTHER_TOKEN: bob.token });

    expect(out.created).toMatchObject({ files: ['hello.py', 'notes.md'], public: true });
    expect(out.created.url).toBe(`${api}/gists/${out.created.id}`);
    expect(out.edited).toEqual({ description: 'second version', files: ['extra.txt', 'hello.py'], hello: "print('hello, again')\n" });
    expect(out.history).toHaveLength(2);
    expect(out.history.map((h: any) => [h.additions, h.deletions])).toEqual([
      [2, 2],
      [2, 0],
    ]);
    expect(out.fork).toMatchObject({ owner: 'bob', files: ['extra.txt', 'hello.py'] });
    expect(out.forks_of_original).toEqual([out.fork.id]);
    expect(out.star).toEqual({ after_set: true, after_reset: false });
    expect(out.comments).toEqual([
      { user: 'alice', body: 'first!' },
      { user: 'bob', body: 'nice gist' },
    ]);
    // per_page=2 over three gists: page 2 by number and the whole list through the Link header.
    expect(out.list.page0).toEqual(['public two', 'secret one']);
    expect(out.list.page1).toEqual(['second version']);
    expect(out.list.all).toEqual(['public two', 'secret one', 'second version']);
    expect(out.after_delete).toBe(404);

    // What the server holds: the original is gone, bob's fork and alice's two others are there.
    expect((await server.api('GET', `/gists/${out.created.id}`)).status).toBe(404);
    const fork = await server.api('GET', `/gists/${out.fork.id}`);
    expect(fork.status).toBe(200);
    expect(fork.body.owner.login).toBe('bob');
    expect(fork.body.files['hello.py'].content).toBe("print('hello, again')\n");
    const left = await server.api('GET', '/users/alice/gists', { token: alice.token });
    expect(left.body.map((g: any) => g.description).sort()).toEqual(['public two', 'secret one']);
  });

  it('organizations: repository create, get and edit; webhook create, edit, ping, delete; migration start, status polling, archive URL, archive delete; the user’s orgs and the org’s members (scopes: repo, admin:org, admin:org_hook)', async () => {
    const carol = await server.userWithToken('carol', ['repo', 'admin:org', 'admin:org_hook']);
    await server.createOrg('acme', 'carol');
    const out = await python('organization.py', { TOKEN: carol.token, ORG: 'acme', HOOK_URL: `${receiver.url}/hook` });

    expect(out.org).toEqual({ login: 'acme', url: `${api}/orgs/acme` });
    expect(out.my_orgs).toEqual(['acme']);
    expect(out.members).toEqual(['carol']);
    expect(out.repo_created).toEqual({ full_name: 'acme/tools', private: true, default_branch: 'main' });
    expect(out.repo_edited).toEqual({ description: 'shared tools, edited', has_wiki: false });
    expect(out.org_repos).toEqual(['tools']);

    expect(out.hook_created).toMatchObject({ events: ['push'], active: true, url: `${api}/orgs/acme/hooks/${out.hook_created.id}` });
    expect(out.hook_edited).toEqual({ events: ['push', 'repository'], config_url: `${receiver.url}/hook/edited` });
    expect(out.hooks).toEqual([{ id: out.hook_created.id, events: ['push', 'repository'] }]);
    // hook.ping() reached the receiver at the edited URL (hublet's headers are X-Service-*); the script deleted the hook
    // afterwards, so its deliveries are not listed here (octokit.test.ts lists them).
    const [ping] = await receiver.waitFor(1, (r) => r.path === '/hook/edited' && r.headers['x-service-event'] === 'ping');
    expect(ping.payload.hook_id).toBe(out.hook_created.id);
    expect(ping.headers['x-service-hook-id']).toBe(String(out.hook_created.id));
    expect(out.hooks_after_delete).toEqual([]);
    expect((await server.api('GET', `/orgs/acme/hooks/${out.hook_created.id}`, { token: carol.token })).status).toBe(404);

    expect(out.migration_started).toMatchObject({ state: 'pending', repos: ['acme/tools'] });
    expect(out.migration_states.at(-1)).toBe('exported');
    for (const s of out.migration_states) expect(['pending', 'exporting', 'exported']).toContain(s);
    expect(out.migrations).toEqual([out.migration_started.id]);
    // get_archive_url() reads the 302's body; the URL it got downloaded the archive without credentials, until the
    // script deleted the archive.
    expect(out.archive_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(out.archive_download).toEqual({ status: 200, magic: '1f8b' });
    expect((await fetch(out.archive_url)).status).toBe(404);
    expect(out.archive_after_delete).toBe(404);

    const repo = await server.api('GET', '/repos/acme/tools', { token: carol.token });
    expect(repo.body).toMatchObject({ description: 'shared tools, edited', private: true, has_wiki: false });
  });
});
