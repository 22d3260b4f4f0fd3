// A user's and an organization's pages and a repository's pages in Debian's Chromium: profile, public repositories
// and gists (never private ones), concealed members; a repository's README, files, directories, blob and raw views,
// reached by clicking; private repositories and unknown accounts answer the not-found page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, withCredentials } from '../gists/git-tools.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { BrowserSession, seen, seriousViolations, type Visit } from './browser.js';

let s: TestServer;
let browser: BrowserSession;
let alice: { login: string; token: string };
let work: string;

async function created(method: string, p: string, body: unknown): Promise<any> {
  const r = await s.api(method, p, { token: alice.token, body });
  if (r.status !== 201 && r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${r.text}`);
  return r.body;
}

async function cleanVisit(url: string, axe = true): Promise<Visit> {
  const v = await browser.visit(url);
  expect(v.response?.status(), url).toBe(200);
  expect(v.problems, url).toEqual([]);
  if (axe) expect(await seriousViolations(v.page), url).toEqual([]);
  return v;
}

beforeAll(async () => {
  browser = await BrowserSession.start();
  s = await startServer();
  alice = await s.userWithToken('alice', ['repo', 'gist', 'admin:org', 'user']);
  // No API sets a user's profile yet (hublet has no PATCH /user): the row gets it directly.
  await s.db
    .updateTable('users')
    .set({ name: 'Alice Liddell', bio: 'Down the <rabbit> hole', location: 'Wonderland', blog: 'example.com/alice' })
    .where('login', '=', 'alice')
    .execute();
  await s.createOrg('acme', 'alice');
  const repo = await created('POST', '/user/repos', {
    name: 'tools',
    description: 'Useful <tools>',
    homepage: 'https://example.com/tools',
    auto_init: true,
  });
  await created('PUT', '/repos/alice/tools/topics', { names: ['cli', 'tooling'] });
  await created('POST', '/user/repos', { name: 'hidden', private: true, auto_init: true });
  await created('POST', '/orgs/acme/repos', { name: 'site', description: 'The website', auto_init: true });
  await created('POST', '/gists', { public: true, description: 'a public note', files: { 'note.md': { content: '# note\n' } } });
  await created('POST', '/gists', { public: false, description: 'a secret note', files: { 'secret.md': { content: '# secret\n' } } });
  // A directory, a nested README and a code file, pushed with git.
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-web-repo-'));
  const clone = path.join(work, 'tools');
  await git(['clone', '-q', withCredentials(repo.clone_url, 'alice', alice.token), clone], work);
  fs.mkdirSync(path.join(clone, 'src', 'lib'), { recursive: true });
  fs.writeFileSync(path.join(clone, 'README.md'), '# Tools\n\nSee [the source](src).\n\n| tool | use |\n|---|---|\n| `grep` | search |\n');
  fs.writeFileSync(path.join(clone, 'src', 'main.go'), 'package main\n\nfunc main() {\n\tprintln("hi")\n}\n');
  fs.writeFileSync(path.join(clone, 'src', 'README.txt'), 'The sources.\n');
  fs.writeFileSync(path.join(clone, 'src', 'lib', 'util.go'), 'package lib\n');
  await git(['add', '.'], clone);
  await git(['commit', '-q', '-m', 'sources'], clone);
  await git(['push', '-q', 'origin', 'HEAD'], clone);
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('GET /:login (a browser)', () => {
  it("shows a user's profile, public repositories and public gists, never private ones", async () => {
    const { page } = await cleanVisit(`${s.url}/alice`);
    expect(await seen(page.locator('main > h1'))).toBe('alice Alice Liddell');
    expect(await seen(page.locator('main > .description'))).toBe('Down the <rabbit> hole');
    expect(await page.locator('.facts li').allInnerTexts()).toEqual([
      'Wonderland',
      'example.com/alice',
      expect.stringMatching(/^Joined \d{4}-\d\d-\d\d$/),
    ]);
    expect(await page.getByRole('link', { name: 'example.com/alice' }).getAttribute('href')).toBe('https://example.com/alice');
    const text = await seen(page.locator('main'));
    expect(text).toContain('tools');
    expect(text).toContain('Useful <tools>');
    expect(text).toContain('note.md');
    expect(text).not.toContain('hidden');
    expect(text).not.toContain('secret.md');
    await page.getByRole('link', { name: 'tools', exact: true }).click();
    await page.waitForURL(`${s.url}/alice/tools`);
  });

  it("shows an organization's public repositories and says its members are not public", async () => {
    const { page } = await cleanVisit(`${s.url}/acme`, false);
    expect(await seen(page.locator('main > h1'))).toBe('acmeOrganization');
    expect(await seen(page.locator('main'))).toContain('site');
    expect(await seen(page.locator('main'))).toContain('This organization’s members are not public.');
  });
});

describe('GET /:owner/:repo and its tree, blob and raw views (a browser)', () => {
  it('shows the description, topics, clone URL, files and the README rendered', async () => {
    const { page } = await cleanVisit(`${s.url}/alice/tools`);
    expect(await seen(page.locator('main > h1'))).toBe('alice / tools');
    expect(await seen(page.locator('main > .description'))).toBe('Useful <tools>');
    expect(await page.locator('.topics li').allInnerTexts()).toEqual(['cli', 'tooling']);
    expect(await page.getByLabel('Clone with git').inputValue()).toBe(`${s.url}/alice/tools.git`);
    expect(await page.locator('.tree a').allInnerTexts()).toEqual(['src/', 'README.md']);
    expect(await seen(page.locator('.markdown h1'))).toBe('Tools');
    expect(await seen(page.locator('.markdown td code'))).toBe('grep');
  });

  it('walks into a directory, opens a file highlighted, and its raw bytes', async () => {
    const { page, problems } = await cleanVisit(`${s.url}/alice/tools`, false);
    await page.getByRole('link', { name: 'src/' }).click();
    await page.waitForURL(`${s.url}/alice/tools/tree/main/src`);
    expect(await page.locator('.tree a').allInnerTexts()).toEqual(['lib/', 'README.txt', 'main.go']);
    expect(await seen(page.locator('.crumbs'))).toBe('tools / src at main');
    expect(await seen(page.locator('#file-readme-txt code'))).toBe('The sources.');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'main.go' }).click();
    await page.waitForURL(`${s.url}/alice/tools/blob/main/src/main.go`);
    expect(await seen(page.locator('.hljs-keyword').first())).toBe('package');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Raw' }).click();
    await page.waitForURL(`${s.url}/alice/tools/raw/main/src/main.go`);
    expect(await page.evaluate(() => document.body.textContent)).toBe('package main\n\nfunc main() {\n\tprintln("hi")\n}\n');
    expect(problems).toEqual([]);
    // A file asked for as a directory, and a directory as a file, go to their view.
    const tree = await fetch(`${s.url}/alice/tools/tree/main/src/main.go`, { redirect: 'manual' });
    expect([tree.status, tree.headers.get('location')]).toEqual([302, `${s.url}/alice/tools/blob/main/src/main.go`]);
    const blob = await fetch(`${s.url}/alice/tools/blob/main/src/lib`, { redirect: 'manual' });
    expect([blob.status, blob.headers.get('location')]).toEqual([302, `${s.url}/alice/tools/tree/main/src/lib`]);
  });

  it('answers a private repository, an unknown account, ref or path with the not-found page', async () => {
    for (const url of [
      `${s.url}/alice/hidden`,
      `${s.url}/alice/hidden/blob/main/README.md`,
      `${s.url}/alice/hidden/raw/main/README.md`,
      `${s.url}/nobody`,
      `${s.url}/alice/tools/tree/nope`,
      `${s.url}/alice/tools/blob/main/nope.txt`,
    ]) {
      const v = await browser.visit(url);
      expect(v.response?.status(), url).toBe(404);
      expect(await seen(v.page.locator('h1')), url).toBe('Page not found');
    }
    // The owner's token changes nothing: pages are what anyone may see.
    const own = await fetch(`${s.url}/alice/hidden`, { headers: { accept: 'text/html', authorization: `token ${alice.token}` } });
    expect(own.status).toBe(404);
  });
});
