// The webhooks area (organization, repository and global hooks): routes, the event listener that turns events into
// delivery jobs (the outbox), the delivery and retention queues, hook secrets resealed with the current key before
// anything is delivered; hook counts in the instance's statistics; an archive's organization hooks imported (lent to
// the migrations importer).
import type { Area } from '../core/area.js';
import { Deliverer } from './deliver.js';
import { Fairness } from './fairness.js';
import { hookImports } from './import-hooks.js';
import { DELIVER_QUEUE, fanOut } from './outbox.js';
import { resealHookSecrets } from './reseal.js';
import { PRUNE_QUEUE, pruneHandler, schedulePrune } from './retention.js';
import { HOOK_CACHED_READS, hookRoutes } from './routes.js';
import { hookStats } from './store.js';
import { Transport } from './transport.js';

export const webhooksArea: Area = {
  name: 'webhooks',
  routes: hookRoutes,
  // What an owner reads of their hooks, kept per credential while nothing changed (routes.ts).
  cachedReads: HOOK_CACHED_READS,
  enterpriseStats: hookStats,
  hookImports,
  setup(ctx) {
    const transport = new Transport({
      allowedHosts: ctx.config.hookAllowedHosts,
      timeoutMs: ctx.config.hookTimeoutMs,
      connections: ctx.config.hookConcurrency,
    });
    const fairness = new Fairness(ctx, { slots: ctx.config.hookConcurrency, timeoutMs: ctx.config.hookTimeoutMs });
    const deliverer = new Deliverer(ctx, transport, fairness);
    return {
      queues: [
        { queue: DELIVER_QUEUE, handler: deliverer.handle, concurrency: ctx.config.hookConcurrency, leaseMs: ctx.config.hookLeaseMs },
        { queue: PRUNE_QUEUE, handler: pruneHandler(ctx), concurrency: 1 },
      ],
      eventListeners: [fanOut(ctx.jobs)],
      onReady: async () => {
        // Before anything is delivered: configs sealed with the current key (a start with the wrong key stops here).
        await resealHookSecrets(ctx);
        await schedulePrune(ctx);
        fairness.start();
      },
      // Called once running deliveries finished: only then do the connection pools close.
      onClose: () => {
        fairness.stop();
        return transport.close();
      },
    };
  },
};
