// Octokit.rb, unchanged (Debian's ruby-octokit 4.20, run by /usr/bin/ruby), against `hublet serve` over hublet's own TLS
// with a CA the test makes, set up as Octokit.rb's README says for GitHub Enterprise: `api_endpoint` https://HOST/api/v3/
// (Octokit::Client.new or Octokit.configure) and an access token. Ruby's OpenSSL trusts the CA through SSL_CERT_FILE, as
// for any private CA: Octokit.rb 4.20 drops `connection_options: { ssl: { ca_file: } }` (it rebuilds the :ssl options from
// `verify` and `ssl_verify_mode` alone). The ruby scripts beside this file print JSON; here we assert on it and on what
// the server holds afterwards.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServeProcess } from '../helpers/cli.js';
import { serveProcesses } from '../helpers/serve-process.js';
import { makeTestCertificates } from '../helpers/tls.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { RUBY, requireRubyOctokit, run, succeeded } from './tools.js';

const SCRIPTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'ruby-octokit');
const ADMIN_TOKEN = `hlp_rubyoctokit${'0'.repeat(20)}`;

const serving = serveProcesses();
let serve: ServeProcess;
let receiver: Receiver;
let trusting: Agent;
let caFile: string;
/** Octokit.rb's api_endpoint: GitHub Enterprise's, with its trailing slash, as the README writes it. */
let api: string;
/** Why Octokit.rb cannot run here (set in beforeAll): every test then fails with it, none is skipped. */
let missing: string | undefined;

/** A REST call to the server over TLS, trusting the test CA. */
async function hublet(method: string, p: string, token: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await request(`${serve.url}${p}`, {
    method: method as 'GET',
    dispatcher: trusting,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/vnd.service+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : null };
}

async function admin(method: string, p: string, body: unknown): Promise<any> {
  const r = await hublet(method, p, ADMIN_TOKEN, body);
  if (r.status !== 201 && r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A user with a classic token carrying `scopes`. */
async function userWithToken(login: string, scopes: string[]): Promise<string> {
  await admin('POST', '/admin/users', { login });
  return (await admin('POST', `/admin/users/${login}/authorizations`, { scopes })).token;
}

/** Runs one script with Debian's ruby in a bare environment (no RUBYOPT, GEM_* or BUNDLE_*) and parses its JSON. */
async function ruby(script: string, env: Record<string, string>): Promise<any> {
  if (missing) throw new Error(missing);
  const r = await run(RUBY, [path.join(SCRIPTS, script)], {
    env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: serving.sandbox.home, SSL_CERT_FILE: caFile, HUBLET_API: api, ...env },
    timeoutMs: 120_000,
  });
  return JSON.parse(succeeded(`ruby ${script}`, r));
}

beforeAll(async () => {
  try {
    requireRubyOctokit();
  } catch (err) {
    missing = (err as Error).message;
  }
  const certs = await makeTestCertificates(path.join(serving.sandbox.root, 'tls'));
  caFile = certs.caFile;
  trusting = new Agent({ connect: { ca: fs.readFileSync(certs.caFile) } });
  const data = await serving.freshDataDir('data');
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--data',
    data.dir,
    ...data.args,
    '--tls-cert',
    certs.certFile,
    '--tls-key',
    certs.keyFile,
  ];
  [serve, receiver] = await Promise.all([
    serving.serve(args, { HUBLET_ADMIN_TOKEN: ADMIN_TOKEN, HUBLET_LOG_LEVEL: 'warn' }),
    startReceiver(),
  ]);
  expect(serve.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  api = `${serve.url}/api/v3/`;
});
afterAll(async () => {
  await receiver?.close();
  await trusting?.close();
});

describe('Octokit.rb over TLS with api_endpoint https://HOST/api/v3/', () => {
  it('configured by OCTOKIT_API_ENDPOINT and OCTOKIT_ACCESS_TOKEN: the user, the token’s scopes, the rate limit; without the CA in SSL_CERT_FILE the certificate is refused', async () => {
    const token = await userWithToken('erin', ['gist', 'read:org']);
    const env = { OCTOKIT_API_ENDPOINT: api, OCTOKIT_ACCESS_TOKEN: token };
    expect(await ruby('whoami.rb', env)).toEqual({
      login: 'erin',
      endpoint: api,
      scopes: ['gist', 'read:org'],
      rate_limit: { limit: expect.any(Number), remaining_positive: true },
    });

    // The same script trusting only the system's CAs: Ruby's OpenSSL verifies hublet's certificate, and refuses it.
    if (missing) throw new Error(missing);
    const r = await run(RUBY, [path.join(SCRIPTS, 'whoami.rb')], {
      env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: serving.sandbox.home, ...env },
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Faraday::SSLError: .*certificate verify failed/m);
  });

  it('gists: create with three files, edit, rename a file, delete a file, commits, a version by sha, star and unstar, fork, comments, every page through auto_paginate, delete (Octokit::Client.new; token scope: gist)', async () => {
    const alice = await userWithToken('alice', ['gist']);
    const bob = await userWithToken('bob', ['gist']);
    const out = await ruby('gists.rb', { OWNER_TOKEN: alice, OTHER_TOKEN: bob });
    const id = out.created.id;

    expect(out.created).toEqual({
      id,
      url: `${api}gists/${id}`,
      html_url: `${serve.url}/gist/${id}`,
      public: true,
      owner: 'alice',
      files: ['hello.rb', 'notes.md', 'old-name.txt'],
      status: 201,
      location: `${api}gists/${id}`,
    });
    expect(out.edited).toEqual({ description: 'second version', hello: "puts 'hello, again'\n" });
    expect(out.renamed).toEqual({ files: ['hello.rb', 'new-name.txt', 'notes.md'], content: 'kept\n' });
    expect(out.file_deleted).toEqual(['hello.rb', 'new-name.txt']);
    // Four versions, newest first, over two pages of two: the delete, the rename (no line changed), the edit, the creation.
    expect(out.commits).toEqual([
      { user: 'alice', additions: 0, deletions: 1 },
      { user: 'alice', additions: 0, deletions: 0 },
      { user: 'alice', additions: 1, deletions: 1 },
      { user: 'alice', additions: 3, deletions: 0 },
    ]);
    expect(out.first_version).toEqual(['hello.rb', 'notes.md', 'old-name.txt']);
    expect(out.star).toEqual({ star: true, starred: true, starred_list: [id], unstar: true, starred_after: false });
    expect(out.fork).toMatchObject({ owner: 'bob', files: ['hello.rb', 'new-name.txt'] });
    expect(out.forks_of_original).toEqual([out.fork.id]);
    expect(out.comments).toEqual([
      { user: 'alice', body: 'first!' },
      { user: 'bob', body: 'nice gist, edited' },
      { user: 'alice', body: 'thanks' },
    ]);
    expect(out.comment_deleted).toBe(true);
    expect(out.comment_after_delete).toBe(404);

    // Five gists at per_page=2: auto_paginate followed the Link header's next pages, which kept the /api/v3/ prefix.
    const five = ['gist five', 'gist four', 'gist three', 'gist two', 'second version'];
    expect(out.list.all).toEqual(five);
    expect(out.list.mine_by_login).toEqual(five);
    expect(out.list.through_block).toEqual(five);
    expect(out.list.followed_pages).toEqual([`${api}gists?page=2&per_page=2`, `${api}gists?page=3&per_page=2`]);
    // Public ones, site-wide: alice's and bob's fork of the original (same description).
    expect(out.list.public).toEqual(['gist four', 'gist two', 'second version', 'second version']);
    expect(out.deleted).toBe(true);
    expect(out.after_delete).toBe(404);

    // What the server holds: the original is gone; bob's fork has the renamed file's content.
    expect((await hublet('GET', `/gists/${id}`, alice)).status).toBe(404);
    const fork = await hublet('GET', `/gists/${out.fork.id}`, bob);
    expect(fork.status).toBe(200);
    expect(fork.body.owner.login).toBe('bob');
    expect(fork.body.files['new-name.txt'].content).toBe('kept\n');
    expect(fork.body.comments).toBe(0);
  });

  it('organizations and the user: repositories create, get and list; webhook create, get, edit, ping, deliveries (client.get), delete; org and user migrations start, status, archive URL and download, lock and unlock, archive delete (Octokit.configure; scopes: repo, admin:org, admin:org_hook)', async () => {
    const carol = await userWithToken('carol', ['repo', 'admin:org', 'admin:org_hook']);
    await admin('POST', '/admin/organizations', { login: 'acme', admin: 'carol' });
    const out = await ruby('organization.rb', { TOKEN: carol, ORG: 'acme', HOOK_URL: `${receiver.url}/hook` });

    expect(out.me).toBe('carol');
    expect(out.endpoint).toBe(api);
    expect(out.repo_created).toEqual({
      full_name: 'acme/tools',
      private: true,
      default_branch: 'main',
      url: `${api}repos/acme/tools`,
      status: 201,
    });
    expect(out.repo).toEqual({ full_name: 'acme/tools', description: 'shared tools', owner: 'acme', exists: false });
    // Lists of two per page, followed to the end.
    expect(out.org_repos).toEqual(['docs', 'site', 'tools']);
    expect(out.my_repos).toEqual(['acme/docs', 'acme/site', 'acme/tools', 'carol/dotfiles']);
    expect(out.user_repos).toEqual(['carol/dotfiles']);

    const hookId = out.hook_created.id;
    expect(out.hook_created).toEqual({
      id: hookId,
      name: 'web',
      events: ['push'],
      active: true,
      url: `${api}orgs/acme/hooks/${hookId}`,
      ping_url: `${api}orgs/acme/hooks/${hookId}/pings`,
    });
    expect(out.hook_read).toBe(`${receiver.url}/hook`);
    expect(out.hook_edited).toEqual({ events: ['push', 'repository'], config_url: `${receiver.url}/hook/edited` });
    expect(out.pinged).toBe(true);
    expect(out.hooks).toEqual([{ id: hookId, events: ['push', 'repository'] }]);
    // The ping on creation and ping_org_hook's, both answered 200; one read by id, then redelivered (202).
    expect(out.deliveries).toEqual([
      { event: 'ping', status_code: 200 },
      { event: 'ping', status_code: 200 },
    ]);
    expect(out.delivery).toMatchObject({ event: 'ping', request_event: 'ping', response: 'thanks' });
    expect(out.redelivery_status).toBe(202);
    // The receiver got the three (the creation's ping may have left before the edit); the edited URL, ping_org_hook's.
    const pings = await receiver.waitFor(3, (r) => r.path.startsWith('/hook') && r.headers['x-service-event'] === 'ping');
    for (const ping of pings) expect(ping.payload.hook_id).toBe(hookId);
    expect(pings.filter((r) => r.path === '/hook/edited').length).toBeGreaterThanOrEqual(2);
    expect(out.hook_removed).toBe(true);
    expect(out.hooks_after_delete).toEqual([]);
    expect((await hublet('GET', `/orgs/acme/hooks/${hookId}`, carol)).status).toBe(404);

    // Octokit.rb asks for the migrations API with GitHub's old preview media type; hublet serves it, and names it back
    // as GitHub does.
    expect(out.migration_started).toEqual({
      id: out.migration_started.id,
      state: 'pending',
      lock_repositories: true,
      url: `${api}orgs/acme/migrations/${out.migration_started.id}`,
      repos: ['acme/tools'],
      accept: 'application/vnd.github.wyandotte-preview+json',
      media_type: 'service.wyandotte-preview; format=json',
    });
    expect(out.migration_states.at(-1)).toBe('exported');
    for (const s of out.migration_states) expect(['pending', 'exporting', 'exported']).toContain(s);
    // migration_archive_url reads the 302's Location without following it; that signed URL downloads without credentials.
    expect(out.archive).toEqual({ url: expect.stringMatching(`^${serve.url}/`), status: 200, magic: '1f8b' });
    expect(out.migrations).toEqual([out.migration_started.id]);
    expect(out.edit_while_locked).toEqual({ status: 403, message: 'Repository is locked for migration' });
    expect(out.unlock_status).toBe(204);
    expect(out.edit_after_unlock).toBe('after the migration');
    expect(out.archive_deleted_status).toBe(204);
    expect(out.archive_after_delete).toBe(404);
    expect((await request(out.archive.url, { dispatcher: trusting })).statusCode).toBe(404);

    expect(out.user_migration_started).toEqual({ id: out.user_migration_started.id, state: 'pending', repos: ['carol/dotfiles'] });
    expect(out.user_migration_states.at(-1)).toBe('exported');
    expect(out.user_migrations).toEqual([out.user_migration_started.id]);
    expect(out.user_migration_repositories).toEqual(['carol/dotfiles']);
    expect(out.user_archive).toEqual({ url: expect.stringMatching(`^${serve.url}/`), status: 200, magic: '1f8b' });
    expect(out.user_edit_while_locked).toBe(403);
    expect(out.user_unlock_status).toBe(204);
    expect(out.user_edit_after_unlock).toBe('mine again');
    expect(out.user_archive_deleted_status).toBe(204);

    // What the server holds: the repositories as edited after their unlocks; both archives gone.
    expect((await hublet('GET', '/repos/acme/tools', carol)).body).toMatchObject({ description: 'after the migration', private: true });
    expect((await hublet('GET', '/repos/carol/dotfiles', carol)).body.description).toBe('mine again');
    expect((await hublet('GET', `/user/migrations/${out.user_migration_started.id}/archive`, carol)).status).toBe(404);
  });
});
