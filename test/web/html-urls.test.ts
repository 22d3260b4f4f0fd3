// Every html_url the API hands out opens a page: a walk over the JSON answers of every GET route (its parameters naming
// seeded resources, as the owner asks) collects each `html_url`, and Debian's Chromium opens each one anonymously: a
// page (200) for what anyone may see, the not-found page (404) for a private repository; never an error or JSON.
import { describe, expect, it } from 'vitest';
import { listRoutes } from '../helpers/routes.js';
import { seed, type Seeded } from '../helpers/seed.js';
import type { TestServer } from '../helpers/server.js';
import { browserAndServer } from './browser-and-server.js';
import { type BrowserSession, seen } from './browser.js';

let s: TestServer;
let d: Seeded;
let browser: BrowserSession;

browserAndServer(async (started) => {
  ({ browser, s } = started);
  d = await seed(s);
  // A private repository, a secret gist, a fork and a second account, so their html_urls are in the answers too.
  const token = d.user.token;
  const made = [
    await s.api('POST', '/user/repos', { token, body: { name: 'private-one', private: true, auto_init: true } }),
    await s.api('POST', '/gists', { token, body: { public: false, files: { 's.txt': { content: 's\n' } } } }),
  ];
  const other = await s.userWithToken('hubot', ['gist']);
  made.push(await s.api('POST', `/gists/${d.gistId}/forks`, { token: other.token }));
  for (const r of made) if (r.status !== 201) throw new Error(`seed: ${r.status} ${r.text}`);
});

/** The value a seeded resource has for a path parameter of this name. */
function valueFor(name: string): string {
  const values: Record<string, string> = {
    owner: d.user.login,
    repo: d.repo,
    repo_name: d.repo,
    username: d.user.login,
    org: d.org,
    gist_id: d.gistId,
    sha: d.gistVersion,
    filename: 'a.txt',
    comment_id: String(d.commentId),
    hook_id: String(d.hookId),
    migration_id: String(d.userMigrationId),
    id: String(d.repoId),
  };
  return values[name] ?? 'x';
}

/** Every `html_url` in a JSON value, with whether the object that holds it says it is private. */
function htmlUrls(value: unknown, out: Map<string, boolean>): void {
  if (Array.isArray(value)) for (const v of value) htmlUrls(v, out);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.html_url === 'string') out.set(o.html_url, (out.get(o.html_url) ?? false) || o.private === true);
    for (const v of Object.values(o)) htmlUrls(v, out);
  }
}

describe('every html_url the API returns', () => {
  it('opens a page in the browser', async () => {
    const found = new Map<string, boolean>();
    let answers = 0;
    for (const route of listRoutes(s.app).filter((r) => r.method === 'GET' && !r.url.includes('*'))) {
      const p = route.url.replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => encodeURIComponent(valueFor(name)));
      const r = await s.api('GET', p, { token: d.user.token });
      if (r.status !== 200 || typeof r.body !== 'object') continue;
      answers++;
      htmlUrls(r.body, found);
    }
    expect(answers).toBeGreaterThan(40);
    // Users, organizations, repositories and gists, public and not.
    const urls = [...found.keys()];
    for (const expected of [
      `${s.url}/${d.user.login}`,
      `${s.url}/${d.org}`,
      `${s.url}/${d.user.login}/${d.repo}`,
      `${s.url}/${d.org}/${d.repo}`,
      `${s.url}/gist/${d.gistId}`,
      `${s.url}/${d.user.login}/private-one`,
      `${s.url}/hubot`,
    ]) {
      expect(urls).toContain(expected);
    }
    const failures: string[] = [];
    for (const [url, isPrivate] of found) {
      const v = await browser.visit(url);
      const status = v.response?.status();
      const type = v.response?.headers()['content-type'];
      const title = await seen(v.page.locator('main > h1')).catch(() => '(no heading)');
      const problems = v.problems.filter((p) => !(isPrivate && p.includes('404 (Not Found)')));
      if (status !== (isPrivate ? 404 : 200) || type !== 'text/html; charset=utf-8' || problems.length) {
        failures.push(`${url}: ${status} ${type} "${title}" ${problems.join('; ')}`);
      }
      if (isPrivate && title !== 'Page not found') failures.push(`${url}: private, but shows "${title}"`);
    }
    expect(failures).toEqual([]);
    expect(found.size).toBeGreaterThan(6);
  });
});
