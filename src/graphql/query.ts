// The query root: the viewer, accounts by login, repositories by owner and name, objects by the node ids the REST API
// hands out (core/urls.ts nodeId), and the caller's rate limit.
import { findAccount, findAccountById } from '../accounts/store.js';
import { requireGist } from '../gists/service.js';
import { resolveRepositoryById } from '../repos/service.js';
import { NotFound } from '../core/errors.js';
import { nodeId } from '../core/urls.js';
import { accountObject } from './accounts.js';
import type { GraphqlContext } from './context.js';
import { notFound, typedError } from './errors.js';
import { gistObject } from './gists.js';
import { repositoryByName } from './links.js';
import { repositoryObject } from './repositories.js';

/** The most ids `nodes(ids:)` looks up at once (GitHub's limit). */
const MAX_NODE_IDS = 100;

/** The type and key a node id names (`0<len>:<Type><key>` in base64), or null for anything this server did not make. */
function decodeNodeId(id: string): { type: string; key: string } | null {
  const text = Buffer.from(id, 'base64').toString('utf8');
  const m = /^0(\d{1,2}):/.exec(text);
  if (!m) return null;
  const rest = text.slice(m[0].length);
  const type = rest.slice(0, Number(m[1]));
  const key = rest.slice(type.length);
  return key && nodeId(type, key) === id ? { type, key } : null;
}

/** The object a node id names, as the caller may see it (the same read rules as REST), or null. */
async function nodeById(g: GraphqlContext, id: string): Promise<unknown> {
  const named = decodeNodeId(id);
  if (!named) return null;
  try {
    switch (named.type) {
      case 'User':
      case 'Organization': {
        const row = /^\d{1,10}$/.test(named.key) ? await findAccountById(g.ctx.db, Number(named.key)) : undefined;
        return row?.type === named.type ? accountObject(row, g) : null;
      }
      case 'Repository':
        return /^\d{1,10}$/.test(named.key) ? repositoryObject(await resolveRepositoryById(g.ctx, Number(named.key)), g) : null;
      case 'Gist':
        return gistObject({ gist: await requireGist(g.ctx, named.key) }, g);
      default:
        return null;
    }
  } catch (err) {
    if (err instanceof NotFound) return null;
    throw err;
  }
}

async function node(g: GraphqlContext, id: string): Promise<unknown> {
  const found = await nodeById(g, id);
  if (!found) throw notFound(`Could not resolve to a node with the global id of '${id}'`);
  return found;
}

async function account(g: GraphqlContext, login: string, type: 'User' | 'Organization') {
  const row = await findAccount(g.ctx.db, login);
  if (row?.type !== type) {
    throw notFound(`Could not resolve to ${type === 'User' ? 'a User' : 'an Organization'} with the login of '${login}'.`);
  }
  return accountObject(row, g);
}

type Args = Record<string, unknown>;

/** The root fields (schema.ts attaches them). */
export const QUERY: Record<string, (source: unknown, args: never, g: GraphqlContext) => unknown> = {
  viewer: (_s: unknown, _a: Args, g: GraphqlContext) => accountObject(g.ctx.actor!.user, g),
  user: (_s: unknown, a: { login: string }, g: GraphqlContext) => account(g, a.login, 'User'),
  organization: (_s: unknown, a: { login: string }, g: GraphqlContext) => account(g, a.login, 'Organization'),
  repositoryOwner: async (_s: unknown, a: { login: string }, g: GraphqlContext) => {
    const row = await findAccount(g.ctx.db, a.login);
    return row ? accountObject(row, g) : null;
  },
  repository: (_s: unknown, a: { owner: string; name: string; followRenames: boolean }, g: GraphqlContext) =>
    repositoryByName(g, a.owner, a.name, a.followRenames),
  node: (_s: unknown, a: { id: string }, g: GraphqlContext) => node(g, a.id),
  nodes: (_s: unknown, a: { ids: string[] }, g: GraphqlContext) => {
    if (a.ids.length > MAX_NODE_IDS) {
      throw typedError(
        'EXCESSIVE_PAGINATION',
        `Requesting ${a.ids.length} ids on the \`nodes\` field exceeds its limit of ${MAX_NODE_IDS}.`,
      );
    }
    // Each id that names nothing is null, with its own NOT_FOUND error at its index.
    return a.ids.map((id) => node(g, id));
  },
  rateLimit: (_s: unknown, _a: Args, g: GraphqlContext) => {
    const r = g.rate;
    if (!r) return null;
    return {
      cost: 1,
      limit: r.limit,
      remaining: r.remaining,
      used: r.used,
      resetAt: new Date(r.reset * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      nodeCount: g.nodeCount,
    };
  },
};
