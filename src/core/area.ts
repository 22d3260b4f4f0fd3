// The one shape of an area (gists, repositories, webhooks, migrations, audit, accounts): everything it adds to an app, declared
// in one object that src/server/app.ts lists and wires the same way for every area.
import type { FastifyPluginAsync } from 'fastify';
import type { EventListener } from '../events/emit.js';
import type { QueueDeclaration } from '../jobs/worker.js';
import type { AccountFiles, AuditLog, EnterpriseStatsOf, HookImports, ProfileCountsOf, RepositoryReads } from './contributions.js';
import type { AppContext } from './context.js';

/** What an area builds for one app (its state lives here, in closures, never in module-level variables). */
interface AreaParts {
  /** Its job queues with their handlers. */
  queues?: QueueDeclaration[];
  /** Listeners run in the transaction of every event. */
  eventListeners?: EventListener[];
  /** Runs when the app is ready (Fastify's onReady), before it serves: e.g. resealing secrets, scheduling periodic jobs. */
  onReady?: () => Promise<void>;
  /** Runs when the app closes, after the job worker stopped (running jobs finished): connection pools and the like. */
  onClose?: () => Promise<void>;
}

export interface Area {
  /** For logs and errors. */
  readonly name: string;
  /** The area's routes: one Fastify plugin, registered with `app.register` (its own encapsulated context). */
  readonly routes?: FastifyPluginAsync;
  /**
   * The URL patterns of its GET routes that answer through the response cache (`ctx.responses.respond`) and need no hook
   * of their own: a current cached response of theirs is answered before routing (http/fast-path.ts), by the
   * app's rules (version, credentials, grant, rate limit, conditional GET), exactly as the route would answer it.
   */
  readonly cachedReads?: readonly string[];
  /** The directories the area keeps for an account, removed when the account is deleted. */
  readonly accountFiles?: AccountFiles;
  /** The area's counts on account profiles. */
  readonly profileCounts?: ProfileCountsOf;
  /** The area's part of the instance's statistics (GET /enterprise/stats/*). */
  readonly enterpriseStats?: EnterpriseStatsOf;
  /** The repository reads it lends the other areas (the repositories area; exactly one area provides them). */
  readonly repositoryReads?: RepositoryReads;
  /** The webhook imports it lends the migrations importer (the webhooks area; exactly one area provides them). */
  readonly hookImports?: HookImports;
  /** The audit log every area records its changes in (the audit area; exactly one area provides it). */
  readonly auditLog?: AuditLog;
  /** Builds the area's per-app parts (queues, event listeners, lifecycle), once per app, before any route is registered. */
  readonly setup?: (ctx: AppContext) => AreaParts;
}
