// The gist search page (/gist/search) and the header's search field: results with their matched line marked, the count,
// paging, the help and the empty state, a query it cannot run (422 with the reason), markup in gists and queries shown
// as text, a signed-in person's own secret gists found by them alone; and in Debian's Chromium, the header's field
// leading to the page, without console errors or serious axe violations in either color scheme.
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';
import { browserAndServer } from './browser-and-server.js';
import { type BrowserSession, seen, seriousViolations } from './browser.js';

const PASSWORD = 'a search page passphrase 42';
const SCRIPT = '<script>alert(1)</script>';

let s: TestServer;
let browser: BrowserSession;
let alice: { login: string; token: string };
let bob: { login: string; token: string };

browserAndServer(async (started) => {
  ({ browser, s } = started);
  await s.createUser('alice', { password: PASSWORD });
  await s.createUser('bob', { password: PASSWORD });
  alice = { login: 'alice', token: await s.createToken('alice', { scopes: ['gist'] }) };
  bob = { login: 'bob', token: await s.createToken('bob', { scopes: ['gist'] }) };
  await s.createGist(alice.token, 'Quicksort in Python', { 'sort.py': 'def quicksort(items):\n    pivot = items[0]\n    return items\n' });
  await s.createGist(bob.token, 'Pivot tables', { 'table.md': 'How to pivot a table.\n' });
  await s.createGist(alice.token, 'hidden plans', { 'plans.txt': 'the hushword is here\n' }, false);
  await s.createGist(bob.token, SCRIPT, { 'evil.html': `${SCRIPT} xsswatch <b>bold</b> & "quotes"\n`, '<b onclick=x>.txt': 'x\n' });
  for (let i = 0; i < 12; i++) await s.createGist(bob.token, `paged ${i}`, { 'page.txt': `pagingword number ${i}\n` });
});

const anonymous = () => new WebClient(s.url);

async function signedIn(login: string): Promise<WebClient> {
  const web = new WebClient(s.url);
  const r = await web.signIn(login, PASSWORD);
  expect(r.status).toBe(303);
  return web;
}

/** The results' gist titles (owner / first file) in order. */
function titles(text: string): string[] {
  return [...text.matchAll(/<li><a href="[^"]*">([^<]*)<\/a> \/ <a href="[^"]*"><strong>([^<]*)<\/strong>/g)].map((m) => `${m[1]}/${m[2]}`);
}

describe('the site header', () => {
  it('carries a labelled search field on every page, a GET form to /gist/search', async () => {
    for (const path of ['/gist/discover', '/alice', '/login']) {
      const r = await anonymous().get(path);
      expect(r.text, path).toContain(
        `<form class="site-search" role="search" action="${s.url}/gist/search" method="get"><label class="visually-hidden" for="site-search">Search gists</label><input id="site-search" type="search" name="q" value=""`,
      );
    }
  });
});

describe('GET /gist/search', () => {
  it('shows how many gists matched, each as the lists show it, with its matched line and words marked', async () => {
    const r = await anonymous().get('/gist/search?q=pivot');
    expect(r.status).toBe(200);
    expect(r.text).toContain('<p class="meta" role="status">2 gists found</p>');
    expect(titles(r.text).sort()).toEqual(['alice/sort.py', 'bob/table.md']);
    expect(r.text).toContain('<div class="description">Quicksort in Python</div>');
    expect(r.text).toContain('<figcaption>sort.py, line 2</figcaption><pre><code>    <mark>pivot</mark> = items[0]</code></pre>');
    expect(r.text).toContain('<figcaption>table.md, line 1</figcaption><pre><code>How to <mark>pivot</mark> a table.</code></pre>');
    // The header's field holds the query; the page is not for search engines.
    expect(r.text).toContain('<input id="site-search" type="search" name="q" value="pivot"');
    expect(r.text).toContain('<meta name="robots" content="noindex">');
  });

  it('explains itself without a query, and says so clearly when nothing matched', async () => {
    const help = await anonymous().get('/gist/search');
    expect(help.status).toBe(200);
    expect(help.text).toContain('<h2 id="search-help-title">What you can search</h2>');
    expect(help.text).not.toContain('class="list search-results"');
    const none = await anonymous().get('/gist/search?q=nothingmatchesthis');
    expect(none.status).toBe(200);
    expect(none.text).toContain('<p class="empty" role="status">No gists matched <strong>nothingmatchesthis</strong>.');
  });

  it('answers a query it cannot run with 422 and what is wrong with it, never a 500', async () => {
    const r = await anonymous().get(`/gist/search?q=${encodeURIComponent('stars:>abc')}`);
    expect(r.status).toBe(422);
    expect(r.text).toContain(
      '<p class="flash flash-error" role="alert">stars:&gt;abc is not a number or a range of numbers (such as stars:&gt;10, stars:10..50 or stars:&lt;=5).</p>',
    );
    for (const q of ['"', '*', 'NEAR(', 'AND', '-', '(', 'x'.repeat(2000), 'user:nobody-at-all']) {
      const bad = await anonymous().get(`/gist/search?q=${encodeURIComponent(q)}`);
      expect([200, 422], q).toContain(bad.status);
    }
  });

  it('pages ten results at a time with previous and next links', async () => {
    const first = await anonymous().get('/gist/search?q=pagingword');
    expect(first.text).toContain('12 gists found');
    expect(titles(first.text)).toHaveLength(10);
    expect(first.text).toContain(`<a rel="next" href="${s.url}/gist/search?q=pagingword&amp;p=2">Next</a>`);
    expect(first.text).toContain('<span>Page 1 of 2</span>');
    const second = await anonymous().get('/gist/search?q=pagingword&p=2');
    expect(titles(second.text)).toHaveLength(2);
    expect(second.text).toContain(`<a rel="prev" href="${s.url}/gist/search?q=pagingword">Previous</a>`);
    const stars = await anonymous().get('/gist/search?q=pagingword&s=updated&o=asc');
    expect(stars.text).toContain('<option value="updated" selected>Recently updated</option>');
    expect(stars.text).toContain(`<a rel="next" href="${s.url}/gist/search?q=pagingword&amp;s=updated&amp;o=asc&amp;p=2">Next</a>`);
  });

  it('shows markup in gists and in the query as text: the only tags of a snippet are its marks', async () => {
    const r = await anonymous().get('/gist/search?q=xsswatch');
    expect(titles(r.text)).toEqual(['bob/&lt;b onclick=x&gt;.txt']);
    expect(r.text).not.toContain(SCRIPT);
    expect(r.text).toContain('<div class="description">&lt;script&gt;alert(1)&lt;/script&gt;</div>');
    const code = /<figcaption>evil\.html, line 1<\/figcaption><pre><code>(.*?)<\/code><\/pre>/.exec(r.text)![1];
    expect(code).toBe('&lt;script&gt;alert(1)&lt;/script&gt; <mark>xsswatch</mark> &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quotes&quot;');
    const q = await anonymous().get(`/gist/search?q=${encodeURIComponent(`${SCRIPT} alert`)}`);
    expect(q.status).toBe(200);
    expect(q.text).not.toContain(SCRIPT);
    expect(q.text).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt; alert · Search gists · hublet</title>');
    expect(q.text).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt; alert"');
    expect(q.text).toContain('&lt;<mark>script</mark>&gt;<mark>alert</mark>(<mark>1</mark>)&lt;/<mark>script</mark>&gt;');
  });

  it('finds a signed-in person’s own secret gists for them alone', async () => {
    const mine = await (await signedIn('alice')).get('/gist/search?q=hushword');
    expect(titles(mine.text)).toEqual(['alice/plans.txt']);
    expect(mine.text).toContain('<span class="badge">Secret</span>');
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    const theirs = await (await signedIn('bob')).get('/gist/search?q=hushword');
    expect(titles(theirs.text)).toEqual([]);
    expect(theirs.text).toContain('No gists matched');
    expect(titles((await anonymous().get('/gist/search?q=hushword')).text)).toEqual([]);
  });
});

describe('in a browser', () => {
  it('leads from the header’s field to the results, cleanly in both color schemes', async () => {
    const home = await browser.visit(`${s.url}/gist/discover`);
    await home.page.fill('#site-search', 'pivot');
    await Promise.all([home.page.waitForURL(/\/gist\/search\?q=pivot$/), home.page.press('#site-search', 'Enter')]);
    expect(await seen(home.page.locator('main .meta'))).toBe('2 gists found');
    expect(await home.page.locator('mark').allInnerTexts()).toEqual(['pivot', 'pivot']);
    for (const colorScheme of ['light', 'dark'] as const) {
      const v = await browser.visit(`${s.url}/gist/search?q=pivot`, { colorScheme });
      expect(v.response?.status()).toBe(200);
      expect(v.problems).toEqual([]);
      expect(await seriousViolations(v.page)).toEqual([]);
    }
    const help = await browser.visit(`${s.url}/gist/search`);
    expect(help.problems).toEqual([]);
    expect(await seriousViolations(help.page)).toEqual([]);
  });
});
