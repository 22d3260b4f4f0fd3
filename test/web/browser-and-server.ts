// Shared by the web tests that drive Debian's Chromium: one browser and one test server per file, started before its
// tests (then seeded by the file) and both closed after.
import { afterAll, beforeAll } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { BrowserSession } from './browser.js';

export interface BrowserAndServer {
  browser: BrowserSession;
  s: TestServer;
}

/** Registers the file's beforeAll (start both, then `seed` with them) and afterAll (close both). */
export function browserAndServer(seed: (started: BrowserAndServer) => Promise<void>): void {
  let browser: BrowserSession | undefined;
  let s: TestServer | undefined;
  beforeAll(async () => {
    browser = await BrowserSession.start();
    s = await startServer();
    await seed({ browser, s });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });
}
