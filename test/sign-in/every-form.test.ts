// Every form of the site is checked, found from the app's own route list so a new form cannot be forgotten: each POST
// route of the web, posted by a signed-in person without the form's token, with another session's token, or marked
// cross-site, is refused with 403 and changes nothing (a file's form posted as multipart too); the OAuth endpoints for
// programs are the only POSTs without one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery staple 42';
/** POST routes that programs call with client credentials, not forms (RFC 6749, RFC 8628). */
const PROGRAM_ENDPOINTS = ['/login/oauth/access_token', '/login/device/code'];
/** Forms with a file input, posted as multipart/form-data: their token is read from the multipart body. */
const MULTIPART_FORMS = ['/settings/profile/avatar'];
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
let s: TestServer;
/** The settings pages' path parameters: alice's own organization and repository (hook 1 is acme's); any other is 1. */
const PARAMS: Record<string, string> = { org: 'acme', owner: 'alice', repo: 'proj' };

beforeAll(async () => {
  s = await startServer({ config: { signup: 'open' } });
  await s.createUser('alice', { password: PASSWORD });
  await s.createUser('mallory', { password: PASSWORD });
  // Real places for the settings pages' path parameters: alice's organization and repository, each with a hook.
  await s.createOrg('acme', 'alice');
  const token = await s.createToken('alice', { scopes: ['repo', 'admin:org_hook'] });
  await s.api('POST', '/user/repos', { token, body: { name: 'proj' } });
  const config = { url: 'http://127.0.0.1:9/', content_type: 'json' };
  for (const at of ['/orgs/acme/hooks', '/repos/alice/proj/hooks']) await s.api('POST', at, { token, body: { config, active: false } });
}, 60_000);
afterAll(() => s?.close());

/** The web's POST routes: the site's pages, not the API (whose routes sit under the API's own paths). */
function formRoutes(): string[] {
  const page = /^\/(session|logout|signup|settings\/|login\/|organizations\/|admin\/settings\/|:owner\/:repo\/settings\/)/;
  const posts = s.app.routeGrants.filter((r) => r.method === 'POST' && page.test(r.url)).map((r) => r.url);
  return [...new Set(posts)].filter((url) => !PROGRAM_ENDPOINTS.includes(url));
}

async function snapshot(): Promise<string> {
  const tables = [
    'users',
    'tokens',
    'web_sessions',
    'oauth_apps',
    'oauth_authorizations',
    'oauth_codes',
    'device_codes',
    'user_passwords',
    'avatars',
    'hooks',
  ] as const;
  const rows = await Promise.all(tables.map((t) => s.db.selectFrom(t).selectAll().execute()));
  return JSON.stringify(rows);
}

describe('every form', () => {
  it('refuses a post without its token, with another session’s token, or from another site, and changes nothing', async () => {
    const routes = formRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(12);
    for (const hooks of ['/organizations/:org/settings/hooks', '/:owner/:repo/settings/hooks/:hook_id/delete', '/admin/settings/hooks'])
      expect(routes).toContain(hooks);
    // The program endpoints are registered, and they answer a client without any form token (no 403).
    for (const p of PROGRAM_ENDPOINTS) {
      expect(s.app.routeGrants.some((r) => r.method === 'POST' && r.url === p)).toBe(true);
      const res = await fetch(`${s.url}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'client_id=nope',
      });
      expect(res.status).not.toBe(403);
    }
    const alice = new WebClient(s.url);
    await alice.signIn('alice', PASSWORD);
    await alice.get('/settings/tokens');
    const mallory = new WebClient(s.url);
    await mallory.signIn('mallory', PASSWORD);
    await mallory.get('/settings/tokens');
    const before = await snapshot();
    for (const route of routes) {
      const path = route.replace(/:([a-z_]+)/g, (_, name: string) => PARAMS[name] ?? '1');
      const fields = { note: 'x', name: 'x', password: 'x', login: 'alice', user_code: 'BCDF-GHJK', authorize: '1' };
      const attempts = [
        await alice.post(path, { ...fields, authenticity_token: '' }),
        await alice.post(path, { ...fields, authenticity_token: mallory.token }),
        await alice.post(path, fields, { 'sec-fetch-site': 'cross-site' }),
        await alice.post(path, fields, { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }),
      ];
      if (MULTIPART_FORMS.includes(route)) {
        const file = { avatar: { name: 'a.png', type: 'image/png', bytes: PNG } };
        attempts.push(
          await alice.postMultipart(path, { authenticity_token: '' }, file),
          await alice.postMultipart(path, { authenticity_token: mallory.token }, file),
          await alice.postMultipart(path, {}, file, { 'sec-fetch-site': 'cross-site' }),
          await alice.postMultipart(path, {}, file, { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }),
        );
      }
      for (const r of attempts) expect([route, r.status], r.text.slice(0, 200)).toEqual([route, 403]);
    }
    for (const route of MULTIPART_FORMS) expect(routes).toContain(route);
    // Rows the sign-ins made are all there is: the refused posts wrote nothing (not even a throttle count).
    expect(await snapshot()).toBe(before);
    expect(await s.db.selectFrom('throttle_counts').selectAll().execute()).toEqual([]);
    // The same multipart post with this session's own token is let through (its token was read from that body).
    const made = await alice.postMultipart('/settings/profile/avatar', {}, { avatar: { name: 'a.png', type: 'image/png', bytes: PNG } });
    expect(made.status).toBe(303);
    expect(await s.db.selectFrom('avatars').select('media_type').execute()).toEqual([{ media_type: 'image/png' }]);
  });
});
