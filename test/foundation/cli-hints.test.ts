// API refusals come with what a person can do about them, read off the server's answer: a token lacking the scope the
// route accepts (X-Accepted-OAuth-Scopes) names the scope and the command that issues one; a refused token says to
// sign in again; refusals the server explains no further keep the bare body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessCliServer, type InProcessCliServer } from '../helpers/cli-inprocess.js';

let c: InProcessCliServer;
let noScopes: string;
let gistToken: string;
let finegrained: string;

beforeAll(async () => {
  c = await startInProcessCliServer();
  noScopes = (await c.server.userWithToken('nell', [])).token;
  gistToken = (await c.server.userWithToken('gus', ['gist'])).token;
  finegrained = await c.server.createToken('gus', { kind: 'fine_grained', permissions: { metadata: 'read' } });
  await c.server.createOrg('acme', 'gus');
});
afterAll(async () => c?.close());

describe('hints after an API refusal', () => {
  it('a token without the scope: the scope it needs, the one it has, and the command that issues one', async () => {
    const r = await c.remote(noScopes, ['gist', 'create', '-'], { stdin: 'hello\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"message": "Not Found"');
    expect(r.stderr).toContain('hint: this needs a token with the gist scope; yours has none');
    expect(r.stderr).toContain('hint: a site admin can issue one: hublet admin token create LOGIN --scopes gist');
  });

  it('a token with other scopes names them; one whose scope covers the route gets no scope hint', async () => {
    const r = await c.remote(gistToken, ['hook', 'list', '--org', 'acme']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/hint: this needs a token with the admin:org_hook scope; yours has gist/);
    const unknown = await c.remote(gistToken, ['gist', 'view', '0123456789abcdef0123456789abcdef']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('"message": "Not Found"');
    expect(unknown.stderr).not.toContain('hint:');
  });

  it('a fine-grained token names the permission the route accepts', async () => {
    const r = await c.remote(finegrained, ['gist', 'create', '-'], { stdin: 'x\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('hint: this needs a token with the fine-grained permission gists=write');
  });

  it('a refused token: exit 4 and how to sign in again', async () => {
    const r = await c.remote('hlp_notatoken00000000000000000000000000', ['gist', 'list']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('Bad credentials');
    expect(r.stderr).toContain('hint: the server refused the credential: sign in with `hublet auth login');
  });
});
