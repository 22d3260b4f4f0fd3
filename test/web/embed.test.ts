// The embed script in Debian's Chromium: a page on another origin includes `<script src="…/gist/<id>.js">` and shows
// the rendered gist with its stylesheet (whose rules stay inside the embed's box), or one file of it with `?file=`.
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { browserAndServer } from './browser-and-server.js';
import { type BrowserSession, hostPage, seen, seriousViolations } from './browser.js';

let s: TestServer;
let browser: BrowserSession;
let gist: any;

browserAndServer(async (started) => {
  ({ browser, s } = started);
  const alice = await s.userWithToken('alice', ['gist']);
  const r = await s.api('POST', '/gists', {
    token: alice.token,
    body: {
      description: 'embedded',
      public: false,
      files: { 'hello.rb': { content: 'puts "hello"\n' }, 'notes.md': { content: '# Notes\n\n*emphasis*\n' } },
    },
  });
  if (r.status !== 201) throw new Error(`gist: ${r.status} ${r.text}`);
  gist = r.body;
});

describe('GET /gist/:id.js', () => {
  it('writes the rendered gist into a page on another origin, styled inside its box only', async () => {
    const host = await hostPage(`<p>Before.</p><script src="${s.url}/gist/${gist.id}.js"></script><p id="after">After.</p>`);
    try {
      const { page, problems } = await browser.visit(host.url);
      expect(problems).toEqual([]);
      const box = page.locator('.hublet-embed');
      expect(await box.count()).toBe(1);
      expect(await box.locator('.file-name').allInnerTexts()).toEqual(['hello.rb', 'notes.md']);
      expect(await seen(box.locator('.hljs-string'))).toBe('"hello"');
      expect(await seen(box.locator('.markdown h1'))).toBe('Notes');
      expect(await box.locator('.markdown em').count()).toBe(1);
      // Its stylesheet applies to the box…
      expect(
        await box
          .locator('.file')
          .first()
          .evaluate((el) => getComputedStyle(el).borderTopStyle),
      ).toBe('solid');
      // …and not to the host page around it (still in its default font, unstyled paragraphs).
      expect(await page.locator('#after').evaluate((el) => getComputedStyle(el).fontFamily)).not.toContain('Segoe UI');
      expect(await seen(box.locator('.embed-meta a'))).toBe('alice/hello.rb');
      expect(await box.locator('.embed-meta a').getAttribute('href')).toBe(gist.html_url);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('shows one file with ?file=NAME, and a name the gist does not have is a 404', async () => {
    const host = await hostPage(`<script src="${s.url}/gist/${gist.id}.js?file=notes.md"></script>`);
    try {
      const { page, problems } = await browser.visit(host.url);
      expect(problems).toEqual([]);
      expect(await page.locator('.hublet-embed .file-name').allInnerTexts()).toEqual(['notes.md']);
    } finally {
      await host.close();
    }
    const missing = await fetch(`${s.url}/gist/${gist.id}.js?file=nope.txt`);
    expect(missing.status).toBe(404);
    const script = await fetch(`${s.url}/gist/${gist.id}.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });
});
