// A person's "Public profile" settings at /settings/profile, as GitHub's page has it ("Name", "Public email", "Bio",
// "URL", "Company", "Location", "Update profile"), and `PATCH /user`, the API's way to the same rules: what is saved
// shows on GET /user and on the profile pages, every problem is shown under its field with what was typed kept, HTML
// typed anywhere is shown as text on every page, and forms without this session's token change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery staple 42';
const HOSTILE = `<script>alert(1)</script><img src=x onerror="alert('x')">&amp;`;
const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;amp;';
/** The people of these tests, each signed in once before them (a password's hash is costly: see docs/signing-in.md). */
const PEOPLE = ['dana', 'erin', 'fay', 'hal', 'ida', 'jon'];
const browsers = new Map<string, WebClient>();
let s: TestServer;

beforeAll(async () => {
  s = await startServer();
  await Promise.all(
    PEOPLE.map(async (login) => {
      await s.createUser(login, { password: PASSWORD, email: `${login}@example.com` });
      const web = new WebClient(s.url);
      expect((await web.signIn(login, PASSWORD)).status).toBe(303);
      browsers.set(login, web);
    }),
  );
}, 180_000);
afterAll(() => s?.close());

function signedIn(login: string): WebClient {
  const web = browsers.get(login);
  if (!web) throw new Error(`${login} is not one of PEOPLE`);
  return web;
}

async function profileRow(login: string) {
  return s.db
    .selectFrom('users')
    .select(['name', 'email', 'bio', 'blog', 'company', 'location', 'updated_at'])
    .where('login', '=', login)
    .executeTakeFirstOrThrow();
}

/** The error shown under a field, tied to it for screen readers; undefined when there is none. */
function fieldError(page: string, name: string): string | undefined {
  const tied = new RegExp(`<(?:input|textarea) id="field-${name}"[^>]*aria-invalid="true"[^>]*aria-describedby="[^"]*field-${name}-error`);
  if (!tied.test(page)) return undefined;
  return new RegExp(`<p class="field-error" id="field-${name}-error">([^<]*)</p>`).exec(page)?.[1];
}

const FULL = {
  name: 'Erin Example',
  email: 'erin.public@example.com',
  bio: 'Writes small tools.\nLikes gists.',
  blog: 'erin.example.com',
  company: 'Example Corp',
  location: 'Lyon, France',
};

describe('GET /settings/profile', () => {
  it('sends a visitor to sign in; shows the signed-in person GitHub’s form, first in the settings navigation', async () => {
    const visitor = await new WebClient(s.url).get('/settings/profile');
    expect(visitor.status).toBe(303);
    expect(visitor.location).toBe(`${s.url}/login?return_to=${encodeURIComponent('/settings/profile')}`);

    const web = signedIn('dana');
    const page = await web.get('/settings/profile');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(page.text).toContain('<h1>Public profile</h1>');
    const nav = /<nav class="settings-nav"[^>]*>(.*?)<\/nav>/s.exec(page.text)?.[1] ?? '';
    expect(nav).toMatch(/^<a href="[^"]*\/settings\/profile" aria-current="page">Public profile<\/a>/);
    for (const [name, label] of [
      ['name', 'Name'],
      ['email', 'Public email'],
      ['bio', 'Bio'],
      ['blog', 'URL'],
      ['company', 'Company'],
      ['location', 'Location'],
    ]) {
      expect(page.text).toContain(`<label for="field-${name}">${label}</label>`);
    }
    expect(page.text).toContain('<textarea id="field-bio" name="bio"');
    expect(page.text).toContain('value="dana@example.com"');
    expect(page.text).toMatch(/<form class="form" method="post" action="[^"]*\/settings\/profile">/);
    expect(page.text).toContain('>Update profile</button>');
    expect(page.text).toMatch(/<a href="[^"]*\/settings\/security">Password and authentication<\/a>/);
    // The other settings pages list it first too.
    expect((await web.get('/settings/security')).text).toMatch(
      /<nav class="settings-nav"[^>]*><a href="[^"]*\/settings\/profile">Public profile/,
    );
  });
});

describe('POST /settings/profile', () => {
  it('saves every field: a 303 back to the page, which says so once; GET /user and the profile pages show them', async () => {
    const web = signedIn('erin');
    const token = await s.createToken('erin', { scopes: ['user'] });
    await web.get('/settings/profile');
    const saved = await web.post('/settings/profile', FULL);
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${s.url}/settings/profile`);
    const after = await web.get('/settings/profile');
    expect(after.text).toContain('<p class="flash flash-notice" role="status">Profile updated successfully</p>');
    expect(after.text).toContain('value="Erin Example"');
    expect(after.text).toContain('Writes small tools.\nLikes gists.</textarea>');
    expect((await web.get('/settings/profile')).text).not.toContain('Profile updated successfully');

    const me = await s.api('GET', '/user', { token });
    expect(me.body).toMatchObject({ ...FULL, login: 'erin' });
    const profile = await web.get('/erin');
    expect(profile.text).toContain('<span class="muted">Erin Example</span>');
    expect(profile.text).toContain('<p class="description bio">Writes small tools.\nLikes gists.</p>');
    expect(profile.text).toContain('<a href="https://erin.example.com" rel="nofollow ugc">erin.example.com</a>');
    expect(profile.text).toContain('<li>Example Corp</li>');
    expect(profile.text).toContain('<li>Lyon, France</li>');
    expect((await web.get('/gist/erin')).text).toContain('Erin Example');

    // Emptied fields are cleared (shown nowhere); spaces around a value are not kept.
    const cleared = await web.post('/settings/profile', {
      name: '  Erin  ',
      email: FULL.email,
      bio: '',
      blog: '',
      company: ' ',
      location: '',
    });
    expect(cleared.status).toBe(303);
    expect(await profileRow('erin')).toMatchObject({ name: 'Erin', bio: null, blog: null, company: null, location: null });
    const again = (await s.api('GET', '/user', { token })).body;
    expect([again.name, again.bio, again.blog, again.company, again.location]).toEqual(['Erin', null, '', null, null]);
    const bare = (await web.get('/erin')).text;
    expect(bare).not.toContain('Example Corp');
    expect(bare).not.toContain('rel="nofollow ugc"');
  });

  it('shows every problem under its field, what was typed kept, and changes nothing', async () => {
    const web = signedIn('fay');
    await s.createUser('gus', { email: 'Gus@Example.com' });
    await web.get('/settings/profile');
    const before = await profileRow('fay');
    const typed = {
      name: 'Fay\nFoo',
      email: 'not an address',
      bio: 'b'.repeat(161),
      blog: `https://${'u'.repeat(250)}.example`,
      company: 'c'.repeat(256),
      location: 'l'.repeat(256),
    };
    const refused = await web.post('/settings/profile', typed);
    expect(refused.status).toBe(422);
    expect(fieldError(refused.text, 'name')).toBe('Name must be one line of text');
    expect(fieldError(refused.text, 'email')).toBe('Public email is not a valid address');
    expect(fieldError(refused.text, 'bio')).toBe('Bio is too long (maximum is 160 characters)');
    expect(fieldError(refused.text, 'blog')).toBe('URL is too long (maximum is 255 characters)');
    expect(fieldError(refused.text, 'company')).toBe('Company is too long (maximum is 255 characters)');
    expect(fieldError(refused.text, 'location')).toBe('Location is too long (maximum is 255 characters)');
    expect(refused.text).toContain(`value="${typed.blog}"`);
    expect(refused.text).toContain('value="not an address"');
    expect(refused.text).toContain(`>\n${typed.bio}</textarea>`);
    expect(refused.text).not.toContain('Profile updated successfully');
    expect(await profileRow('fay')).toEqual(before);

    // At the limits exactly, in characters (not bytes): saved. Another account's address (any case) is refused.
    const atLimits = { name: 'é'.repeat(255), email: 'fay@example.com', bio: '😀'.repeat(160), blog: '', company: '', location: '' };
    expect((await web.post('/settings/profile', atLimits)).status).toBe(303);
    expect((await profileRow('fay')).bio).toBe('😀'.repeat(160));
    const taken = await web.post('/settings/profile', { ...atLimits, email: 'gus@example.COM' });
    expect(taken.status).toBe(422);
    expect(fieldError(taken.text, 'email')).toBe('Public email is already in use by another account');
    expect((await profileRow('fay')).email).toBe('fay@example.com');
    // Fields that were fine keep what was typed, without an error of their own.
    expect(fieldError(taken.text, 'name')).toBeUndefined();
    expect(taken.text).toContain(`value="${'é'.repeat(255)}"`);
  });

  it('shows HTML typed in any field as text, on the settings page, the refused form, the profile and gist pages', async () => {
    const web = signedIn('hal');
    await web.get('/settings/profile');
    const hostile = {
      name: HOSTILE,
      email: 'hal@example.com',
      bio: HOSTILE,
      blog: `javascript:${HOSTILE}`,
      company: HOSTILE,
      location: HOSTILE,
    };
    expect((await web.post('/settings/profile', hostile)).status).toBe(303);
    expect(await profileRow('hal')).toMatchObject({ name: HOSTILE, bio: HOSTILE, company: HOSTILE, location: HOSTILE });
    const refused = await web.post('/settings/profile', { ...hostile, email: `${HOSTILE}@x` });
    expect(refused.status).toBe(422);
    const pages = [
      (await web.get('/settings/profile')).text,
      refused.text,
      (await web.get('/hal')).text,
      (await new WebClient(s.url).get('/hal')).text,
      (await web.get('/gist/hal')).text,
    ];
    for (const text of pages) {
      expect(text).not.toContain('<script>alert(1)');
      expect(text).not.toContain('<img src=x');
      expect(text).toContain(ESCAPED);
    }
    // A URL that is no web address is shown, never linked.
    expect(pages[2]).not.toMatch(/href="javascript:/i);
    expect(pages[2]).toContain(`<li>javascript:${ESCAPED}</li>`);
  });

  it('refuses a post without its token, with another session’s token or from another site (403), changing nothing', async () => {
    const web = signedIn('ida');
    const other = signedIn('jon');
    await other.get('/settings/profile');
    await web.get('/settings/profile');
    const before = await profileRow('ida');
    for (const r of [
      await web.post('/settings/profile', { ...FULL, email: 'ida2@example.com', authenticity_token: '' }),
      await web.post('/settings/profile', { ...FULL, email: 'ida2@example.com', authenticity_token: other.token }),
      await web.post('/settings/profile', { ...FULL, email: 'ida2@example.com' }, { 'sec-fetch-site': 'cross-site' }),
    ]) {
      expect(r.status).toBe(403);
    }
    expect(await profileRow('ida')).toEqual(before);
    // A visitor's post (no session) changes nothing either: it is sent to sign in.
    const visitor = new WebClient(s.url);
    await visitor.get('/login');
    const anonymous = await visitor.post('/settings/profile', FULL);
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe(`${s.url}/login?return_to=${encodeURIComponent('/settings/profile')}`);
  });
});

describe('PATCH /user', () => {
  it('changes the caller’s profile under the same rules, answering the private user as GET /user does', async () => {
    const kim = await s.userWithToken('kim', ['user']);
    const r = await s.api('PATCH', '/user', {
      token: kim.token,
      body: { ...FULL, email: 'kim@example.com', hireable: true, twitter_username: 'kim' },
    });
    expect(r.status).toBe(200);
    const body = checkSchema(r, 'PATCH /user');
    expect(body).toMatchObject({
      ...FULL,
      email: 'kim@example.com',
      login: 'kim',
      user_view_type: 'private',
      hireable: null,
      twitter_username: null,
    });
    expect((await s.api('GET', '/user', { token: kim.token })).body).toEqual(body);
    expect(r.headers.get('last-modified')).toBe(new Date((await profileRow('kim')).updated_at).toUTCString());

    // Only what the body names changes; null and '' clear.
    const partial = await s.api('PATCH', '/user', { token: kim.token, body: { company: null, location: '' } });
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ name: FULL.name, bio: FULL.bio, company: null, location: null });
    expect((await s.api('PATCH', '/user', { token: kim.token })).status).toBe(200);

    // The same refusals as the page: 422 in GitHub's shape, one error per field, nothing changed.
    const before = await profileRow('kim');
    const refused = await s.api('PATCH', '/user', {
      token: kim.token,
      body: { name: 'a\nb', bio: 'b'.repeat(161), email: 'nope', blog: 'x'.repeat(256) },
    });
    expect(refused.status).toBe(422);
    checkSchema(refused, 'PATCH /user');
    expect(refused.body.errors).toEqual([
      { resource: 'User', field: 'name', code: 'invalid', message: 'name must be one line of text' },
      { resource: 'User', field: 'bio', code: 'invalid', message: 'bio is too long (maximum is 160 characters)' },
      { resource: 'User', field: 'email', code: 'invalid', message: 'email is not a valid address' },
      { resource: 'User', field: 'blog', code: 'invalid', message: 'blog is too long (maximum is 255 characters)' },
    ]);
    await s.createUser('mia', { email: 'mia@example.com' });
    const taken = await s.api('PATCH', '/user', { token: kim.token, body: { email: 'MIA@example.com' } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual([
      { resource: 'User', field: 'email', code: 'already_exists', message: 'email is already in use by another account' },
    ]);
    const wrongType = await s.api('PATCH', '/user', { token: kim.token, body: { name: 7 } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors[0]).toMatchObject({ resource: 'User', field: 'name', code: 'invalid' });
    expect(await profileRow('kim')).toEqual(before);

    // What the API set is what the settings page and the profile page show.
    const web = new WebClient(s.url);
    expect((await web.get('/kim')).text).toContain('<span class="muted">Erin Example</span>');
  });

  it('needs the user scope of a classic token (404 without, as GitHub), or Profile write of a fine-grained one', async () => {
    await s.createUser('lee');
    const body = { name: 'Lee' };
    const gistOnly = await s.createToken('lee', { scopes: ['gist'] });
    const readUser = await s.createToken('lee', { scopes: ['read:user'] });
    expect((await s.api('PATCH', '/user', { token: gistOnly, body })).status).toBe(404);
    expect((await s.api('PATCH', '/user', { token: readUser, body })).status).toBe(404);
    expect((await s.api('PATCH', '/user', { body })).status).toBe(401);
    const readProfile = await s.createToken('lee', { kind: 'fine_grained', permissions: { profile: 'read' } });
    const denied = await s.api('PATCH', '/user', { token: readProfile, body });
    expect([denied.status, denied.body.message]).toEqual([403, 'Resource not accessible by personal access token']);
    expect((await profileRow('lee')).name).toBeNull();
    const writeProfile = await s.createToken('lee', { kind: 'fine_grained', permissions: { profile: 'write' } });
    expect((await s.api('PATCH', '/user', { token: writeProfile, body })).body.name).toBe('Lee');
    const classic = await s.createToken('lee', { scopes: ['user'] });
    expect((await s.api('PATCH', '/user', { token: classic, body: { name: 'Lee L.' } })).body.name).toBe('Lee L.');
  });
});
