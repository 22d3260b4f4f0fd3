// The request path in the other areas (issue 28): one common read each of webhooks, gists, repositories, hook
// deliveries and GraphQL at 50 connections, against the same-bytes baseline (target: 0.1× of it or better). Each case
// seeds its own handful of objects through the API on the shared server, under names no other case uses.
import { atLeast } from '../goals.js';
import { httpCase } from '../http-case.js';
import { startReceiver } from '../receiver.js';
import type { BenchContext } from '../types.js';

const GOALS = [atLeast('ratio', 0.1, '× baseline')];

const auth = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/vnd.service+json' });

/** A user with a token (scopes for gists, repositories and organization hooks) and `gists` one-file gists of theirs. */
async function userWithGists(ctx: BenchContext, login: string, gists: number): Promise<string> {
  await ctx.api('POST', '/admin/users', { login });
  const { token } = await ctx.api('POST', `/admin/users/${login}/authorizations`, { scopes: ['gist', 'repo', 'user'] });
  const create = (i: number) =>
    ctx.api(
      'POST',
      '/gists',
      { description: `gist ${i} of ${login}`, public: true, files: { 'notes.md': { content: `# Notes ${i}\n\nA line or two.\n` } } },
      token,
    );
  // Ten at a time: a few hundred milliseconds in all.
  for (let i = 0; i < gists; i += 10) await Promise.all(Array.from({ length: Math.min(10, gists - i) }, (_, j) => create(i + j)));
  return token as string;
}

/** Polls until `check` holds (every 50 ms, for up to `timeoutMs`). */
async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const orgHooks = httpCase({
  name: 'GET /orgs/{org}/hooks (10 hooks), 50 connections',
  goals: GOALS,
  async setup(ctx) {
    await ctx.api('POST', '/admin/organizations', { login: 'benchhooklist', admin: 'admin' });
    // Turned off: nothing is delivered (creating an active hook pings it), and the list is the same.
    for (let i = 0; i < 10; i++)
      await ctx.api('POST', '/orgs/benchhooklist/hooks', {
        name: 'web',
        active: false,
        config: { url: `http://127.0.0.1:9/hook/${i}`, content_type: 'json' },
        events: ['push', 'repository'],
      });
    return [{ path: '/orgs/benchhooklist/hooks', headers: auth(ctx.server.adminToken) }];
  },
});

const ownGists = httpCase({
  name: 'GET /gists?per_page=30 (a user with 31 gists), 50 connections',
  goals: GOALS,
  async setup(ctx) {
    const token = await userWithGists(ctx, 'benchgistlister', 31);
    return [{ path: '/gists?per_page=30', headers: auth(token) }];
  },
});

const repository = httpCase({
  name: 'GET /repos/{owner}/{repo}, 50 connections',
  goals: GOALS,
  async setup(ctx) {
    await ctx.api('POST', '/admin/organizations', { login: 'benchrepoorg', admin: 'admin' });
    await ctx.api('POST', '/orgs/benchrepoorg/repos', { name: 'app', description: 'a repository read under load' });
    return [{ path: '/repos/benchrepoorg/app', headers: auth(ctx.server.adminToken) }];
  },
});

const PINGS = 30;

const deliveries = httpCase({
  name: 'GET /orgs/{org}/hooks/{id}/deliveries?per_page=30 (31 recorded), 50 connections',
  goals: GOALS,
  async setup(ctx) {
    const receiver = await startReceiver();
    try {
      await ctx.api('POST', '/admin/organizations', { login: 'benchdeliveries', admin: 'admin' });
      const { id } = await ctx.api('POST', '/orgs/benchdeliveries/hooks', {
        name: 'web',
        config: { url: `${receiver.url}/deliveries`, content_type: 'json' },
        events: ['push'],
      });
      // The creation ping and 30 more, each recorded once the receiver answered.
      for (let i = 0; i < PINGS; i++) await ctx.api('POST', `/orgs/benchdeliveries/hooks/${id}/pings`);
      const recorded = async () => (await ctx.api('GET', `/orgs/benchdeliveries/hooks/${id}/deliveries?per_page=100`)).length as number;
      await waitUntil(async () => (await recorded()) >= PINGS + 1, 30_000, `${PINGS + 1} deliveries recorded`);
      return [{ path: `/orgs/benchdeliveries/hooks/${id}/deliveries?per_page=30`, headers: auth(ctx.server.adminToken) }];
    } finally {
      await receiver.stop();
    }
  },
});

const graphqlGists = httpCase({
  name: 'POST /api/graphql { viewer { gists(first: 30) { nodes { name description } } } }, 50 connections',
  goals: GOALS,
  async setup(ctx) {
    const token = await userWithGists(ctx, 'benchgraphql', 31);
    const body = JSON.stringify({ query: '{ viewer { gists(first: 30) { nodes { name description } } } }' });
    return [
      { method: 'POST', path: '/api/graphql', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body },
    ];
  },
});

export const areaReadCases = [orgHooks, ownGists, repository, deliveries, graphqlGists];
