// Uploading a profile picture at /settings/profile ("Profile picture", "Upload new picture", "Remove"), a multipart form
// as browsers post it: PNG, JPEG, GIF and WebP up to 1 MB known by their bytes (never by name or declared type) are
// served as they are at the account's avatar_url (nosniff, a sandboxing CSP, an ETag that names the picture); SVG,
// HTML, empty and oversized files are refused under the field with nothing stored; Remove brings the identicon back;
// forms without this session's token store nothing; deleting the user deletes the picture.
import crypto from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identiconPng } from '../../src/web/identicon.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery staple 42';
const MB = 1024 * 1024;
const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/avatars/${name}`, import.meta.url));
/** 8×8 pictures Chromium's canvas encoded (a green square with a white one inside). */
const JPEG = fixture('green-8x8.jpg');
const WEBP = fixture('green-8x8.webp');
/** The smallest GIF89a: one transparent pixel. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>alert(1)</script></svg>');
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
const WRONG_KIND = 'Upload a PNG, JPEG, GIF or WebP picture: SVG and other files are not accepted.';

/** A real `size`×`size` RGB PNG of one colour, encoded here (signature, IHDR, IDAT, IEND with their CRCs). */
function png(size: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(type)) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const PNG = png(16, [31, 136, 61]);

/** The people of these tests, each signed in once before them (a password's hash is costly: see docs/signing-in.md). */
const PEOPLE = ['ann', 'bea', 'cal', 'dee', 'eve', 'fox', 'gil', 'hap', 'ivy', 'jay', 'kit'];
const browsers = new Map<string, WebClient>();
let s: TestServer;
beforeAll(async () => {
  s = await startServer();
  await Promise.all(
    PEOPLE.map(async (login) => {
      await s.createUser(login, { password: PASSWORD });
      const web = new WebClient(s.url);
      expect((await web.signIn(login, PASSWORD)).status).toBe(303);
      browsers.set(login, web);
    }),
  );
}, 180_000);
afterAll(() => s?.close());

/** A person's browser, on their settings page (its forms' token read). */
async function signedIn(login: string): Promise<WebClient> {
  const web = browsers.get(login);
  if (!web) throw new Error(`${login} is not one of PEOPLE`);
  await web.get('/settings/profile');
  return web;
}

function upload(web: WebClient, name: string, bytes: Uint8Array, type?: string, headers: Record<string, string> = {}) {
  return web.postMultipart('/settings/profile/avatar', {}, { avatar: { name, type, bytes } }, headers);
}

async function avatar(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(new URL(path, s.url), { headers: { accept: 'image/*', ...headers } });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

async function storedPicture(login: string) {
  return s.db
    .selectFrom('avatars')
    .innerJoin('users', 'users.id', 'avatars.user_id')
    .select(['avatars.content', 'avatars.media_type', 'avatars.sha'])
    .where('users.login', '=', login)
    .executeTakeFirst();
}

async function userId(login: string): Promise<number> {
  return (await s.db.selectFrom('users').select('id').where('login', '=', login).executeTakeFirstOrThrow()).id;
}

/** The message under the file input, tied to it for screen readers. */
function pictureError(page: string): string | undefined {
  if (!/<input id="field-avatar"[^>]*aria-invalid="true"[^>]*aria-describedby="[^"]*field-avatar-error/.test(page)) return undefined;
  return /<p class="field-error" id="field-avatar-error">([^<]*)<\/p>/.exec(page)?.[1];
}

const sha256 = (b: Buffer) => crypto.hash('sha256', b, 'hex');

describe('the Profile picture form', () => {
  it('is a multipart form with a file input that takes pictures, which works without JavaScript', async () => {
    const web = await signedIn('ann');
    const page = (await web.get('/settings/profile')).text;
    expect(page).toContain('<h2>Profile picture</h2>');
    expect(page).toMatch(
      /<form class="form" method="post" action="[^"]*\/settings\/profile\/avatar" enctype="multipart\/form-data">\n<input type="hidden" name="authenticity_token"/,
    );
    expect(page).toContain('<label for="field-avatar">Upload new picture</label>');
    expect(page).toMatch(/<input id="field-avatar" name="avatar" type="file" accept="image\/png,image\/jpeg,image\/gif,image\/webp"/);
    // Nothing on the page itself needs a script: no script and no event handler in it.
    const main = page.slice(page.indexOf('<main'), page.indexOf('</main>'));
    expect(main).toContain('field-avatar');
    expect(main).not.toMatch(/<script|\son[a-z]+=/i);
    // No picture yet: nothing to remove, and the page shows the identicon.
    expect(page).not.toContain('>Remove</button>');
    expect(page).toMatch(/<img class="avatar-preview" src="[^"]*\/avatars\/ann\?s=200"/);
  });
});

describe('POST /settings/profile/avatar', () => {
  it('takes a PNG: /avatars/<login> and the API’s avatar_url answer exactly its bytes, nosniff, sandboxed, tagged by its hash', async () => {
    const web = await signedIn('bea');
    const r = await upload(web, 'me.png', PNG, 'image/png');
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${s.url}/settings/profile`);
    const page = (await web.get('/settings/profile')).text;
    expect(page).toContain('<p class="flash flash-notice" role="status">Your profile picture has been updated.</p>');
    expect(page).toContain(`/avatars/bea?s=200&amp;v=${sha256(PNG).slice(0, 16)}"`);
    expect(page).toContain('>Remove</button>');
    expect(await storedPicture('bea')).toEqual({ content: PNG, media_type: 'image/png', sha: sha256(PNG) });

    const served = await avatar('/avatars/bea');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.body.equals(PNG)).toBe(true);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toMatch(/^default-src 'none';.*\bsandbox$/);
    expect(served.headers.get('etag')).toBe(`"${sha256(PNG)}"`);
    expect(served.headers.get('cache-control')).toBe('public, max-age=300');
    // Every size asked for gets the same bytes (the browser scales them); a client holding them gets a 304.
    for (const q of ['?s=40', '?size=460', '?s=96&v=abc']) expect((await avatar(`/avatars/BEA${q}`)).body.equals(PNG)).toBe(true);
    expect((await avatar('/avatars/bea', { 'if-none-match': `"${sha256(PNG)}"` })).status).toBe(304);

    const api = await s.api('GET', '/users/bea');
    const viaApi = await avatar(api.body.avatar_url);
    expect([viaApi.status, viaApi.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(viaApi.body.equals(PNG)).toBe(true);
    // Someone else's avatar is still their identicon.
    expect((await avatar('/avatars/ann')).body.equals(identiconPng(await userId('ann'), 420))).toBe(true);
  });

  it('knows JPEG, GIF and WebP by their bytes, whatever name and type the browser gave them; a new one replaces the old', async () => {
    const web = await signedIn('cal');
    const tags = new Set<string>();
    for (const [bytes, name, declared, type] of [
      [JPEG, 'photo.png', 'image/png', 'image/jpeg'],
      [GIF, 'dot.txt', 'text/plain', 'image/gif'],
      [WEBP, 'pic', undefined, 'image/webp'],
    ] as const) {
      expect((await upload(web, name, bytes, declared)).status).toBe(303);
      const served = await avatar('/avatars/cal?s=64');
      expect([served.status, served.headers.get('content-type')]).toEqual([200, type]);
      expect(served.body.equals(bytes)).toBe(true);
      tags.add(served.headers.get('etag') ?? '');
      expect(
        await s.db
          .selectFrom('avatars')
          .select('media_type')
          .where('user_id', '=', await userId('cal'))
          .execute(),
      ).toEqual([{ media_type: type }]);
    }
    expect(tags.size).toBe(3);
  });

  it('refuses SVG, HTML named .png, an empty file and no file under the field, storing nothing', async () => {
    const web = await signedIn('dee');
    expect((await upload(web, 'ok.png', PNG, 'image/png')).status).toBe(303);
    await web.get('/settings/profile');
    for (const [name, bytes, type, message] of [
      ['face.svg', SVG, 'image/svg+xml', WRONG_KIND],
      ['face.png', HTML, 'image/png', WRONG_KIND],
      ['empty.png', Buffer.alloc(0), 'image/png', `The file is empty. ${WRONG_KIND}`],
      ['', Buffer.alloc(0), 'application/octet-stream', 'Choose a picture to upload.'],
    ] as const) {
      const r = await upload(web, name, bytes, type);
      expect([name, r.status]).toEqual([name, 422]);
      expect(pictureError(r.text)).toBe(message);
      expect(r.text).not.toContain('alert(');
    }
    // A form without a file part at all, as a program might post it.
    const none = await web.postMultipart('/settings/profile/avatar', { note: 'no file' });
    expect([none.status, pictureError(none.text)]).toEqual([422, 'Choose a picture to upload.']);
    expect((await storedPicture('dee'))?.sha).toBe(sha256(PNG));
    expect((await avatar('/avatars/dee')).body.equals(PNG)).toBe(true);
  });

  it('takes 1 MB and refuses a byte more (413, under the field); a 50 MB upload is refused the same, nothing stored', async () => {
    const web = await signedIn('eve');
    const magic = PNG.subarray(0, 8);
    const over = Buffer.concat([magic, Buffer.alloc(MB + 1 - magic.length)]);
    const r = await upload(web, 'big.png', over, 'image/png');
    expect(r.status).toBe(413);
    expect(pictureError(r.text)).toBe('The picture is larger than 1 MB: choose a smaller one.');
    const huge = await upload(web, 'huge.png', Buffer.concat([magic, Buffer.alloc(50 * MB)]), 'image/png');
    expect(huge.status).toBe(413);
    expect(pictureError(huge.text)).toBe('The picture is larger than 1 MB: choose a smaller one.');
    expect(await storedPicture('eve')).toBeUndefined();
    expect((await avatar('/avatars/eve')).body.equals(identiconPng(await userId('eve'), 420))).toBe(true);

    const limit = Buffer.concat([magic, Buffer.alloc(MB - magic.length)]);
    expect((await upload(web, 'limit.png', limit, 'image/png')).status).toBe(303);
    expect((await storedPicture('eve'))?.content.length).toBe(MB);
  }, 120_000);

  it('answers a body that is no readable form, or carries two files, with a 4xx page, storing nothing; no file chosen: asks for one', async () => {
    const web = await signedIn('fox');
    const cookie = [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const post = (contentType: string, body: string | FormData) =>
      fetch(`${s.url}/settings/profile/avatar`, {
        method: 'POST',
        headers: { accept: 'text/html', cookie, 'sec-fetch-site': 'same-origin', ...(contentType ? { 'content-type': contentType } : {}) },
        body,
      });
    const token = `--b\r\nContent-Disposition: form-data; name="authenticity_token"\r\n\r\n${web.token}\r\n`;
    // A body cut short in the middle of the picture, and a field named to reach the prototype: 400 pages.
    const cut = await post(
      'multipart/form-data; boundary=b',
      `${token}--b\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\n\x89PNG`,
    );
    expect(cut.status).toBe(400);
    expect(await cut.text()).toContain('The form could not be read.');
    const proto = await post(
      'multipart/form-data; boundary=b',
      `${token}--b\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nx\r\n--b--\r\n`,
    );
    expect(proto.status).toBe(400);
    // What a browser sends when no file was chosen (an empty filename): the form again, asking for one.
    const empty = await post(
      'multipart/form-data; boundary=b',
      `${token}--b\r\nContent-Disposition: form-data; name="avatar"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--b--\r\n`,
    );
    expect([empty.status, pictureError(await empty.text())]).toEqual([422, 'Choose a picture to upload.']);
    const two = new FormData();
    two.append('authenticity_token', web.token);
    two.append('avatar', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'a.png');
    two.append('avatar', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'b.png');
    const twice = await post('', two);
    expect(twice.status).toBe(413);
    expect(await twice.text()).toContain('Send one picture of at most 1 MB with the form.');
    expect(await storedPicture('fox')).toBeUndefined();
  });

  it('refuses an upload without this session’s token or from another site (403); a visitor is sent to sign in', async () => {
    const web = await signedIn('gil');
    const other = await signedIn('hap');
    for (const r of [
      await web.postMultipart(
        '/settings/profile/avatar',
        { authenticity_token: '' },
        { avatar: { name: 'a.png', type: 'image/png', bytes: PNG } },
      ),
      await web.postMultipart('/settings/profile/avatar', { authenticity_token: other.token }, { avatar: { name: 'a.png', bytes: PNG } }),
      await upload(web, 'a.png', PNG, 'image/png', { 'sec-fetch-site': 'cross-site' }),
      await upload(web, 'a.png', PNG, 'image/png', { origin: 'https://evil.example' }),
    ]) {
      expect(r.status).toBe(403);
    }
    expect(await storedPicture('gil')).toBeUndefined();
    const visitor = new WebClient(s.url);
    await visitor.get('/login');
    const anonymous = await upload(visitor, 'a.png', PNG, 'image/png');
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe(`${s.url}/login?return_to=${encodeURIComponent('/settings/profile')}`);
    expect(await s.db.selectFrom('avatars').selectAll().execute()).not.toContainEqual(
      expect.objectContaining({ user_id: await userId('gil') }),
    );
  });
});

describe('POST /settings/profile/avatar/delete ("Remove")', () => {
  it('brings the identicon back, says so, and is refused without the session’s token', async () => {
    const web = await signedIn('ivy');
    const other = await signedIn('jay');
    expect((await upload(web, 'me.png', PNG, 'image/png')).status).toBe(303);
    await web.get('/settings/profile');
    expect((await web.post('/settings/profile/avatar/delete', { authenticity_token: other.token })).status).toBe(403);
    expect(await storedPicture('ivy')).toBeDefined();
    const removed = await web.post('/settings/profile/avatar/delete', {});
    expect([removed.status, removed.location]).toEqual([303, `${s.url}/settings/profile`]);
    const page = (await web.get('/settings/profile')).text;
    expect(page).toContain('Your profile picture has been removed.');
    expect(page).not.toContain('>Remove</button>');
    expect(await storedPicture('ivy')).toBeUndefined();
    const served = await avatar('/avatars/ivy?s=40');
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.body.equals(identiconPng(await userId('ivy'), 40))).toBe(true);
    expect(served.headers.get('etag')).not.toBe(`"${sha256(PNG)}"`);
  });
});

describe('deleting a user', () => {
  it('deletes their picture with them', async () => {
    const web = await signedIn('kit');
    expect((await upload(web, 'me.png', PNG, 'image/png')).status).toBe(303);
    const id = await userId('kit');
    expect(await s.db.selectFrom('avatars').select('user_id').where('user_id', '=', id).execute()).toHaveLength(1);
    expect((await s.api('DELETE', '/admin/users/kit', { token: s.adminToken })).status).toBe(204);
    expect(await s.db.selectFrom('avatars').select('user_id').where('user_id', '=', id).execute()).toEqual([]);
    expect((await avatar('/avatars/kit')).status).toBe(404);
  });
});
