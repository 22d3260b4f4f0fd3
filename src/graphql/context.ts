// What every resolver of one GraphQL request receives: the request's service context (database, URLs, caller), the
// caller's rate-limit state for `rateLimit`, the node count the limits measured, and per-request batched lookups.
import type { ServiceContext } from '../core/context.js';
import { Batcher } from '../db/batch.js';
import { starCounts, starredBy } from '../gists/store.js';
import { lockedAmong } from '../repos/reads.js';

export interface RateView {
  limit: number;
  remaining: number;
  used: number;
  /** Epoch seconds. */
  reset: number;
}

export interface GraphqlContext {
  ctx: ServiceContext;
  /** The caller's rate-limit state as this request's X-RateLimit-* headers show it (null: not limited, the CLI's local app). */
  rate: RateView | null;
  /** The query's node count as the limits measured it (`rateLimit.nodeCount`). */
  nodeCount: number;
  /** A gist's stars, many gists in one query. */
  stars: Batcher<string, number>;
  /** Whether the caller starred a gist, many gists in one query. */
  starred: Batcher<string, boolean>;
  /** Whether a migration locked a repository, many repositories in one query. */
  locked: Batcher<number, boolean>;
}

export function graphqlContext(ctx: ServiceContext, rate: RateView | null, nodeCount: number): GraphqlContext {
  return {
    ctx,
    rate,
    nodeCount,
    stars: new Batcher(async (ids) => {
      const counts = await starCounts(ctx.db, ids);
      return ids.map((id) => counts.get(id) ?? 0);
    }),
    starred: new Batcher(async (ids) => {
      const userId = ctx.actor?.user.id;
      if (userId === undefined) return ids.map(() => false);
      const set = await starredBy(ctx.db, userId, ids);
      return ids.map((id) => set.has(id));
    }),
    locked: new Batcher(async (ids) => {
      const set = await lockedAmong(ctx.db, ids);
      return ids.map((id) => set.has(id));
    }),
  };
}
