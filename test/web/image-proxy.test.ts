// Images in rendered Markdown as on GitHub: a gist's own image by its raw_url and an image under hublet's own URL show as
// they are, a badge from another host shows through the image proxy (`/camo/<hmac>/<hex>`), all visible in Chromium
// under the unchanged page CSP; the proxy refuses a bad signature, a non-image, an oversize image, link-local, metadata
// and disallowed addresses (by redirect too), sends nothing of the visitor's upstream, and keeps what it fetched.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageSource } from '../../src/web/markdown.js';
import { git, withCredentials } from '../gists/git-tools.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { BrowserSession, seriousViolations, type Visit } from './browser.js';

let s: TestServer;
let browser: BrowserSession;
let upstream: Upstream;
let alice: { login: string; token: string };
let work: string;
/** The gist shown in the browser, its README's images, and the repository's raw image URL. */
let shown: any;
let logoRawUrl: string;
/** The proxy addresses of the refusal gist's images, by alt text. */
let proxied: Record<string, string>;

const BADGE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="90" height="20"><rect width="90" height="20" fill="#4c1"/><text x="45" y="14" font-size="11" text-anchor="middle" fill="#fff">build passing</text></svg>\n';
const OWN_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32"><rect width="64" height="32" fill="#0969da"/></svg>\n';
const MiB = 1024 * 1024;

function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A valid PNG of one color, `width` × `height` pixels. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x80)])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

interface Upstream {
  url: string;
  /** Every request it received: path and headers. */
  seen: { path: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** Another host (a second server on 127.0.0.1): badges, a page, oversize images, a 404, a redirect to the metadata address. */
async function startUpstream(): Promise<Upstream> {
  const seen: Upstream['seen'] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    const path = (req.url ?? '').split('?')[0];
    if (path === '/badge.svg' || path === '/headers.svg') {
      res.writeHead(200, { 'content-type': 'image/svg+xml;charset=utf-8', 'cache-control': 'max-age=300, s-maxage=300' });
      res.end(BADGE_SVG);
    } else if (path === '/badge.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png(40, 10));
    } else if (path === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!DOCTYPE html><title>not an image</title>');
    } else if (path === '/huge.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(6 * MiB) });
      res.end(Buffer.alloc(6 * MiB));
    } else if (path === '/streamed.png') {
      // No Content-Length: the proxy counts while it reads.
      res.writeHead(200, { 'content-type': 'image/png' });
      for (let i = 0; i < 6; i++) res.write(Buffer.alloc(MiB));
      res.end();
    } else if (path === '/hop.svg') {
      res.writeHead(302, { location: '/badge.svg?via=hop' });
      res.end();
    } else if (path === '/to-metadata.png') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function created(method: string, p: string, body: unknown): Promise<any> {
  const r = await s.api(method, p, { token: alice.token, body });
  if (r.status !== 201 && r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${r.text}`);
  return r.body;
}

/** The `<img>` addresses of a page's HTML, by alt text. */
async function imagesOf(url: string): Promise<Record<string, string>> {
  const text = await (await fetch(url, { headers: { accept: 'text/html' } })).text();
  const attribute = (v: string) => v.replace(/&amp;/g, '&').replace(/&quot;/g, '"');
  const out: Record<string, string> = {};
  for (const tag of text.match(/<img [^>]*>/g) ?? []) {
    const src = /\bsrc="([^"]*)"/.exec(tag)?.[1];
    const alt = /\balt="([^"]*)"/.exec(tag)?.[1];
    if (src !== undefined && alt !== undefined) out[attribute(alt)] = attribute(src);
  }
  return out;
}

async function visitClean(url: string): Promise<Visit> {
  const v = await browser.visit(url);
  expect(v.response?.status(), url).toBe(200);
  expect(v.problems, url).toEqual([]);
  return v;
}

/** Each image of the page's Markdown: its alt, address, and the width the browser decoded (0: not shown). */
function shownImages(v: Visit) {
  return v.page.locator('.markdown img').evaluateAll((imgs) =>
    imgs.map((i) => ({
      alt: i.getAttribute('alt'),
      src: i.getAttribute('src') ?? '',
      width: (i as HTMLImageElement).naturalWidth,
      complete: (i as HTMLImageElement).complete,
    })),
  );
}

beforeAll(async () => {
  upstream = await startUpstream();
  browser = await BrowserSession.start();
  s = await startServer({ config: { hookAllowedHosts: 'loopback' } });
  alice = await s.userWithToken('alice', ['repo', 'gist']);
  // A repository whose README shows its own PNG by its raw URL (hublet's own host) and a badge from the other host.
  const repo = await created('POST', '/user/repos', { name: 'site', auto_init: true });
  logoRawUrl = `${s.url}/alice/site/raw/${repo.default_branch}/logo.png`;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-web-images-'));
  const clone = path.join(work, 'site');
  await git(['clone', '-q', withCredentials(repo.clone_url, 'alice', alice.token), clone], work);
  fs.writeFileSync(path.join(clone, 'logo.png'), png(30, 15));
  fs.writeFileSync(path.join(clone, 'README.md'), `# Site\n\n![logo](${logoRawUrl}) ![build](${upstream.url}/badge.svg)\n`);
  await git(['add', '.'], clone);
  await git(['commit', '-q', '-m', 'logo and badge'], clone);
  await git(['push', '-q', 'origin', 'HEAD'], clone);

  // A gist whose README shows its own image by the raw_url the API gave it, the repository's image and two badges.
  const gist = await created('POST', '/gists', {
    public: true,
    files: { 'README.md': { content: '# Notes\n' }, 'diagram.svg': { content: OWN_SVG } },
  });
  const readme = [
    `![own diagram](${gist.files['diagram.svg'].raw_url})`,
    `![repository logo](${logoRawUrl})`,
    `![build](${upstream.url}/badge.svg)`,
    `![coverage](${upstream.url}/badge.png)`,
    `![redirected](${upstream.url}/hop.svg)`,
  ].join('\n\n');
  shown = await created('PATCH', `/gists/${gist.id}`, { files: { 'README.md': { content: `# Notes\n\n${readme}\n` } } });

  // A gist the browser never opens: one image per refusal, and one to see what reaches the other host.
  const refusals: Record<string, string> = {
    page: `${upstream.url}/page.html`,
    huge: `${upstream.url}/huge.png`,
    streamed: `${upstream.url}/streamed.png`,
    missing: `${upstream.url}/missing.png`,
    'link-local': 'http://169.254.169.254/latest/meta-data/iam/',
    'redirect to metadata': `${upstream.url}/to-metadata.png`,
    private: 'http://10.0.0.1/x.png',
    headers: `${upstream.url}/headers.svg`,
  };
  const markdown = Object.entries(refusals)
    .map(([alt, url]) => `![${alt}](${url})`)
    .join('\n\n');
  const other = await created('POST', '/gists', { public: true, files: { 'README.md': { content: markdown } } });
  proxied = await imagesOf(other.html_url);
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
  await upstream?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('Markdown images in Chromium', () => {
  it("shows a gist's own image by its raw_url, hublet's own image as it is, and other hosts' badges through the proxy", async () => {
    const v = await visitClean(shown.html_url);
    // The page's CSP is unchanged: images from hublet itself (and data: URLs) only.
    expect(v.response?.headers()['content-security-policy']).toContain("img-src 'self' data:;");
    const images = await shownImages(v);
    expect(images.map((i) => i.alt)).toEqual(['own diagram', 'repository logo', 'build', 'coverage', 'redirected']);
    const [own, logo, build, coverage, redirected] = images;
    expect(own.src).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(logo.src).toBe(logoRawUrl);
    for (const badge of [build, coverage, redirected]) expect(badge.src).toMatch(new RegExp(`^${s.url}/camo/[0-9a-f]{64}/[0-9a-f]+$`));
    expect(Buffer.from(build.src.split('/').pop()!, 'hex').toString()).toBe(`${upstream.url}/badge.svg`);
    // Every one loaded and decoded: visible.
    expect(images.map((i) => [i.alt, i.complete, i.width])).toEqual([
      ['own diagram', true, 64],
      ['repository logo', true, 30],
      ['build', true, 90],
      ['coverage', true, 40],
      ['redirected', true, 90],
    ]);
    expect(await seriousViolations(v.page)).toEqual([]);
  });

  it("shows a repository README's own image and a badge from another host", async () => {
    const v = await visitClean(`${s.url}/alice/site`);
    const images = await shownImages(v);
    expect(images.map((i) => [i.alt, i.width])).toEqual([
      ['logo', 30],
      ['build', 90],
    ]);
    expect(images[0].src).toBe(logoRawUrl);
    expect(images[1].src.startsWith(`${s.url}/camo/`)).toBe(true);
  });
});

describe('GET /camo/<hmac>/<hex>', () => {
  it('answers the image with its type, sandboxed, and keeps it (the other host is asked once)', async () => {
    const badge = (await imagesOf(shown.html_url)).build;
    const first = await fetch(badge);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/svg+xml');
    expect(first.headers.get('content-security-policy')).toBe("default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox");
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    // The other host's max-age (300 s), or what is left of it when the image was kept from the browser's visit.
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=([1-9]|[1-9]\d|[12]\d\d|300)$/);
    expect(await first.text()).toBe(BADGE_SVG);
    const second = await fetch(badge);
    expect([second.status, await second.text()]).toEqual([200, BADGE_SVG]);
    // Two pages in the browser and two requests here: the other host was asked once.
    expect(upstream.seen.filter((r) => r.path === '/badge.svg')).toHaveLength(1);
  });

  it('refuses an address it did not sign (403)', async () => {
    const good = proxied.page;
    const [, , digest, hex] = new URL(good).pathname.split('/');
    const flipped = `${digest.slice(0, -1)}${digest.endsWith('0') ? '1' : '0'}`;
    const signedForAnother = new URL(proxied.missing).pathname.split('/')[2];
    const attacker = Buffer.from('http://169.254.169.254/latest/meta-data/').toString('hex');
    for (const p of [
      `/camo/${flipped}/${hex}`,
      `/camo/${signedForAnother}/${hex}`,
      `/camo/${digest}/${attacker}`,
      `/camo/${digest}/zz`,
      `/camo/not-a-digest/${hex}`,
    ]) {
      const r = await fetch(`${s.url}${p}`);
      expect([p, r.status, await r.text()]).toEqual([p, 403, 'Bad signature: this address was not signed by this server\n']);
    }
  });

  it('refuses a non-image (415), an oversize image (413), a missing one (404)', async () => {
    const cases: [string, number, string][] = [
      ['page', 415, 'Not an image: the image server answered text/html\n'],
      ['huge', 413, `The image is larger than ${5 * MiB} bytes\n`],
      ['streamed', 413, `The image is larger than ${5 * MiB} bytes\n`],
      ['missing', 404, 'The image server answered 404\n'],
    ];
    for (const [alt, status, message] of cases) {
      const r = await fetch(proxied[alt]);
      expect([alt, r.status, r.headers.get('content-type'), r.headers.get('cache-control'), await r.text()]).toEqual([
        alt,
        status,
        'text/plain; charset=utf-8',
        'no-store',
        message,
      ]);
    }
    // The other host was asked for each of them.
    for (const p of ['/page.html', '/huge.png', '/streamed.png', '/missing.png'])
      expect(
        upstream.seen.some((r) => r.path === p),
        p,
      ).toBe(true);
  });

  it('refuses link-local and private addresses (403), also when a redirect leads there', async () => {
    for (const alt of ['link-local', 'redirect to metadata', 'private']) {
      const r = await fetch(proxied[alt]);
      expect([alt, r.status, await r.text()]).toEqual([alt, 403, 'Destination refused by the address rules (HUBLET_HOOK_ALLOWED_HOSTS)\n']);
    }
    // The redirect itself came from the allowed host; where it led was never connected to.
    expect(upstream.seen.some((r) => r.path === '/to-metadata.png')).toBe(true);
  });

  it("sends nothing of the visitor's request upstream: no Cookie, Authorization or Referer", async () => {
    const before = upstream.seen.length;
    const r = await fetch(proxied.headers, {
      headers: { cookie: 'session=secret', authorization: `token ${s.adminToken}`, referer: `${s.url}/gist/private-place` },
    });
    expect(r.status).toBe(200);
    const asked = upstream.seen.slice(before);
    expect(asked.map((x) => x.path)).toEqual(['/headers.svg']);
    expect(asked[0].headers['user-agent']).toMatch(/^hublet-camo\//);
    // None of the other host's requests, the browser's included, carried any of them.
    for (const x of upstream.seen) {
      expect([x.path, x.headers.cookie, x.headers.authorization, x.headers.referer]).toEqual([x.path, undefined, undefined, undefined]);
    }
  });
});

describe('the image rule (markdown.ts)', () => {
  const links = {
    base: 'https://git.example.com/hub',
    proxied: (a: string) => `https://git.example.com/hub/camo/sig/${Buffer.from(a).toString('hex')}`,
  };

  it("keeps hublet's own addresses, sends other hosts through the proxy, and leaves the rest as links", () => {
    expect(imageSource('https://git.example.com/hub/gist/a/1/raw/x.png', { links })).toBe('https://git.example.com/hub/gist/a/1/raw/x.png');
    // Same host outside the base path, or another scheme or port: another site.
    expect(imageSource('https://git.example.com/other.png', { links })).toBe(
      `https://git.example.com/hub/camo/sig/${Buffer.from('https://git.example.com/other.png').toString('hex')}`,
    );
    expect(imageSource('http://git.example.com/hub/x.png', { links })).toMatch(/\/camo\/sig\//);
    expect(imageSource('https://img.shields.io/badge/a-b-green', { links })).toMatch(/\/camo\/sig\//);
    for (const src of [
      'pic.png',
      '/hub/x.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'https://user:pw@img.example/x.png',
      'ftp://x/y.png',
    ]) {
      expect(imageSource(src, { links }), src).toBeNull();
    }
    // The caller's own images come first; with no links every absolute address is a link.
    expect(imageSource('pic.png', { links, own: (src) => (src === 'pic.png' ? 'data:image/png;base64,AAAA' : null) })).toBe(
      'data:image/png;base64,AAAA',
    );
    expect(imageSource('https://img.shields.io/x', {})).toBeNull();
  });
});
