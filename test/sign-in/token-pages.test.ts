// A person's own personal access tokens on the web, as GitHub's pages have them: /settings/tokens lists them with a
// "Delete" each, the classic form (Note, Expiration, a checkbox per scope, Generate token) and the fine-grained one
// (Token name, Expiration, a control per permission); the new token is shown once and works at once against the API,
// a deleted one is refused at once; the same rules and messages as `hublet admin token create`; hostile forms refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINE_GRAINED_PERMISSIONS, KNOWN_SCOPES } from '../../src/core/scopes.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery staple 42';
const DAY = 24 * 3600 * 1000;
let now = Date.parse('2026-11-28T10:00:00.000Z');
const clock = { now: () => new Date(now) };
let s: TestServer;
let alice: WebClient;

beforeAll(async () => {
  s = await startServer({ clock });
  await s.createUser('alice', { password: PASSWORD });
  await s.createUser('bob', { password: PASSWORD });
  alice = new WebClient(s.url);
  expect((await alice.signIn('alice', PASSWORD)).status).toBe(303);
}, 60_000);
afterAll(() => s?.close());

/** The token a page shows once, if any. */
function shownToken(text: string): string | undefined {
  return /<p class="secret-value" id="new-token"><code>([^<]+)<\/code><\/p>/.exec(text)?.[1];
}

async function tokenRows(login: string) {
  return s.db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .selectAll('tokens')
    .where('users.login', '=', login)
    .orderBy('tokens.id')
    .execute();
}

async function userStatus(token: string): Promise<number> {
  return (await s.api('GET', '/user', { token })).status;
}

describe('signed out', () => {
  it('every token page sends the visitor to sign in, coming back to the page; a post changes nothing', async () => {
    const visitor = new WebClient(s.url);
    for (const path of ['/settings/tokens', '/settings/tokens/new', '/settings/personal-access-tokens/new']) {
      const r = await visitor.get(path);
      expect(r.status, path).toBe(303);
      expect(r.location).toBe(`${s.url}/login?return_to=${encodeURIComponent(path)}`);
    }
    await visitor.get('/login');
    const before = (await tokenRows('alice')).length;
    const post = await visitor.post('/settings/tokens', { note: 'sneaky', scopes: 'gist', expiration: '7' });
    expect(post.status).toBe(303);
    expect(post.location).toBe(`${s.url}/login?return_to=${encodeURIComponent('/settings/tokens/new')}`);
    expect((await tokenRows('alice')).length).toBe(before);
  });
});

describe('classic tokens', () => {
  it('the form has GitHub’s fields: Note, Expiration (7, 30, 60, 90 days, custom, none), a checkbox per scope named by its value', async () => {
    const list = await alice.get('/settings/tokens');
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('private, no-store');
    expect(list.text).toContain(`href="${s.url}/settings/tokens/new">Generate new token (classic)</a>`);
    expect(list.text).toContain(`href="${s.url}/settings/personal-access-tokens/new">Generate new token</a>`);
    const form = await alice.get('/settings/tokens/new');
    expect(form.status).toBe(200);
    expect(form.text).toContain('<label for="field-note">Note</label>');
    expect(form.text).toContain('<label for="field-expiration">Expiration</label>');
    for (const [value, label] of [
      ['7', '7 days'],
      ['30', '30 days'],
      ['60', '60 days'],
      ['90', '90 days'],
      ['custom', 'Custom…'],
      ['none', 'No expiration'],
    ])
      expect(form.text).toMatch(new RegExp(`<option value="${value}"( selected)?>${label}</option>`));
    for (const scope of KNOWN_SCOPES) expect(form.text).toContain(`<input type="checkbox" name="scopes" value="${scope}">`);
    expect(form.text).toMatch(/<form class="form" method="post" action="[^"]*\/settings\/tokens">/);
    expect(form.text).toContain('>Generate token</button>');
  });

  it('generates a token shown once that works at once with its scopes and expiry; Delete refuses it at once', async () => {
    await alice.get('/settings/tokens/new');
    const made = await alice.post('/settings/tokens', {
      note: 'laptop <script>alert(1)</script>',
      scopes: ['gist', 'read:org'],
      expiration: '7',
    });
    expect(made.status).toBe(201);
    expect(made.text).toContain('Make sure to copy your personal access token now. You won’t be able to see it again!');
    expect(made.text).toContain('laptop &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(made.text).not.toContain('<script>alert(1)');
    const token = shownToken(made.text)!;
    expect(token).toMatch(/^hlp_[A-Za-z0-9]{36}$/);

    const me = await s.api('GET', '/user', { token });
    expect(me.status).toBe(200);
    expect(me.body.login).toBe('alice');
    expect(me.headers.get('x-oauth-scopes')).toBe('gist, read:org');
    const row = (await tokenRows('alice')).at(-1)!;
    expect(row).toMatchObject({ kind: 'classic', note: 'laptop <script>alert(1)</script>', revoked_at: null });
    expect(JSON.parse(row.scopes)).toEqual(['gist', 'read:org']);
    expect(row.expires_at).toBe(new Date(now + 7 * DAY).toISOString());
    expect(JSON.stringify(row)).not.toContain(token);

    // Listed with what it may do and when it ends; never shown again.
    const list = await alice.get('/settings/tokens');
    expect(list.text).not.toContain(token);
    expect(shownToken(list.text)).toBeUndefined();
    expect(list.text).toContain('gist, read:org');
    expect(list.text).toContain('Created on Sat, Nov 28, 2026.');
    expect(list.text).toContain('Expires on Sat, Dec 5, 2026.');
    expect(list.text).toContain(`action="${s.url}/settings/tokens/${row.id}/delete"`);

    const deleted = await alice.post(`/settings/tokens/${row.id}/delete`, {});
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe(`${s.url}/settings/tokens`);
    expect(await userStatus(token)).toBe(401);
    expect((await tokenRows('alice')).at(-1)!.revoked_at).not.toBeNull();
    expect((await alice.get('/settings/tokens')).text).not.toContain(`/settings/tokens/${row.id}/delete`);
  });

  it('keeps what was typed and shows each problem next to its field; nothing is made', async () => {
    const before = (await tokenRows('alice')).length;
    await alice.get('/settings/tokens/new');
    const refused = await alice.post('/settings/tokens', {
      note: '',
      scopes: ['gist', 'no-such-scope'],
      expiration: 'custom',
      expiration_date: '2026-11-01',
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('<p class="field-error" id="field-note-error">Note can&#39;t be blank</p>');
    expect(refused.text).toContain('unknown scope no-such-scope');
    expect(refused.text).toContain(
      '<p class="field-error" id="field-expiration_date-error">Custom expiration date must be in the future</p>',
    );
    expect(refused.text).toContain('<input type="checkbox" name="scopes" value="gist" checked>');
    expect(refused.text).toContain('<option value="custom" selected>');
    expect(refused.text).toContain('value="2026-11-01"');
    expect((await tokenRows('alice')).length).toBe(before);

    // Typed HTML comes back escaped; a repeated field counts as its last value.
    const hostile = await alice.post('/settings/tokens', {
      note: ['first', '"><img src=x onerror=alert(1)>'],
      scopes: 'x'.repeat(2000),
      expiration: 'custom',
      expiration_date: '<b>soon</b>',
    });
    expect(hostile.status).toBe(422);
    expect(hostile.text).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
    expect(hostile.text).not.toContain('<img src=x');
    expect(hostile.text).not.toContain('<b>soon</b>');
    expect(hostile.text).toContain('Custom expiration date must be an ISO 8601 time');
    expect((await tokenRows('alice')).length).toBe(before);
  });

  it('a custom date lasts to the end of that day; no expiration means none; GitHub’s ?scopes=&description= fills the form in', async () => {
    await alice.get('/settings/tokens/new');
    const custom = await alice.post('/settings/tokens', {
      note: 'custom',
      scopes: 'gist',
      expiration: 'custom',
      expiration_date: '2027-01-31',
    });
    expect(custom.status).toBe(201);
    expect((await tokenRows('alice')).at(-1)!.expires_at).toBe('2027-01-31T23:59:59.000Z');
    const forever = await alice.post('/settings/tokens', { note: 'forever', expiration: 'none' });
    expect(forever.status).toBe(201);
    expect((await tokenRows('alice')).at(-1)!.expires_at).toBeNull();
    expect(forever.text).toContain('This token has no expiration date.');

    const prefilled = await alice.get('/settings/tokens/new?scopes=repo,gist&description=%3Cb%3Eci%3C/b%3E');
    expect(prefilled.text).toContain('<input type="checkbox" name="scopes" value="repo" checked>');
    expect(prefilled.text).toContain('<input type="checkbox" name="scopes" value="gist" checked>');
    expect(prefilled.text).toContain('<input type="checkbox" name="scopes" value="user">');
    expect(prefilled.text).toContain('value="&lt;b&gt;ci&lt;/b&gt;"');
  });

  it('refuses what the site admin’s route refuses, with the same words (one code path)', async () => {
    const api = await s.api('POST', '/admin/users/alice/authorizations', { token: s.adminToken, body: { scopes: ['bogus'] } });
    expect(api.status).toBe(422);
    const message = api.body.errors[0].message as string;
    expect(message).toMatch(/^unknown scope bogus; known: /);
    await alice.get('/settings/tokens/new');
    const web = await alice.post('/settings/tokens', { note: 'n', scopes: 'bogus', expiration: '30' });
    expect(web.status).toBe(422);
    expect(web.text).toContain(message);
    // The site admin's route still makes any kind; the owner's pages only personal ones.
    const oauth = await s.api('POST', '/admin/users/alice/authorizations', { token: s.adminToken, body: { kind: 'oauth' } });
    expect(oauth.status).toBe(422);
    expect(oauth.body.errors).toEqual([
      { resource: 'OauthAccess', field: 'app_id', code: 'missing_field', message: 'oauth tokens name the app they belong to' },
    ]);
  });

  it('an expired token is listed as expired, until deleted', async () => {
    await alice.get('/settings/tokens/new');
    const made = await alice.post('/settings/tokens', { note: 'short-lived', expiration: '7' });
    const token = shownToken(made.text)!;
    // Eight days on, in two steps: the session (idle after 7 days) is used between them and stays.
    now += 4 * DAY;
    expect((await alice.get('/settings/tokens')).status).toBe(200);
    now += 4 * DAY;
    try {
      expect(await userStatus(token)).toBe(401);
      const list = await alice.get('/settings/tokens');
      expect(list.text).toMatch(/<strong>short-lived<\/strong>[\s\S]*?Expired on Sat, Dec 5, 2026\./);
    } finally {
      now -= 8 * DAY;
    }
  });
});

describe('fine-grained tokens', () => {
  it('the form has Token name, Expiration and a control per permission (No access, Read-only, Read and write)', async () => {
    const form = await alice.get('/settings/personal-access-tokens/new');
    expect(form.status).toBe(200);
    expect(form.text).toContain('<label for="field-note">Token name</label>');
    expect(form.text).toContain('<label for="field-expiration">Expiration</label>');
    for (const p of FINE_GRAINED_PERMISSIONS) {
      const select = new RegExp(`<select id="field-permission-${p}" name="permissions\\[${p}\\]">(.*?)</select>`).exec(form.text);
      expect(select, p).not.toBeNull();
      const options = [...select![1].matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => `${m[1]}=${m[2]}`);
      expect(options, p).toEqual(
        p === 'metadata' ? ['=No access', 'read=Read-only'] : ['=No access', 'read=Read-only', 'write=Read and write'],
      );
    }
    expect(form.text).toMatch(/<form class="form" method="post" action="[^"]*\/settings\/personal-access-tokens">/);
    expect(form.text).toContain('>Generate token</button>');
  });

  it('generates a hublet_pat_ token with the chosen permissions, usable at once, refused at once once deleted', async () => {
    await alice.get('/settings/personal-access-tokens/new');
    const made = await alice.post('/settings/personal-access-tokens', {
      note: 'gist bot',
      expiration: '90',
      'permissions[gists]': 'write',
      'permissions[members]': 'read',
      'permissions[contents]': '',
      'permissions[made_up]': 'write',
    });
    expect(made.status).toBe(201);
    const token = shownToken(made.text)!;
    expect(token).toMatch(/^hublet_pat_[A-Za-z0-9]{36}$/);
    expect(made.text).toContain('gists: write, members: read');
    const row = (await tokenRows('alice')).at(-1)!;
    expect(row.kind).toBe('fine_grained');
    expect(JSON.parse(row.permissions)).toEqual({ gists: 'write', members: 'read' });
    expect(row.expires_at).toBe(new Date(now + 90 * DAY).toISOString());

    expect(await userStatus(token)).toBe(200);
    const gist = await s.api('POST', '/gists', { token, body: { files: { 'a.txt': { content: 'hi' } } } });
    expect(gist.status).toBe(201);
    await alice.get('/settings/tokens');
    expect((await alice.post(`/settings/tokens/${row.id}/delete`, {})).status).toBe(303);
    expect(await userStatus(token)).toBe(401);
  });

  it('refuses an unknown level next to the permissions, keeping the choices made', async () => {
    await alice.get('/settings/personal-access-tokens/new');
    const before = (await tokenRows('alice')).length;
    const refused = await alice.post('/settings/personal-access-tokens', {
      note: 'x',
      expiration: '30',
      'permissions[gists]': 'write',
      'permissions[profile]': 'everything',
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('profile: everything is not a known permission and level');
    expect(refused.text).toContain('<option value="write" selected>Read and write</option>');
    expect(refused.text).toContain('<label for="field-note">Token name</label>');
    expect((await tokenRows('alice')).length).toBe(before);
  });
});

describe('whose tokens', () => {
  it('lists only the person’s own tokens; someone else’s token id, or no token, is 404 and revokes nothing', async () => {
    const bobToken = await s.createToken('bob', { scopes: ['gist'] });
    const bobRow = (await tokenRows('bob')).at(-1)!;
    await s.db.updateTable('tokens').set({ note: 'bob secret note' }).where('id', '=', bobRow.id).execute();
    const list = await alice.get('/settings/tokens');
    expect(list.text).not.toContain('bob secret note');
    for (const id of [String(bobRow.id), '999999', '0', 'abc', '-1', '1e3', '99999999999999999999']) {
      const r = await alice.post(`/settings/tokens/${id}/delete`, {});
      expect(r.status, id).toBe(404);
      expect(r.text, id).toContain('Page not found');
    }
    expect(await userStatus(bobToken)).toBe(200);
    expect((await tokenRows('bob')).at(-1)!.revoked_at).toBeNull();
  });

  it('refuses a delete without the page’s authenticity token, with another person’s, or from another site', async () => {
    await alice.get('/settings/tokens/new');
    const made = await alice.post('/settings/tokens', { note: 'kept', scopes: 'gist', expiration: '30' });
    const token = shownToken(made.text)!;
    const id = (await tokenRows('alice')).at(-1)!.id;
    const bob = new WebClient(s.url);
    await bob.signIn('bob', PASSWORD);
    await bob.get('/settings/tokens');
    for (const [fields, headers] of [
      [{ authenticity_token: '' }, {}],
      [{ authenticity_token: bob.token }, {}],
      [{}, { 'sec-fetch-site': 'cross-site' }],
      [{}, { origin: 'https://evil.example' }],
    ] as const) {
      const r = await alice.post(`/settings/tokens/${id}/delete`, fields, headers);
      expect(r.status).toBe(403);
    }
    // Bob's own session and token cannot delete it either.
    expect((await bob.post(`/settings/tokens/${id}/delete`, {})).status).toBe(404);
    expect(await userStatus(token)).toBe(200);
  });
});
