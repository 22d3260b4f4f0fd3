// Suspending users (GitHub Enterprise's PUT|DELETE /users/{username}/suspended): a suspended user's tokens are refused
// (403) for the API and git at the very next request, though the token cache served them a moment before, and work again
// once the suspension is lifted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let sam: { login: string; token: string };
let repoGit: string;
beforeAll(async () => {
  s = await startServer();
  sam = await s.userWithToken('sam');
  const repo = await s.api('POST', '/user/repos', { token: sam.token, body: { name: 'private-work', private: true, auto_init: true } });
  expect(repo.status).toBe(201);
  repoGit = repo.body.clone_url;
});
afterAll(async () => s?.close());

const admin = (method: string, path: string, body?: unknown) => s.api(method, path, { token: s.adminToken, body });
const gitRefs = (token: string) =>
  fetch(`${repoGit}/info/refs?service=git-upload-pack`, {
    headers: { authorization: `Basic ${Buffer.from(`sam:${token}`).toString('base64')}` },
  });

describe('PUT|DELETE /users/{username}/suspended', () => {
  it('refuses a suspended user’s token at once (API and git), and serves it again when unsuspended', async () => {
    // The token is in the token cache: these calls authenticated through it.
    expect((await s.api('GET', '/user', { token: sam.token })).status).toBe(200);
    expect((await gitRefs(sam.token)).status).toBe(200);

    const put = await admin('PUT', '/users/sam/suspended', { reason: 'Leaving the company' });
    expect(put.status).toBe(204);
    checkSchema(put, 'PUT /users/{username}/suspended');

    const api = await s.api('GET', '/user', { token: sam.token });
    expect(api.status).toBe(403);
    expect(api.body).toMatchObject({ message: 'Sorry. Your account was suspended.', status: '403' });
    expect((await s.api('GET', '/user/repos', { token: sam.token })).status).toBe(403);
    expect((await gitRefs(sam.token)).status).toBe(403);
    // A token issued while suspended is refused too.
    expect((await s.api('GET', '/user', { token: await s.createToken('sam', { scopes: ['repo'] }) })).status).toBe(403);

    const del = await admin('DELETE', '/users/sam/suspended');
    expect(del.status).toBe(204);
    checkSchema(del, 'DELETE /users/{username}/suspended');
    expect((await s.api('GET', '/user', { token: sam.token })).status).toBe(200);
    expect((await gitRefs(sam.token)).status).toBe(200);
  });

  it('takes no body or a reason; suspending twice or unsuspending a user who is not suspended is fine', async () => {
    expect((await admin('PUT', '/users/sam/suspended')).status).toBe(204);
    expect((await admin('PUT', '/users/sam/suspended', { reason: 'again' })).status).toBe(204);
    expect((await admin('DELETE', '/users/sam/suspended')).status).toBe(204);
    expect((await admin('DELETE', '/users/sam/suspended')).status).toBe(204);
    expect((await admin('PUT', '/users/sam/suspended', { reason: 5 })).status).toBe(422);
    expect((await s.api('GET', '/user', { token: sam.token })).status).toBe(200);
  });

  it('refuses suspending oneself (403), organizations and unknown users (404), and anyone but site admins (404)', async () => {
    expect((await admin('PUT', '/users/admin/suspended')).status).toBe(403);
    await s.createOrg('acme', 'sam');
    expect((await admin('PUT', '/users/acme/suspended')).status).toBe(404);
    expect((await admin('PUT', '/users/nobody/suspended')).status).toBe(404);
    expect((await s.api('PUT', '/users/sam/suspended', { token: sam.token })).status).toBe(404);
    expect((await s.api('GET', '/user', { token: sam.token })).status).toBe(200);
    expect((await s.api('GET', '/user', { token: s.adminToken })).status).toBe(200);
  });
});
