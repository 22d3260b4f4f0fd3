// Repository lists run a fixed number of queries however many repositories (and organizations) a page holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries } from '../helpers/query-count.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: { login: string; token: string };
let bob: { login: string; token: string };
let carol: { login: string; token: string };
let dave: { login: string; token: string };

async function create(token: string, p: string, name: string, isPrivate = false): Promise<void> {
  const r = await s.api('POST', p, { token, body: { name, private: isPrivate } });
  if (r.status !== 201) throw new Error(`setup: ${r.status} ${r.text}`);
}

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  alice = await s.userWithToken('alice');
  bob = await s.userWithToken('bob');
  carol = await s.userWithToken('carol');
  dave = await s.userWithToken('dave');
  // small: one repository, dave its member; big: six, half private, bob a member; third: one, bob an owner.
  await s.createOrg('small', 'alice');
  await s.createOrg('big', 'alice');
  await s.createOrg('third', 'carol');
  await s.addMember('small', 'dave');
  await s.addMember('big', 'bob');
  await s.addMember('third', 'bob', 'admin');
  await create(alice.token, '/orgs/small/repos', 'only');
  for (let i = 0; i < 6; i++) await create(alice.token, '/orgs/big/repos', `r${i}`, i % 2 === 1);
  await create(carol.token, '/orgs/third/repos', 't0', true);
  await create(carol.token, '/user/repos', 'carols');
  // A token's first use is looked up (later ones are answered from memory): use each once before counting.
  for (const u of [alice, bob, carol, dave]) expect((await s.api('GET', '/user', { token: u.token })).status).toBe(200);
});
afterAll(async () => s?.close());

async function queriesFor(path: string, token?: string): Promise<{ count: number; body: any[] }> {
  let body: any[] = [];
  const count = await countQueries(s, async () => {
    const r = await s.api('GET', path, { token });
    expect(r.status, path).toBe(200);
    body = r.body;
  });
  return { count, body };
}

const perms = (body: any[]) => Object.fromEntries(body.map((r) => [r.full_name, r.permissions]));

describe('organization repository lists', () => {
  it('GET /orgs/{org}/repos: as many queries for six repositories as for one, with each caller’s permissions', async () => {
    const one = await queriesFor('/orgs/small/repos', bob.token);
    const six = await queriesFor('/orgs/big/repos', bob.token);
    expect(one.body).toHaveLength(1);
    expect(six.body).toHaveLength(6);
    expect(six.count).toBe(one.count);
    expect(perms(six.body)['big/r1']).toEqual({ admin: false, maintain: false, push: true, triage: true, pull: true });
    expect(perms(one.body)['small/only']).toEqual({ admin: false, maintain: false, push: false, triage: false, pull: true });
    const owner = await queriesFor('/orgs/big/repos', alice.token);
    expect(owner.count).toBe(one.count);
    expect(Object.values(perms(owner.body)).every((p: any) => p.admin && p.push)).toBe(true);
  });

  it('GET /user/repos: a member of two organizations with seven repositories costs what a member of one with one does', async () => {
    const one = await queriesFor('/user/repos', dave.token);
    const many = await queriesFor('/user/repos', bob.token);
    expect(one.body.map((r) => r.full_name)).toEqual(['small/only']);
    expect(many.body.map((r) => r.full_name)).toEqual(['big/r0', 'big/r1', 'big/r2', 'big/r3', 'big/r4', 'big/r5', 'third/t0']);
    expect(perms(many.body)['third/t0']).toMatchObject({ admin: true, push: true });
    expect(perms(many.body)['big/r3']).toMatchObject({ admin: false, push: true });
    expect(many.count).toBe(one.count);
  });

  it('GET /users/{username}/repos?type=all: a fixed number of queries however many organizations and repositories', async () => {
    const one = await queriesFor('/users/dave/repos?type=all', carol.token);
    const many = await queriesFor('/users/bob/repos?type=all', carol.token);
    expect(one.body.map((r) => r.full_name)).toEqual(['small/only']);
    expect(many.body.map((r) => r.full_name)).toEqual(['big/r0', 'big/r2', 'big/r4']);
    expect(Object.values(perms(many.body)).every((p: any) => p.pull && !p.push)).toBe(true);
    expect(many.count).toBe(one.count);
  });
});
