// Debian's Chromium driven by playwright-core for the web tests: one browser per test file, a fresh context per visit
// that records every console error, page error, failed or refused request and dialog, axe-core's accessibility check,
// and screenshots kept under test-artifacts/web/. A missing browser fails the tests with what to install.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type Locator, type Page, type Response } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/web');

/** A browser for one test file, or the reason there is none (every visit then fails with it; no test is skipped). */
export class BrowserSession {
  /** One page per color scheme and person, reused visit after visit (a new context and page cost more than the visit). */
  private readonly pages = new Map<string, { page: Page; watch: Watch }>();

  private constructor(private readonly browser: Browser | Error) {}

  static async start(): Promise<BrowserSession> {
    if (!fs.existsSync(CHROMIUM))
      return new BrowserSession(
        new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium (.ci/run installs it before the tests)`),
      );
    try {
      return new BrowserSession(await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }));
    } catch (err) {
      return new BrowserSession(new Error(`Chromium at ${CHROMIUM} did not start: ${(err as Error).message}`));
    }
  }

  /** Opens `url`, recording everything that goes wrong on the way and while the page loads. */
  async visit(url: string, opts: { colorScheme?: 'light' | 'dark'; as?: string } = {}): Promise<Visit> {
    const { page, watch } = await this.pageFor(opts.colorScheme ?? 'light', opts.as);
    watch.problems = [];
    watch.dialogs = [];
    const response = await page.goto(url, { waitUntil: 'load' });
    return { page, response, problems: watch.problems, dialogs: watch.dialogs };
  }

  async close(): Promise<void> {
    if (!(this.browser instanceof Error)) await this.browser.close();
  }

  /** The page of one person (`as`: a context of their own, its own cookies) in one color scheme. */
  private async pageFor(colorScheme: 'light' | 'dark', as = ''): Promise<{ page: Page; watch: Watch }> {
    if (this.browser instanceof Error) throw this.browser;
    const key = `${colorScheme}|${as}`;
    let entry = this.pages.get(key);
    if (!entry) {
      const context = await this.browser.newContext({ colorScheme, viewport: { width: 1100, height: 900 } });
      const page = await context.newPage();
      const watch: Watch = { problems: [], dialogs: [] };
      page.on('console', (m) => {
        if (m.type() === 'error') watch.problems.push(`console error: ${m.text()}`);
      });
      page.on('pageerror', (e) => watch.problems.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => watch.problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
      page.on('response', (r) => {
        if (r.status() >= 400 && r.request().resourceType() !== 'document') watch.problems.push(`HTTP ${r.status()}: ${r.url()}`);
      });
      page.on('dialog', (d) => {
        watch.dialogs.push(`${d.type()}: ${d.message()}`);
        void d.dismiss();
      });
      entry = { page, watch };
      this.pages.set(key, entry);
    }
    return entry;
  }
}

interface Watch {
  problems: string[];
  dialogs: string[];
}

export interface Visit {
  page: Page;
  response: Response | null;
  /** Console errors, uncaught page errors, failed requests, error statuses of subresources, dialogs opened. */
  problems: string[];
  /** Dialogs (alert, confirm, prompt) the page tried to open: each is dismissed. */
  dialogs: string[];
}

/** axe-core's serious and critical violations on the page (evaluated through the DevTools protocol, which CSP allows). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const run = (
      window as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: unknown }[] }[] }> };
      }
    ).axe.run;
    return (await run()).violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.targets.join(', ')}`);
}

/** Saves a full-page screenshot as test-artifacts/web/NAME.png and answers its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A page on another origin (its own server on 127.0.0.1:0) that includes `body`, for the embed. */
export async function hostPage(body: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>A blog post</title><link rel="icon" href="data:,"></head><body><main><h1>A blog post</h1>${body}</main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/post`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** What a person sees of an element: its rendered text (line breaks where the layout puts them). */
export function seen(locator: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText, the rendered text a person reads, is what is meant
  return locator.innerText();
}
