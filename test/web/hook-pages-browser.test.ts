// The webhook settings pages in Debian's Chromium, as an organization's owner uses them: signs in through /login, adds
// a hook to a real receiver with the form, pings it, opens a delivery and clicks Redeliver (the receiver got each);
// axe-core finds nothing serious on the list, the form, the deliveries and a delivery, light and dark; XSS payloads in
// a payload URL, in a refused form and in a receiver's response run nothing and show as text. The deliveries page's
// screenshot is left in test-artifacts/web/ (docs/web-hook-deliveries.png is refreshed from it by hand, never by a test).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { startReceiver, type Received, type Receiver } from '../webhooks/receiver.js';
import { browserAndServer } from './browser-and-server.js';
import { type BrowserSession, screenshot, seen, seriousViolations, type Visit } from './browser.js';

const PASSWORD = 'correct horse battery staple 42';
const ORG = '/organizations/Acme/settings/hooks';
const IMG = '"><img src=x onerror=alert(1)>';
const SCRIPT = '<script>alert(1)</script>';
let s: TestServer;
let browser: BrowserSession;
let rcv: Receiver;

browserAndServer(async (started) => {
  ({ browser, s } = started);
  rcv = await startReceiver();
  rcv.answer((r) => (r.path.startsWith('/xss') ? { status: 500, body: `${IMG}${SCRIPT}` } : { status: 200, body: 'thanks' }));
  await s.createUser('octo', { password: PASSWORD });
  await s.createOrg('Acme', 'octo');
});

const onPath = (p: string) => (r: Received) => r.path === p;

/** Signs in through the sign-in page, coming back to `back`; returns the visit, now on that page. */
async function signIn(back: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Visit> {
  const v = await browser.visit(`${s.url}/login?return_to=${encodeURIComponent(back)}`, { colorScheme });
  await v.page.getByLabel('Username or email address').fill('octo');
  await v.page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([v.page.waitForURL(`${s.url}${back}`), v.page.getByRole('button', { name: 'Sign in' }).click()]);
  return v;
}

async function clean(v: Visit, where: string): Promise<void> {
  expect(v.problems, where).toEqual([]);
  expect(v.dialogs, where).toEqual([]);
  expect(await seriousViolations(v.page), where).toEqual([]);
}

/** Clicks what leads to another page and waits for it. */
async function follow(v: Visit, click: () => Promise<void>): Promise<void> {
  await Promise.all([v.page.waitForEvent('load'), click()]);
}

describe('an organization owner in the browser', () => {
  const pages: string[] = [];

  it('signs in, adds a hook with the form, pings it, opens a delivery and redelivers it: the receiver got each', async () => {
    const v = await signIn(ORG);
    await clean(v, 'list');
    pages.push(v.page.url());
    await follow(v, () => v.page.getByRole('link', { name: 'Add webhook' }).click());
    await clean(v, 'form');
    pages.push(v.page.url());
    await v.page.getByLabel('Payload URL').fill(`${rcv.url}/browser`);
    await v.page.getByLabel('Content type').selectOption('application/json');
    await v.page.getByLabel('Secret', { exact: true }).fill('a browser secret of 24ch');
    // The individual events show only once "Let me select individual events." is chosen.
    await expect(v.page.getByRole('checkbox', { name: 'issues', exact: true }).isVisible()).resolves.toBe(false);
    await v.page.getByLabel('Let me select individual events.').check();
    await v.page.getByRole('checkbox', { name: 'issues', exact: true }).check();
    await v.page.getByRole('checkbox', { name: 'push', exact: true }).check();
    await follow(v, () => v.page.getByRole('button', { name: 'Add webhook' }).click());
    expect(v.page.url()).toBe(`${s.url}${ORG}?notice=created`);
    expect(await seen(v.page.locator('main'))).toContain('Okay, that hook was successfully created.');
    const [created] = await rcv.waitFor(1, onPath('/browser'));
    expect(created.headers['x-service-event']).toBe('ping');

    await follow(v, () => v.page.getByRole('link', { name: 'Recent Deliveries' }).click());
    await follow(v, () => v.page.getByRole('button', { name: 'Ping' }).click());
    const [, pinged] = await rcv.waitFor(2, onPath('/browser'));
    await s.app.hublet.jobs.idle();
    await follow(v, async () => {
      await v.page.reload();
    });
    const guids = await v.page.locator('table.deliveries tbody tr td:nth-child(2) code').allInnerTexts();
    expect(guids).toEqual([pinged.headers['x-service-delivery'], created.headers['x-service-delivery']]);
    await clean(v, 'deliveries');
    pages.push(v.page.url());
    await screenshot(v.page, 'hook-deliveries');

    await follow(v, () => v.page.getByRole('link', { name: String(pinged.headers['x-service-delivery']) }).click());
    await clean(v, 'delivery');
    pages.push(v.page.url());
    const shown = await seen(v.page.locator('main'));
    expect(shown).toContain('X-Hub-Signature-256');
    expect(shown).toContain('"zen":');
    await follow(v, () => v.page.getByRole('button', { name: 'Redeliver' }).click());
    const [, , again] = await rcv.waitFor(3, onPath('/browser'));
    expect(again.headers['x-service-delivery']).toBe(pinged.headers['x-service-delivery']);
    expect(v.page.url()).toBe(`${pages[2].replace('?notice=pinged', '')}?notice=redelivered`);
    expect(await seen(v.page.locator('main'))).toContain('Okay, we are redelivering that payload.');
  });

  it('has nothing serious for axe-core in the dark scheme either', async () => {
    expect(pages).toHaveLength(4);
    await signIn(ORG, 'dark');
    for (const url of pages) await clean(await browser.visit(url, { colorScheme: 'dark' }), `dark ${url}`);
  });

  it('runs none of the XSS payloads in a payload URL, a refused form or a response body, and shows them as text', async () => {
    const token = await s.createToken('octo', { scopes: ['admin:org_hook'] });
    const url = `${rcv.url}/xss?q="><img/src=x/onerror=alert(1)>${SCRIPT}`;
    const r = await s.api('POST', '/orgs/Acme/hooks', { token, body: { name: 'web', config: { url, content_type: 'json' } } });
    expect(r.status).toBe(201);
    await rcv.waitFor(1, (x) => x.path.startsWith('/xss'));
    await s.app.hublet.jobs.idle();
    const hook = `${s.url}${ORG}/${r.body.id}`;
    for (const at of [`${s.url}${ORG}`, hook, `${hook}/deliveries`, `${hook}/deliveries?status=failure`]) {
      const v = await browser.visit(at);
      expect([at, v.problems, v.dialogs]).toEqual([at, [], []]);
      expect(await seen(v.page.locator('main'))).toContain(`onerror=alert(1)>${SCRIPT}`);
    }
    const v = await browser.visit(`${hook}/deliveries`);
    await follow(v, () => v.page.locator('table.deliveries tbody a').first().click());
    const body = await seen(v.page.locator('main'));
    expect(body).toContain(`${IMG}${SCRIPT}`);
    expect(await v.page.locator('main img, main script').count()).toBe(0);
    expect(v.dialogs).toEqual([]);

    // A refused form shows what was typed, as text in the field (a client that skips the browser's URL check).
    const form = await browser.visit(`${s.url}${ORG}/new`);
    await form.page.locator('form.form').evaluate((f) => {
      (f as HTMLFormElement).noValidate = true;
    });
    await form.page.getByLabel('Payload URL').fill(IMG);
    await follow(form, () => form.page.getByRole('button', { name: 'Add webhook' }).click());
    await expect(form.page.getByLabel('Payload URL').inputValue()).resolves.toBe(IMG);
    expect(await seen(form.page.locator('#field-url-error'))).toContain('Payload URL is not a valid http(s) URL');
    expect(await form.page.locator('main img').count()).toBe(0);
    expect(form.dialogs).toEqual([]);
    expect(await seriousViolations(form.page)).toEqual([]);
  });

  it('leaves a screenshot of the deliveries page for the docs', () => {
    const shot = path.resolve(import.meta.dirname, '../../test-artifacts/web/hook-deliveries.png');
    expect(fs.statSync(shot).size).toBeGreaterThan(10_000);
  });
});
