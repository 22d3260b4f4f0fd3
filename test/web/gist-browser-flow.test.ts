// A person's whole gist task in Debian's Chromium, clicking what they would click: sign in at /login, "New gist", two
// files ("Add file"; Tab types a tab in the editor), "Create public gist"; edit one file, rename one, delete one; see
// the revisions; Star; a second person forks it and comments; search by `filename:` and by a word in a file from the
// header's search field; delete it after the confirmation page. Every page: no console error, no failed request, no
// serious or critical axe-core violation. Then XSS payloads typed into every new form: nothing runs anywhere they show.
// Screenshots for the README: the new-gist page and a gist with comments.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestServer } from '../helpers/server.js';
import { browserAndServer } from './browser-and-server.js';
import { type BrowserSession, screenshot, seen, seriousViolations } from './browser.js';
import { expectNothingRan, FLAG } from './xss-check.js';

const PASSWORD = 'correct horse battery staple 42';
let s: TestServer;
let browser: BrowserSession;

browserAndServer(async (started) => {
  ({ browser, s } = started);
  for (const login of ['alice', 'bob', 'mallory']) await s.createUser(login, { password: PASSWORD });
});

/** Signs `login` in through the sign-in form, in a browser context of their own. */
async function signIn(login: string): Promise<Page> {
  const v = await browser.visit(`${s.url}/login`, { as: login });
  await v.page.getByLabel('Username or email address').fill(login);
  await v.page.getByLabel('Password').fill(PASSWORD);
  await v.page.getByRole('button', { name: 'Sign in' }).click();
  await v.page.waitForLoadState('load');
  expect(await v.page.content()).toContain(`Signed in as <strong>${login}</strong>`);
  return v.page;
}

/** The page as it stands has no serious accessibility problem and logged nothing wrong. */
async function clean(page: Page, problems: string[]): Promise<void> {
  expect(problems, page.url()).toEqual([]);
  expect(await seriousViolations(page), page.url()).toEqual([]);
}

/** Opens `url` as `who` and checks it: 200, nothing wrong, axe-clean. */
async function open(url: string, who: string, axe = true) {
  const v = await browser.visit(url, { as: who });
  expect(v.response?.status(), url).toBe(200);
  if (axe) await clean(v.page, v.problems);
  else expect(v.problems, url).toEqual([]);
  return v;
}

let gistUrl = '';

describe('a gist written, changed, starred, forked, discussed, found and deleted in the browser', () => {
  it('signs in and creates a public gist with two files from "New gist"', async () => {
    const page = await signIn('alice');
    await page.getByRole('link', { name: 'New gist' }).click();
    await page.waitForURL(`${s.url}/gist/new`);
    const problems = (await browser.visit(page.url(), { as: 'alice' })).problems;
    await clean(page, problems);
    await page.getByLabel('Gist description').fill('Greetings in two languages');
    await page.getByLabel('Filename including extension').fill('hello.py');
    const editor = page.getByLabel('File contents');
    await editor.click();
    await page.keyboard.type('def hello():');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.type('return "hello, world"');
    expect(await editor.inputValue()).toBe('def hello():\n\treturn "hello, world"');
    await page.getByRole('button', { name: 'Add file' }).click();
    await page.waitForLoadState('load');
    // The round trip kept everything typed and added an empty file.
    expect(await page.getByLabel('Filename including extension').nth(0).inputValue()).toBe('hello.py');
    expect(await page.getByLabel('File contents').nth(0).inputValue()).toBe('def hello():\n\treturn "hello, world"');
    await page.getByLabel('Filename including extension').nth(1).fill('notes.md');
    await page.getByLabel('File contents').nth(1).fill('# Notes\n\nSay **hello** to everyone.\n');
    await clean(page, problems);
    await screenshot(page, 'new-gist');
    await page.getByRole('button', { name: 'Create public gist' }).click();
    await page.waitForURL(/\/gist\/[0-9a-f]{32}$/);
    gistUrl = page.url();
    expect(await page.locator('.file-name').allInnerTexts()).toEqual(['hello.py', 'notes.md']);
    expect(await seen(page.locator('#file-notes-md .markdown strong'))).toBe('hello');
    await clean(page, problems);
  });

  it('edits one file and renames another, then deletes one: each a revision', async () => {
    const { page, problems } = await open(gistUrl, 'alice', false);
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${gistUrl}/edit`);
    await clean(page, problems);
    await page.getByLabel('File contents').nth(0).fill('def hello(name):\n\treturn f"hello, {name}"\n');
    await page.getByLabel('Filename including extension').nth(1).fill('README.md');
    await page.getByRole('button', { name: 'Update public gist' }).click();
    await page.waitForURL(gistUrl);
    expect(await page.locator('.file-name').allInnerTexts()).toEqual(['README.md', 'hello.py']);
    expect(await seen(page.locator('#file-hello-py'))).toContain('hello, {name}');

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${gistUrl}/edit`);
    await page.getByLabel('Delete this file').nth(0).check();
    await page.getByRole('button', { name: 'Update public gist' }).click();
    await page.waitForURL(gistUrl);
    expect(await page.locator('.file-name').allInnerTexts()).toEqual(['hello.py']);
    await page.getByRole('link', { name: '3 revisions' }).click();
    await page.waitForURL(`${gistUrl}/revisions`);
    expect(await page.locator('.revision').count()).toBe(3);
    await clean(page, problems);
  });

  it('stars it: Unstar, with the count beside it', async () => {
    const { page, problems } = await open(gistUrl, 'alice', false);
    await page.getByRole('button', { name: 'Star', exact: true }).click();
    await page.waitForURL(gistUrl);
    expect(await seen(page.locator('.counted').first())).toMatch(/^Unstar\s*1\s*star$/);
    await clean(page, problems);
  });

  it('is forked and commented on by another person', async () => {
    const page = await signIn('bob');
    const v = await open(gistUrl, 'bob');
    await page.getByLabel('Leave a comment').fill('Nice, **thanks**!\n\nTry `hello("bob")`.');
    await page.getByRole('button', { name: 'Comment' }).click();
    await page.waitForURL(/#gistcomment-\d+$/);
    expect(await seen(page.locator('.comment-body strong'))).toBe('thanks');
    expect(await seen(page.locator('#comments-heading'))).toBe('1 comment');
    await clean(page, v.problems);
    await screenshot(page, 'gist-with-comments');
    await page.getByRole('button', { name: 'Fork' }).click();
    await page.waitForURL((url) => /\/gist\/[0-9a-f]{32}$/.test(url.pathname) && url.href !== gistUrl);
    expect(await seen(page.locator('.meta'))).toContain('forked from alice / hello.py');
    await clean(page, v.problems);
  });

  it('is found from the header’s search field by filename: and by a word in a file', async () => {
    const { page, problems } = await open(`${s.url}/gist/discover`, 'bob', false);
    const field = page.locator('header.site').getByRole('searchbox', { name: 'Search gists' });
    await field.fill('filename:hello.py');
    await field.press('Enter');
    await page.waitForURL(/\/gist\/search\?q=filename%3Ahello\.py/);
    expect(await page.locator(`a[href="${gistUrl}"]`).count()).toBeGreaterThan(0);
    await clean(page, problems);
    const header = page.locator('header.site').getByRole('searchbox', { name: 'Search gists' });
    await header.fill('name');
    await header.press('Enter');
    await page.waitForURL(/q=name$/);
    expect(await page.locator(`a[href="${gistUrl}"]`).count()).toBeGreaterThan(0);
    expect(await page.locator('mark').count()).toBeGreaterThan(0);
  });

  it('is deleted by its owner after the confirmation page', async () => {
    const { page, problems } = await open(gistUrl, 'alice', false);
    await page.getByRole('link', { name: 'Delete' }).first().click();
    await page.waitForURL(`${gistUrl}/delete`);
    await clean(page, problems);
    await page.getByRole('button', { name: 'Delete gist' }).click();
    await page.waitForURL(`${s.url}/gist/alice`);
    await clean(page, problems);
    const gone = await browser.visit(gistUrl, { as: 'alice' });
    expect(gone.response?.status()).toBe(404);
  });
});

describe('XSS payloads typed into the new forms', () => {
  const description = `"><script>${FLAG('web-description')}</script><img src=x onerror="${FLAG('web-description-img')}">`;
  const filename = `"><img src=x onerror="${FLAG('web-filename')}">.md`;
  const content = `<script>${FLAG('web-md-script')}</script>\n<img src=x onerror="${FLAG('web-md-img')}">\n[x](javascript:${FLAG('web-md-link')})\n</textarea><script>${FLAG('web-textarea')}</script>\n`;
  const comment = `<img src=x onerror="${FLAG('web-comment')}"><a href="javascript:${FLAG('web-comment-link')}">x</a></textarea><script>${FLAG('web-comment-ta')}</script>`;

  it('run nowhere: the gist page, its edit page, the comment’s edit and delete pages, the lists and search', async () => {
    const page = await signIn('mallory');
    await open(`${s.url}/gist/new`, 'mallory', false);
    await page.getByLabel('Gist description').fill(description);
    await page.getByLabel('Filename including extension').fill(filename);
    await page.getByLabel('File contents').fill(content);
    await page.getByRole('button', { name: 'Create public gist' }).click();
    await page.waitForURL(/\/gist\/[0-9a-f]{32}$/);
    const url = page.url();
    await page.getByLabel('Leave a comment').fill(comment);
    await page.getByRole('button', { name: 'Comment' }).click();
    await page.waitForURL(/#gistcomment-\d+$/);
    const commentLink = await page.locator('.comment-actions a', { hasText: 'Edit' }).getAttribute('href');
    await page.getByRole('button', { name: 'Star', exact: true }).click();
    await page.waitForURL(url);
    for (const [at, who] of [
      [url, 'mallory'],
      [url, 'bob'],
      [`${url}/edit`, 'mallory'],
      [commentLink!, 'mallory'],
      [commentLink!.replace(/\/edit$/, '/delete'), 'mallory'],
      [`${url}/delete`, 'mallory'],
      [`${s.url}/gist/mallory`, 'mallory'],
      [`${s.url}/gist/mallory/starred`, 'mallory'],
      [`${s.url}/gist/search?q=onerror`, 'bob'],
      [`${s.url}/gist/search?q=${encodeURIComponent(description)}`, 'bob'],
    ] as const) {
      const v = await browser.visit(at, { as: who });
      expect(v.response?.status(), at).toBe(200);
      await expectNothingRan(v);
    }
    // What was typed is shown as text, where text belongs.
    const v = await browser.visit(`${url}/edit`, { as: 'mallory' });
    expect(await v.page.getByLabel('Gist description').inputValue()).toBe(description);
    expect(await v.page.getByLabel('Filename including extension').inputValue()).toBe(filename);
    expect(await v.page.getByLabel('File contents').inputValue()).toBe(content);
  });
});
