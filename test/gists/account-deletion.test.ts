// DELETE /admin/users/{username}: the user's gists go, and so do their git repositories on disk.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s?.close());

const repoDir = (id: string) => path.join(s.dataDir, 'git', 'gists', `${id}.git`);

describe('deleting an account', () => {
  it("removes the account's gists and their repositories, and leaves other accounts' alone", async () => {
    const carol = await s.userWithToken('carol');
    const dave = await s.userWithToken('dave');
    const mine = await s.api('POST', '/gists', { token: carol.token, body: { files: { 'a.txt': { content: 'a' } } } });
    const theirs = await s.api('POST', '/gists', { token: dave.token, body: { files: { 'b.txt': { content: 'b' } } } });
    expect(mine.status).toBe(201);
    expect(fs.existsSync(repoDir(mine.body.id))).toBe(true);

    const del = await s.api('DELETE', '/admin/users/carol', { token: s.adminToken });
    expect(del.status).toBe(204);
    expect((await s.api('GET', `/gists/${mine.body.id}`)).status).toBe(404);
    expect(fs.existsSync(repoDir(mine.body.id))).toBe(false);
    expect((await s.api('GET', `/gists/${theirs.body.id}`)).status).toBe(200);
    expect(fs.existsSync(repoDir(theirs.body.id))).toBe(true);
  });
});
