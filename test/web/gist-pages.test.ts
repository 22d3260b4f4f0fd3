// The gist pages in Debian's Chromium: the gist page (Markdown, highlighted code, an SVG image, links that match the
// API's), a secret gist's noindex, the not-found page, revisions with diffs, a past revision, a user's gists and the
// public gists with paging. Every page: no console error, no failed request, no serious axe violation.
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { browserAndServer } from './browser-and-server.js';
import { type BrowserSession, screenshot, seen, seriousViolations, type Visit } from './browser.js';

let s: TestServer;
let browser: BrowserSession;
let alice: { login: string; token: string };
let bob: { login: string; token: string };
/** alice's public gist, as the API answered its creation (then updated once, starred and forked by bob). */
let gist: any;
let secret: any;

const README = `# Notes on sorting

Some **bold** words, a [link](https://example.com/docs) and a table:

| algorithm | average |
|:----------|--------:|
| quicksort | n log n |
| bubble    | n²      |

- [x] write it
- [ ] test it

\`\`\`js
const sorted = items.sort((a, b) => a - b);
\`\`\`
`;
const PYTHON =
  'def quicksort(items):\n    """Sort a list."""\n    if len(items) <= 1:\n        return items\n    pivot, *rest = items\n    return quicksort([x for x in rest if x < pivot]) + [pivot] + quicksort([x for x in rest if x >= pivot])\n';
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40"><rect width="120" height="40" rx="6" fill="#2da44e"/><text x="60" y="26" font-size="16" text-anchor="middle" fill="#fff">sorted</text></svg>\n';

async function ok(r: { status: number; text: string }, status: number, what: string) {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
}

/** A visit that went well: 200, nothing went wrong, no serious accessibility problem. */
async function cleanVisit(url: string, opts: { colorScheme?: 'light' | 'dark'; axe?: boolean } = {}): Promise<Visit> {
  const v = await browser.visit(url, opts);
  expect(v.response?.status(), url).toBe(200);
  expect(v.problems, url).toEqual([]);
  // axe-core takes a second or so a page: once per kind of page (and color scheme) is enough.
  if (opts.axe !== false) expect(await seriousViolations(v.page), url).toEqual([]);
  return v;
}

browserAndServer(async (started) => {
  ({ browser, s } = started);
  alice = await s.userWithToken('alice', ['gist']);
  bob = await s.userWithToken('bob', ['gist']);
  const created = await s.api('POST', '/gists', {
    token: alice.token,
    body: {
      description: 'Sorting things out',
      public: true,
      files: {
        'README.md': { content: README },
        'sort.py': { content: PYTHON.replace('>= pivot', '> pivot') },
        'badge.svg': { content: SVG },
      },
    },
  });
  await ok(created, 201, 'gist');
  const updated = await s.api('PATCH', `/gists/${created.body.id}`, {
    token: alice.token,
    body: { files: { 'sort.py': { content: PYTHON } } },
  });
  await ok(updated, 200, 'update');
  await ok(await s.api('PUT', `/gists/${created.body.id}/star`, { token: bob.token }), 204, 'star');
  await ok(await s.api('POST', `/gists/${created.body.id}/forks`, { token: bob.token }), 201, 'fork');
  gist = (await s.api('GET', `/gists/${created.body.id}`)).body;
  const hidden = await s.api('POST', '/gists', {
    token: alice.token,
    body: { description: 'not for everyone', public: false, files: { 'secret.txt': { content: 'hush\n' } } },
  });
  await ok(hidden, 201, 'secret gist');
  secret = hidden.body;
});

describe('GET /gist/:id (a browser)', () => {
  it('shows the description, owner, dates, counts and every file rendered', async () => {
    const { page } = await cleanVisit(gist.html_url);
    expect(await page.title()).toBe('alice/README.md · hublet gist');
    expect(await seen(page.locator('main > h1'))).toBe('alice / README.md');
    expect(await seen(page.locator('.description'))).toBe('Sorting things out');
    const meta = await seen(page.locator('.meta'));
    expect(meta).toMatch(/^Created \d{4}-\d\d-\d\d \d\d:\d\d UTC · Updated \d{4}-\d\d-\d\d \d\d:\d\d UTC · 2 revisions · 1 fork · 1 star$/);
    // Markdown as GFM: heading, table with alignment, task list, highlighted fenced code, a link that stays a link.
    const md = page.locator('#file-readme-md .markdown');
    expect(await seen(md.locator('h1'))).toBe('Notes on sorting');
    expect(await md.locator('th').allInnerTexts()).toEqual(['algorithm', 'average']);
    expect(
      await md
        .locator('td')
        .nth(1)
        .evaluate((td) => getComputedStyle(td).textAlign),
    ).toBe('right');
    expect(await md.locator('input[type=checkbox]').evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).checked))).toEqual([
      true,
      false,
    ]);
    expect(await seen(md.locator('pre code .hljs-keyword').first())).toBe('const');
    expect(await md.locator('a', { hasText: 'link' }).getAttribute('href')).toBe('https://example.com/docs');
    // Code highlighted by its language, with line numbers.
    const py = page.locator('#file-sort-py');
    expect(await seen(py.locator('.file-info'))).toMatch(/^Python · /);
    expect(await seen(py.locator('.hljs-keyword').first())).toBe('def');
    expect(await seen(py.locator('.lines'))).toBe('1\n2\n3\n4\n5\n6');
    expect(await seen(py.locator('code'))).toBe(PYTHON.slice(0, -1));
    // The SVG is shown as an image (an <img>, where it runs no script), and it loaded.
    const img = page.locator('#file-badge-svg img');
    expect(await img.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await img.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(120);
  });

  it('links raw files, downloads, clone, embed, revisions and forks as the API names them', async () => {
    const { page } = await cleanVisit(gist.html_url, { axe: false });
    for (const f of Object.values(gist.files) as { filename: string; raw_url: string }[]) {
      const section = page.getByRole('region', { name: f.filename, exact: true });
      expect(await section.getByRole('link', { name: 'Raw' }).getAttribute('href')).toBe(f.raw_url);
    }
    expect(await page.getByLabel('Clone with git').inputValue()).toBe(gist.git_pull_url);
    expect(await page.getByLabel('Embed this gist').inputValue()).toBe(`<script src="${s.url}/gist/${gist.id}.js"></script>`);
    const head = gist.history[0].version;
    expect(await page.getByRole('link', { name: 'Download ZIP' }).getAttribute('href')).toBe(
      `${s.url}/gist/alice/${gist.id}/archive/${head}.zip`,
    );
    expect(await page.getByRole('link', { name: 'Download tar.gz' }).getAttribute('href')).toBe(
      `${s.url}/gist/alice/${gist.id}/archive/${head}.tar.gz`,
    );
    expect(await page.getByRole('link', { name: 'Revisions', exact: true }).getAttribute('href')).toBe(`${gist.html_url}/revisions`);
    expect(await seen(page.locator('#forks + ul li'))).toContain(`bob / ${gist.forks[0].id}`);
    // Following the raw link gives the file's bytes.
    const raw = await page.request.get(gist.files['sort.py'].raw_url);
    expect(await raw.text()).toBe(PYTHON);
    await page.getByRole('link', { name: 'Revisions', exact: true }).click();
    await page.waitForURL(`${gist.html_url}/revisions`);
    expect(await seen(page.locator('main > h1'))).toBe('alice / README.md');
  });

  it('looks right in light and dark (screenshots kept as test artifacts)', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page } = await cleanVisit(gist.html_url, { colorScheme });
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe(colorScheme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(13, 17, 23)');
      await screenshot(page, `gist-${colorScheme}`);
    }
  });

  it('shows a secret gist to whoever has its URL, marked noindex and never listed', async () => {
    const { page } = await cleanVisit(secret.html_url, { axe: false });
    expect(await page.locator('meta[name=robots]').getAttribute('content')).toBe('noindex');
    expect(await seen(page.locator('.badge'))).toBe('Secret');
    expect(await seen(page.locator('#file-secret-txt code'))).toBe('hush');
    for (const list of [`${s.url}/gist/alice`, `${s.url}/gist/discover`]) {
      const v = await cleanVisit(list, { axe: false });
      expect(await v.page.content(), list).not.toContain(secret.id);
    }
    // A public gist's page has no noindex.
    const pub = await browser.visit(gist.html_url);
    expect(await pub.page.locator('meta[name=robots]').count()).toBe(0);
  });

  it('answers a page that does not exist with the not-found page (404)', async () => {
    const urls = [
      `${s.url}/gist/0123456789abcdef0123456789abcdef`,
      `${s.url}/gist/nobody-here`,
      `${gist.html_url}/${'0'.repeat(40)}`,
      `${gist.html_url}/revisions?page=9`,
    ];
    for (const [i, url] of urls.entries()) {
      const v = await browser.visit(url);
      expect(v.response?.status(), url).toBe(404);
      expect(v.response?.headers()['content-type'], url).toBe('text/html; charset=utf-8');
      expect(await seen(v.page.locator('h1')), url).toBe('Page not found');
      // The browser reports the document's own 404 on its console; nothing else may go wrong.
      expect(
        v.problems.filter((p) => !p.includes('404 (Not Found)')),
        url,
      ).toEqual([]);
      if (i === 0) expect(await seriousViolations(v.page), url).toEqual([]);
    }
  });
});

describe('GET /gist/:id/revisions and /gist/:id/:sha (a browser)', () => {
  it('lists the revisions newest first with their diffs', async () => {
    const { page } = await cleanVisit(`${gist.html_url}/revisions`);
    const revisions = page.locator('section.revision');
    expect(await revisions.count()).toBe(2);
    const newest = revisions.first();
    expect(await seen(newest.locator('h2'))).toMatch(new RegExp(`^alice revised this gist .* · ${gist.history[0].version.slice(0, 7)}$`));
    expect(await newest.locator('.diff tr.del td:last-child').allInnerTexts()).toEqual([
      '-    return quicksort([x for x in rest if x < pivot]) + [pivot] + quicksort([x for x in rest if x > pivot])',
    ]);
    expect(await newest.locator('.diff tr.add td:last-child').allInnerTexts()).toEqual([
      '+    return quicksort([x for x in rest if x < pivot]) + [pivot] + quicksort([x for x in rest if x >= pivot])',
    ]);
    const first = revisions.nth(1);
    expect(await first.locator('.file-name').allInnerTexts()).toEqual(['README.md', 'badge.svg', 'sort.py']);
    expect(await first.locator('.file-info').allInnerTexts()).toEqual(['added', 'added', 'added']);
    await first.getByRole('link', { name: gist.history[1].version.slice(0, 7) }).click();
    await page.waitForURL(`${gist.html_url}/${gist.history[1].version}`);
    expect(await seen(page.locator('.notice-bar'))).toContain(`revision ${gist.history[1].version.slice(0, 7)}`);
    expect(await seen(page.locator('#file-sort-py code'))).toContain('x > pivot');
  });
});

describe('GET /gist/:login and /gist/discover (a browser)', () => {
  it("lists a user's public gists and every public gist, newest first, 30 a page", async () => {
    for (let i = 0; i < 31; i++) {
      const r = await s.api('POST', '/gists', {
        token: bob.token,
        body: { public: true, description: `gist number ${i}`, files: { [`n${i}.txt`]: { content: `${i}\n` } } },
      });
      await ok(r, 201, `gist ${i}`);
    }
    const first = await cleanVisit(`${s.url}/gist/bob`);
    expect(await seen(first.page.locator('h1'))).toBe('bob’s gists');
    expect(await seen(first.page.locator('.meta'))).toBe('32 public gists');
    const items = first.page.locator('ul.list > li');
    expect(await items.count()).toBe(30);
    expect(await seen(items.first())).toContain('n30.txt');
    expect(await seen(items.first())).toContain('gist number 30');
    await first.page.getByRole('link', { name: 'Next' }).click();
    await first.page.waitForURL(`${s.url}/gist/bob?page=2`);
    const rest = await first.page.locator('ul.list > li').allInnerTexts();
    expect(rest).toHaveLength(2);
    expect(rest[0]).toContain('n0.txt');
    // bob's fork of alice's gist, made before the 31, is the oldest.
    expect(rest[1]).toContain('bob / README.md');
    const discover = await cleanVisit(`${s.url}/gist/discover`);
    expect(await seen(discover.page.locator('h1'))).toBe('Discover gists');
    const texts = await discover.page.locator('ul.list > li').allInnerTexts();
    expect(texts).toHaveLength(30);
    expect(texts[0]).toContain('n30.txt');
    expect(await seen(discover.page.locator('nav.pages'))).toContain('Page 1 of 2');
  });
});
