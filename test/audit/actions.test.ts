// The audit log's entries, one for each action hublet records, with GitHub's fields (`@timestamp` and `created_at` in
// milliseconds, `_document_id`, actor and where from, org, repo, user, the action's own fields), made through the API,
// git and the web as people make them; no secret ever in an entry; an organization's owners read its log on the web.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { hiddenFields, WebClient } from '../helpers/web-client.js';
import { git, gitOk, tempDir } from '../repos/helpers.js';
import { newEntries, oneEntry, siteLog, type AuditEvent } from './helpers.js';

const PASSWORD = 'correct horse battery staple 42';
const HOOK_SECRET = 'hook-secret-never-logged-7f3a';
const UA = 'audit-test/1.0 (<b>agent</b>)';
let s: TestServer;
let alice: { id: number; token: string };
let bob: { id: number };
/** Everything secret the steps handle: none may appear in any entry. */
const secrets: string[] = [HOOK_SECRET, PASSWORD];
let seen = 0;

/** The log's length now: the next step's entries come after it. */
async function mark(): Promise<void> {
  seen = (await siteLog(s)).length;
}

beforeAll(async () => {
  s = await startServer();
  const made = await s.api('POST', '/admin/users', {
    token: s.adminToken,
    body: { login: 'alice', password: PASSWORD, email: 'alice@example.com' },
    headers: { 'user-agent': UA },
  });
  expect(made.status).toBe(201);
  alice = {
    id: made.body.id,
    token: await s.createToken('alice', { scopes: ['repo', 'admin:org', 'admin:org_hook', 'user', 'delete_repo'] }),
  };
  secrets.push(alice.token);
  bob = await s.createUser('bob', { password: PASSWORD });
}, 60_000);
afterAll(() => s?.close());

/** What every entry has: integer milliseconds, a document id, the action's operation, who did it and from where. */
function expectCommon(e: AuditEvent, action: string, actor: string): void {
  expect(e.action).toBe(action);
  expect(Number.isInteger(e['@timestamp'])).toBe(true);
  expect(e.created_at).toBe(e['@timestamp']);
  expect(Math.abs(e.created_at - Date.now())).toBeLessThan(120_000);
  expect(e._document_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(e.actor).toBe(actor);
  expect(typeof e.actor_id).toBe('number');
  expect(e.actor_ip).toBe('127.0.0.1');
  expect(typeof e.operation_type).toBe('string');
}

describe('accounts and organizations', () => {
  it('records the site admin’s user, business.create_user, with the request’s address and User-Agent', async () => {
    const e = (await siteLog(s, 'action:business.create_user user:alice'))[0];
    expectCommon(e, 'business.create_user', 'admin');
    expect(e).toMatchObject({
      user: 'alice',
      user_id: alice.id,
      business: 'hublet',
      user_agent: UA,
      operation_type: 'create',
      site_admin: false,
    });
    expect(e.org).toBeUndefined();
  });

  it('records org.create, then org.add_member, org.update_member and org.remove_member by an owner and by a site admin', async () => {
    await mark();
    await s.createOrg('acme', 'alice');
    const created = await oneEntry(s, seen, 'org.create');
    expectCommon(created, 'org.create', 'admin');
    expect(created).toMatchObject({ org: 'acme', user: 'alice', permission: 'admin' });

    await mark();
    const put = (role: string, token = alice.token) => s.api('PUT', '/orgs/acme/memberships/bob', { token, body: { role } });
    expect((await put('member')).status).toBe(200);
    expect((await put('admin')).status).toBe(200);
    expect((await put('admin')).status).toBe(200); // no change: no entry
    expect((await s.api('DELETE', '/orgs/acme/memberships/bob', { token: alice.token })).status).toBe(204);
    const steps = await newEntries(s, seen);
    expect(steps.map((e) => e.action)).toEqual(['org.add_member', 'org.update_member', 'org.remove_member']);
    for (const e of steps) expectCommon(e, e.action, 'alice');
    expect(steps[0]).toMatchObject({ org: 'acme', user: 'bob', user_id: bob.id, permission: 'member', operation_type: 'create' });
    expect(steps[1]).toMatchObject({ permission: 'admin', permission_was: 'member', operation_type: 'modify' });
    expect(steps[2]).toMatchObject({ permission: 'admin', operation_type: 'remove' });

    // A site admin who does not own the organization: the same action, the site admin its actor.
    await mark();
    expect((await put('member', s.adminToken)).status).toBe(200);
    expect(await oneEntry(s, seen, 'org.add_member')).toMatchObject({ actor: 'admin', org: 'acme', user: 'bob' });
  });

  it('records the site admin API’s changes as business.* (a suspension with its reason) and an organization’s rename as org.rename', async () => {
    await mark();
    await s.api('PUT', '/users/bob/suspended', { token: s.adminToken, body: { reason: 'too <many> requests' } });
    await s.api('DELETE', '/users/bob/suspended', { token: s.adminToken });
    await s.api('PUT', '/users/bob/site_admin', { token: s.adminToken });
    await s.api('DELETE', '/users/bob/site_admin', { token: s.adminToken });
    await s.api('PUT', '/admin/users/bob/password', { token: s.adminToken, body: { password: `${PASSWORD} again` } });
    secrets.push(`${PASSWORD} again`);
    const invitation = await s.api('POST', '/admin/invitations', { token: s.adminToken, body: { note: 'for carol' } });
    secrets.push(invitation.body.token);
    await s.api('PATCH', '/admin/organizations/acme', { token: s.adminToken, body: { login: 'acme-corp' } });
    await s.api('PATCH', '/admin/organizations/acme-corp', { token: s.adminToken, body: { login: 'acme' } });
    const steps = await newEntries(s, seen);
    expect(steps.map((e) => e.action)).toEqual([
      'business.suspend_user',
      'business.unsuspend_user',
      'business.promote_site_admin',
      'business.demote_site_admin',
      'business.set_user_password',
      'business.create_invitation',
      'org.rename',
      'org.rename',
    ]);
    expect(steps[0]).toMatchObject({ actor: 'admin', user: 'bob', reason: 'too <many> requests', business: 'hublet' });
    expect(steps[5]).toMatchObject({ invitation_id: invitation.body.id, note: 'for carol' });
    expect(steps[6]).toMatchObject({ org: 'acme-corp', old_org: 'acme', actor: 'admin' });
    expect(steps[6].business).toBeUndefined();
  });
});

describe('webhooks', () => {
  it('records hook.create, config_changed, events_changed, active_changed and destroy with the config shown, never the secret', async () => {
    await mark();
    const url = 'http://127.0.0.1:9/hook?q="><script>alert(1)</script>';
    const hook = await s.api('POST', '/orgs/acme/hooks', {
      token: alice.token,
      body: { name: 'web', active: false, events: ['push'], config: { url, content_type: 'json', secret: HOOK_SECRET } },
    });
    expect(hook.status, hook.text).toBe(201);
    const at = `/orgs/acme/hooks/${hook.body.id}`;
    await s.api('PATCH', `${at}/config`, { token: alice.token, body: { url: 'http://127.0.0.1:9/other', secret: `${HOOK_SECRET}-2` } });
    secrets.push(`${HOOK_SECRET}-2`);
    await s.api('PATCH', at, { token: alice.token, body: { add_events: ['repository'] } });
    await s.api('PATCH', at, { token: alice.token, body: { active: true } });
    await s.api('PATCH', at, { token: alice.token, body: { active: false } });
    await s.api('DELETE', at, { token: alice.token });
    const steps = await newEntries(s, seen);
    expect(steps.map((e) => e.action)).toEqual([
      'hook.create',
      'hook.config_changed',
      'hook.events_changed',
      'hook.active_changed',
      'hook.active_changed',
      'hook.destroy',
    ]);
    for (const e of steps) {
      expectCommon(e, e.action, 'alice');
      expect(e).toMatchObject({ org: 'acme', hook_id: hook.body.id, name: 'webhook' });
    }
    expect(steps[0]).toMatchObject({ active: false, events: ['push'], config: { url, content_type: 'json', insecure_ssl: '0' } });
    expect(steps[1]).toMatchObject({
      config: { url: 'http://127.0.0.1:9/other', content_type: 'json', insecure_ssl: '0' },
      config_was: { url, content_type: 'json', insecure_ssl: '0' },
    });
    expect(steps[2]).toMatchObject({ events: ['push', 'repository'], events_were: ['push'] });
    expect(steps[3]).toMatchObject({ active: true, active_was: false });
    expect(steps[5]).toMatchObject({ operation_type: 'remove', config: { url: 'http://127.0.0.1:9/other' } });
    for (const e of steps) expect(JSON.stringify(e)).not.toContain('secret');
  });
});

describe('repositories, git and migrations', () => {
  it('records repo.create, repo.rename and repo.access, and git.push as a git event only with include=git or all', async () => {
    await mark();
    const made = await s.api('POST', '/orgs/acme/repos', { token: alice.token, body: { name: 'widgets', auto_init: true } });
    expect(made.status).toBe(201);
    await s.api('PATCH', '/repos/acme/widgets', { token: alice.token, body: { name: 'gadgets' } });
    await s.api('PATCH', '/repos/acme/gadgets', { token: alice.token, body: { private: true } });
    const steps = await newEntries(s, seen);
    expect(steps.map((e) => e.action)).toEqual(['repo.create', 'repo.rename', 'repo.access']);
    expect(steps[0]).toMatchObject({ org: 'acme', repo: 'acme/widgets', repo_id: made.body.id, visibility: 'public' });
    expect(steps[1]).toMatchObject({ repo: 'acme/gadgets', repo_was: 'acme/widgets' });
    expect(steps[2]).toMatchObject({ repo: 'acme/gadgets', visibility: 'private', previous_visibility: 'public' });

    const work = tempDir();
    try {
      const remote = new URL('/acme/gadgets.git', s.url);
      remote.username = 'alice';
      remote.password = alice.token;
      await gitOk(['clone', '-q', remote.href, 'w'], work.dir);
      await gitOk(['commit', '-q', '--allow-empty', '-m', 'two'], `${work.dir}/w`);
      const pushed = await git(['push', '-q', 'origin', 'HEAD'], `${work.dir}/w`);
      expect(pushed.ok, pushed.stderr).toBe(true);
    } finally {
      work.cleanup();
    }
    const push = (await siteLog(s, 'action:git.push'))[0];
    expectCommon(push, 'git.push', 'alice');
    expect(push).toMatchObject({
      org: 'acme',
      repo: 'acme/gadgets',
      repository: 'acme/gadgets',
      repository_public: false,
      transport_protocol_name: 'http',
      refs: ['refs/heads/main'],
    });
    expect(push.user_agent).toMatch(/^git\//);
    const web = await s.api('GET', '/orgs/acme/audit-log?phrase=action:git.push', { token: alice.token });
    expect(web.body).toEqual([]);
    const gitOnly = await s.api('GET', '/orgs/acme/audit-log?include=git', { token: alice.token });
    expect(gitOnly.body.map((e: AuditEvent) => e.action)).toEqual(['git.push']);
  });

  it('records migration.create, migration.download, migration.destroy_file and repo.unlock, then repo.archived and repo.destroy', async () => {
    await mark();
    const m = await s.api('POST', '/orgs/acme/migrations', {
      token: alice.token,
      body: { repositories: ['gadgets'], lock_repositories: true },
    });
    expect(m.status).toBe(201);
    const at = `/orgs/acme/migrations/${m.body.id}`;
    for (let i = 0; (await s.api('GET', at, { token: alice.token })).body.state !== 'exported'; i++) {
      expect(i).toBeLessThan(400);
      await new Promise((r) => setTimeout(r, 50));
    }
    const archive = await fetch(`${s.url}${at}/archive`, { headers: { authorization: `token ${alice.token}` }, redirect: 'manual' });
    expect(archive.status).toBe(302);
    secrets.push(new URL(archive.headers.get('location')!).searchParams.get('signature')!);
    expect((await s.api('DELETE', `${at}/archive`, { token: alice.token })).status).toBe(204);
    expect((await s.api('DELETE', `${at}/repos/gadgets/lock`, { token: alice.token })).status).toBe(204);
    await s.api('PATCH', '/repos/acme/gadgets', { token: alice.token, body: { archived: true } });
    expect((await s.api('DELETE', '/repos/acme/gadgets', { token: alice.token })).status).toBe(204);
    const steps = await newEntries(s, seen);
    expect(steps.map((e) => e.action)).toEqual([
      'migration.create',
      'migration.download',
      'migration.destroy_file',
      'repo.unlock',
      'repo.archived',
      'repo.destroy',
    ]);
    for (const e of steps) expectCommon(e, e.action, 'alice');
    for (const e of steps.slice(0, 3)) expect(e).toMatchObject({ org: 'acme', migration_id: m.body.id, guid: m.body.guid });
    expect(steps[0]).toMatchObject({ repositories: ['acme/gadgets'], lock_repositories: true, operation_type: 'create' });
    expect(steps[1].operation_type).toBe('access');
    expect(steps[3]).toMatchObject({ repo: 'acme/gadgets', migration_id: m.body.id });
    expect(steps[4]).toMatchObject({ repo: 'acme/gadgets', visibility: 'private' });
    expect(steps[5]).toMatchObject({ repo: 'acme/gadgets', operation_type: 'remove' });
  });
});

describe('tokens, OAuth grants and signing in', () => {
  it('records personal_access_token.create and destroy for classic and fine-grained tokens, whoever made them, with no token in them', async () => {
    await mark();
    const classic = await s.api('POST', '/admin/users/bob/authorizations', {
      token: s.adminToken,
      body: { scopes: ['gist', 'repo'], note: 'ci <deploy>' },
    });
    const fine = await s.api('POST', '/admin/users/bob/authorizations', {
      token: s.adminToken,
      body: { kind: 'fine_grained', permissions: { gists: 'write' } },
    });
    secrets.push(classic.body.token, fine.body.token);
    expect((await s.api('DELETE', '/admin/users/bob/authorizations', { token: s.adminToken })).status).toBe(204);
    const steps = await newEntries(s, seen);
    expect(steps.map((e) => e.action)).toEqual([
      'personal_access_token.create',
      'personal_access_token.create',
      'personal_access_token.destroy',
      'personal_access_token.destroy',
    ]);
    expect(steps[0]).toMatchObject({
      actor: 'admin',
      user: 'bob',
      token_id: classic.body.id,
      token_scopes: 'gist,repo',
      note: 'ci <deploy>',
      programmatic_access_type: 'Personal access token (classic)',
    });
    expect(steps[1]).toMatchObject({ token_id: fine.body.id, permissions: { gists: 'write' } });
    expect(
      steps
        .slice(2)
        .map((e) => e.token_id)
        .sort(),
    ).toEqual([classic.body.id, fine.body.id].sort());

    // A person's own token made and deleted on the web: the same actions, by them.
    const web = new WebClient(s.url);
    expect((await web.signIn('alice', PASSWORD)).status).toBe(303);
    await web.get('/settings/tokens/new');
    const made = await web.post('/settings/tokens', { note: 'laptop', scopes: 'gist' });
    expect(made.status).toBe(201);
    const token = /\b(hlp_[A-Za-z0-9]{36})\b/.exec(made.text)![1];
    secrets.push(token);
    const own = (await siteLog(s, 'action:personal_access_token.create user:alice')).at(-1)!;
    expect(own).toMatchObject({ actor: 'alice', user: 'alice', note: 'laptop', token_scopes: 'gist' });
    await web.get('/settings/tokens');
    expect((await web.post(`/settings/tokens/${own.token_id}/delete`, {})).status).toBeLessThan(400);
    const gone = (await siteLog(s, 'action:personal_access_token.destroy user:alice')).at(-1)!;
    expect(gone).toMatchObject({ actor: 'alice', token_id: own.token_id });
  });

  it('records oauth_authorization.create when a person authorizes an app, and destroy when they revoke it', async () => {
    const app = await s.api('POST', '/admin/oauth-apps', {
      token: s.adminToken,
      body: { name: 'Notes', callback_url: 'https://app.example.com/cb' },
    });
    expect(app.status).toBe(201);
    secrets.push(app.body.client_secret);
    const registered = (await siteLog(s, 'action:business.create_oauth_app'))[0];
    expect(registered).toMatchObject({ actor: 'admin', oauth_application_name: 'Notes', client_id: app.body.client_id });
    await mark();
    const web = new WebClient(s.url);
    await web.signIn('alice', PASSWORD);
    const consent = await web.get(`/login/oauth/authorize?client_id=${app.body.client_id}&scope=gist%20repo`);
    expect(consent.status).toBe(200);
    const approved = await web.post('/login/oauth/authorize', { ...hiddenFields(consent.text), authorize: '1' });
    expect(approved.status).toBe(302);
    await web.get('/settings/applications');
    const revoked = await web.post(`/settings/connections/applications/${app.body.client_id}/revoke`, {});
    expect(revoked.status).toBe(200);
    const steps = (await newEntries(s, seen)).filter((e) => e.action.startsWith('oauth_authorization.'));
    expect(steps.map((e) => e.action)).toEqual(['oauth_authorization.create', 'oauth_authorization.destroy']);
    for (const e of steps) {
      expectCommon(e, e.action, 'alice');
      expect(e).toMatchObject({ user: 'alice', oauth_application_id: app.body.id, oauth_application_name: 'Notes', scopes: 'gist,repo' });
    }
  });

  it('records user.login, user.failed_login (a known account only) and user.logout on the web', async () => {
    await mark();
    const web = new WebClient(s.url);
    expect((await web.signIn('alice', 'a wrong password, long enough')).status).toBe(401);
    expect((await web.signIn('nobody-here', 'a wrong password, long enough')).status).toBe(401);
    expect((await web.signIn('alice', PASSWORD)).status).toBe(303);
    await web.get('/logout');
    expect((await web.post('/logout', {})).status).toBe(303);
    const steps = await newEntries(s, seen);
    expect(steps.map((e) => e.action)).toEqual(['user.failed_login', 'user.login', 'user.logout']);
    for (const e of steps) {
      expectCommon(e, e.action, 'alice');
      expect(e).toMatchObject({ user: 'alice', operation_type: 'authentication' });
    }
    expect(steps[1].method).toBe('password');
  });
});

describe('secrets', () => {
  it('keeps every secret the steps handled out of every entry, in the site’s log and the organization’s', async () => {
    const everything = JSON.stringify(await siteLog(s));
    const org = (await s.api('GET', '/orgs/acme/audit-log?include=all&per_page=100&phrase=created:>2000-01-01', { token: alice.token }))
      .text;
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) {
      expect(everything).not.toContain(secret);
      expect(org).not.toContain(secret);
    }
    const rows = JSON.stringify(await s.db.selectFrom('audit_entries').selectAll().execute());
    for (const secret of secrets) expect(rows).not.toContain(secret);
  });
});

describe('GET /organizations/<org>/settings/audit-log', () => {
  it('shows the owners the organization’s entries, everything escaped, and is not found for anyone else', async () => {
    const owner = new WebClient(s.url);
    await owner.signIn('alice', PASSWORD);
    const page = await owner.get('/organizations/acme/settings/audit-log?q=action:hook');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Audit log</h1>');
    expect(page.text).toContain('hook.create');
    expect(page.text).not.toContain('repo.create');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text).toContain('href="/organizations/acme/settings/audit-log"'.replace('href="', `href="${s.url}`));

    const refused = await owner.get('/organizations/acme/settings/audit-log?q=nonsense');
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('not words');

    const member = new WebClient(s.url);
    expect((await s.api('PUT', '/orgs/acme/memberships/bob', { token: alice.token, body: { role: 'member' } })).status).toBe(200);
    await member.signIn('bob', `${PASSWORD} again`);
    expect((await member.get('/organizations/acme/settings/audit-log')).status).toBe(404);
    const visitor = await new WebClient(s.url).get('/organizations/acme/settings/audit-log');
    expect(visitor.status).toBe(303);
  });
});
