// Without a `git` executable the clone and push endpoints answer 503 with a message, and the gist API still works.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let emptyBin: string;
const savedPath = process.env.PATH;

beforeAll(async () => {
  // This file runs in its own process: hide git before anything looks for it.
  emptyBin = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-no-git-'));
  process.env.PATH = emptyBin;
  s = await startServer();
});
afterAll(async () => {
  process.env.PATH = savedPath;
  await s?.close();
  fs.rmSync(emptyBin, { recursive: true, force: true });
});

describe('gists without git on PATH', () => {
  it('still creates, updates and serves gists (objects are written in-process)', async () => {
    const alice = await s.userWithToken('alice');
    const created = await s.api('POST', '/gists', { token: alice.token, body: { files: { 'a.txt': { content: 'a\n' } } } });
    expect(created.status).toBe(201);
    const updated = await s.api('PATCH', `/gists/${created.body.id}`, {
      token: alice.token,
      body: { files: { 'a.txt': { content: 'b\n' } } },
    });
    expect(updated.body.history).toHaveLength(2);
    expect(await (await fetch(updated.body.files['a.txt'].raw_url)).text()).toBe('b\n');

    for (const [method, suffix] of [
      ['GET', '/info/refs?service=git-upload-pack'],
      ['POST', '/git-upload-pack'],
      ['POST', '/git-receive-pack'],
    ]) {
      const r = await fetch(`${created.body.git_pull_url}${suffix}`, {
        method,
        headers: { 'content-type': 'application/x-git-upload-pack-request' },
        body: method === 'POST' ? '' : undefined,
      });
      expect(r.status, suffix).toBe(503);
      expect(await r.json()).toMatchObject({ message: 'Git hosting is unavailable: no `git` executable on the server', status: '503' });
    }
  });
});
