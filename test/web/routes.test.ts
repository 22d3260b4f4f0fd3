// The web routes over plain HTTP: git, raw bytes and the API keep working beside the pages; browsers get HTML pages and
// the HTML 404, other clients the API's JSON 404; every response carries the CSP; pages are anonymous, outside the
// rate limit, never stale (cached by the change stamp); zip and tar.gz downloads; large, binary and image files.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, withCredentials } from '../gists/git-tools.js';
import { startServer, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let s: TestServer;
let alice: { login: string; token: string };
let gist: any;
let work: string;

async function page(
  url: string,
  headers: Record<string, string> = HTML,
): Promise<{ status: number; type: string; text: string; headers: Headers }> {
  const r = await fetch(url, { headers });
  return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text(), headers: r.headers };
}

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 5 } });
  alice = await s.userWithToken('alice', ['gist']);
  const r = await s.api('POST', '/gists', {
    token: alice.token,
    body: { description: 'v1', public: true, files: { 'a.txt': { content: 'first\n' } } },
  });
  if (r.status !== 201) throw new Error(`gist: ${r.status} ${r.text}`);
  gist = r.body;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-web-'));
});
afterAll(async () => {
  await s?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('the pages beside git, raw files and the API', () => {
  it('leaves git clone at <id>.git and <id>, raw URLs and GET /gists/{id} as they were', async () => {
    const head = gist.history[0].version;
    for (const url of [gist.git_pull_url, gist.html_url]) {
      expect(await git(['ls-remote', url, 'HEAD'], work)).toBe(`${head}\tHEAD\n`);
    }
    const raw = await page(gist.files['a.txt'].raw_url);
    expect(raw.status).toBe(200);
    expect(raw.type).toBe('text/plain; charset=utf-8');
    expect(raw.text).toBe('first\n');
    const api = await s.api('GET', `/gists/${gist.id}`);
    expect(api.status).toBe(200);
    expect(api.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(api.body.id).toBe(gist.id);
  });

  it('answers the html_url with the page for browsers and other clients alike', async () => {
    for (const headers of [HTML, { accept: '*/*' }, {}]) {
      const r = await page(gist.html_url, headers);
      expect(r.status).toBe(200);
      expect(r.type).toBe('text/html; charset=utf-8');
      expect(r.text).toMatch(/^<!DOCTYPE html>/);
    }
  });

  it('answers what does not exist with the HTML page for browsers and the API 404 for other clients', async () => {
    for (const url of [
      `${s.url}/gist/ffffffffffffffffffffffffffffffff`,
      `${s.url}/gist/nobody`,
      `${gist.html_url}/revisions?page=2`,
      `${s.url}/gist/${gist.id}.js?file=x`,
      `${s.url}/gist/alice/${gist.id}/archive/${'0'.repeat(40)}.zip`,
    ]) {
      const browser = await page(url);
      expect(browser.status, url).toBe(404);
      expect(browser.type, url).toBe('text/html; charset=utf-8');
      expect(browser.text, url).toContain('<h1>Page not found</h1>');
      const client = await page(url, { accept: 'application/vnd.service+json' });
      expect(client.status, url).toBe(404);
      expect(JSON.parse(client.text), url).toEqual({
        message: 'Not Found',
        documentation_url: 'https://docs.github.com/rest',
        status: '404',
      });
    }
  });

  it('sends a Content-Security-Policy without inline scripts, and nosniff, with every page, stylesheet, script and 404', async () => {
    for (const url of [
      gist.html_url,
      `${s.url}/gist/discover`,
      `${s.url}/gist/alice`,
      `${gist.html_url}/revisions`,
      `${s.url}/gist/${gist.id}.js`,
      `${s.url}/-/web.css`,
      `${s.url}/gist/nobody`,
    ]) {
      const r = await page(url);
      const csp = r.headers.get('content-security-policy') ?? '';
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).toContain("object-src 'none'");
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).not.toContain('unsafe-inline');
      expect(r.headers.get('x-content-type-options'), url).toBe('nosniff');
    }
    const css = await page(`${s.url}/-/web.css`);
    expect(css.type).toBe('text/css; charset=utf-8');
    expect(css.text).toContain('prefers-color-scheme: dark');
  });
});

describe('pages are the same for everyone', () => {
  it('shows only public gists on a user page, even to the owner with a token; pages are not rate limited', async () => {
    const secret = await s.api('POST', '/gists', {
      token: alice.token,
      body: { public: false, files: { 'hidden.txt': { content: 'x\n' } } },
    });
    expect(secret.status).toBe(201);
    const own = await page(`${s.url}/gist/alice`, { ...HTML, authorization: `token ${alice.token}` });
    expect(own.status).toBe(200);
    expect(own.text).toContain(gist.id);
    expect(own.text).not.toContain(secret.body.id);
    // The anonymous API limit here is 5 an hour; pages do not count against it.
    for (let i = 0; i < 8; i++) {
      const r = await page(gist.html_url);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });

  it('is never stale: a change shows on the next request; an unchanged page answers If-None-Match with 304', async () => {
    const before = await page(gist.html_url);
    expect(before.text).toContain('<p class="description">v1</p>');
    const again = await page(gist.html_url, { ...HTML, 'if-none-match': before.headers.get('etag')! });
    expect(again.status).toBe(304);
    const patched = await s.api('PATCH', `/gists/${gist.id}`, {
      token: alice.token,
      body: { description: 'v2', files: { 'a.txt': { content: 'second\n' } } },
    });
    expect(patched.status).toBe(200);
    const after = await page(gist.html_url);
    expect(after.text).toContain('<p class="description">v2</p>');
    expect(after.text).toContain('second');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    gist = patched.body;
  });
});

describe('GET /gist/:owner/:id/archive/:sha.(zip|tar.gz)', () => {
  it('downloads the files at a revision under <id>-<sha>/, as zip and as tar.gz', async () => {
    const name = `${'ü'.repeat(60)}.txt`; // over tar's 100-byte name field, and not ASCII: a pax record
    const r = await s.api('PATCH', `/gists/${gist.id}`, { token: alice.token, body: { files: { [name]: { content: 'long name\n' } } } });
    expect(r.status).toBe(200);
    const [head, previous] = [r.body.history[0].version, r.body.history[1].version];
    const folder = `${gist.id}-${head}`;
    const tgz = await fetch(`${s.url}/gist/alice/${gist.id}/archive/${head}.tar.gz`);
    expect(tgz.status).toBe(200);
    expect(tgz.headers.get('content-type')).toBe('application/gzip');
    expect(tgz.headers.get('content-disposition')).toBe(`attachment; filename="${folder}.tar.gz"`);
    const tarDir = path.join(work, 'tar');
    fs.mkdirSync(tarDir);
    fs.writeFileSync(path.join(work, 'g.tar.gz'), Buffer.from(await tgz.arrayBuffer()));
    await run('tar', ['-xzf', path.join(work, 'g.tar.gz'), '-C', tarDir]);
    expect(fs.readdirSync(path.join(tarDir, folder)).sort()).toEqual(['a.txt', name]);
    expect(fs.readFileSync(path.join(tarDir, folder, 'a.txt'), 'utf8')).toBe('second\n');
    expect(fs.readFileSync(path.join(tarDir, folder, name), 'utf8')).toBe('long name\n');

    const zipped = await fetch(`${s.url}/gist/alice/${gist.id}/archive/${previous}.zip`);
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get('content-type')).toBe('application/zip');
    fs.writeFileSync(path.join(work, 'g.zip'), Buffer.from(await zipped.arrayBuffer()));
    const listing = await run('python3', [
      '-c',
      'import sys, zipfile, json; z = zipfile.ZipFile(sys.argv[1]); z.testzip(); print(json.dumps({n: z.read(n).decode() for n in z.namelist()}))',
      path.join(work, 'g.zip'),
    ]);
    expect(JSON.parse(listing.stdout)).toEqual({ [`${gist.id}-${previous}/`]: '', [`${gist.id}-${previous}/a.txt`]: 'second\n' });
    // Someone else's name in the URL is not this gist.
    expect((await fetch(`${s.url}/gist/bob/${gist.id}/archive/${head}.zip`)).status).toBe(404);
  });
});

describe('files that are not plain text', () => {
  it('cuts a large file with a raw link, names a binary file, shows a PNG pushed with git', async () => {
    const big = 'a line of a large file\n'.repeat(30_000); // 690,000 bytes
    const created = await s.api('POST', '/gists', { token: alice.token, body: { public: true, files: { 'big.txt': { content: big } } } });
    expect(created.status).toBe(201);
    const clone = path.join(work, 'clone');
    await git(['clone', '-q', withCredentials(created.body.git_push_url, 'alice', alice.token), clone], work);
    fs.writeFileSync(path.join(clone, 'dot.png'), PNG);
    fs.writeFileSync(path.join(clone, 'blob.bin'), Buffer.from([0, 1, 2, 3, 255, 254]));
    await git(['add', '.'], clone);
    await git(['commit', '-q', '-m', 'binary files'], clone);
    await git(['push', '-q', 'origin', 'HEAD'], clone);
    const r = await page(created.body.html_url);
    expect(r.status).toBe(200);
    expect(r.text).toContain('This file is 673.8 KB; only its beginning is shown');
    const shown = /<code class="hljs">([^<]*)<\/code>/.exec(r.text)?.[1] ?? '';
    expect(shown.length).toBeLessThanOrEqual(512 * 1024);
    expect(shown.length).toBeGreaterThan(500 * 1024);
    expect(`${shown}\n`).toBe(big.slice(0, shown.length + 1)); // whole lines from the start
    expect(r.text).toContain(`<img src="data:image/png;base64,${PNG.toString('base64')}" alt="dot.png">`);
    expect(r.text).toMatch(/Binary file not shown: <a href="[^"]+\/raw\/[0-9a-f]{40}\/blob\.bin">view the raw file<\/a>/);
  });
});

describe('images in Markdown', () => {
  it("shows the gist's own image files inline and images from other hosts through the image proxy (the CSP loads none)", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>\n';
    const created = await s.api('POST', '/gists', {
      token: alice.token,
      body: {
        public: true,
        files: {
          'README.md': { content: '![the logo](logo.svg) and ![remote](https://example.com/x.png)\n' },
          'logo.svg': { content: svg },
        },
      },
    });
    expect(created.status).toBe(201);
    const r = await page(created.body.html_url);
    expect(r.text).toContain(`<img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}" alt="the logo" />`);
    const hex = Buffer.from('https://example.com/x.png').toString('hex');
    expect(r.text).toMatch(new RegExp(`<img src="${s.url}/camo/[0-9a-f]{64}/${hex}" alt="remote" />`));
  });
});
