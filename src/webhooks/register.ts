// Wires organization webhooks into an app: routes, the event listener (outbox), the delivery and retention jobs.
import type { FastifyInstance } from 'fastify';
import { onEvent } from '../events/emit.js';
import { Deliverer } from './deliver.js';
import { DELIVER_QUEUE, fanOut } from './outbox.js';
import { resealHookSecrets } from './reseal.js';
import { PRUNE_QUEUE, pruneHandler, schedulePrune } from './retention.js';
import { hookRoutes } from './routes.js';
import { Transport } from './transport.js';

export async function registerHooks(app: FastifyInstance): Promise<void> {
  const ctx = app.hublet;
  onEvent(fanOut);
  const transport = new Transport({ allowedHosts: ctx.config.hookAllowedHosts, timeoutMs: ctx.config.hookTimeoutMs, connections: ctx.config.hookConcurrency });
  const deliverer = new Deliverer(ctx, transport);
  ctx.jobs.register(DELIVER_QUEUE, deliverer.handle, { concurrency: ctx.config.hookConcurrency, leaseMs: ctx.config.hookLeaseMs });
  ctx.jobs.register(PRUNE_QUEUE, pruneHandler(ctx), { concurrency: 1 });
  // Before anything is delivered: configs sealed with the current key (a start with the wrong key stops here).
  app.addHook('onReady', () => resealHookSecrets(ctx));
  app.addHook('onReady', () => schedulePrune(ctx));
  app.addHook('onClose', async () => {
    // Running deliveries finish first; only then do the connection pools close.
    await ctx.jobs.stop();
    await transport.close();
  });
  await app.register(hookRoutes);
}
