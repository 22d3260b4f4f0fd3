// What every service receives: the database, the configuration, URL building, a clock, the app's registries (jobs,
// events, what areas contribute to accounts, the repository reads lent to other areas, the audit log), all built per
// app, and the caller with where the request came from.
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import type { EventLog } from '../events/emit.js';
import type { JobWorker } from '../jobs/worker.js';
import type { Metrics } from '../metrics/metrics.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { Actor } from './grants.js';
import type { Urls } from './urls.js';
import type { AccountContributions, AuditLog, HookImports, RepositoryReads, RequestClient } from './contributions.js';

/**
 * Whole responses kept while the database is unchanged: a route answers through `respond`, which builds the body only
 * when nothing current is kept (the request pipeline's response cache, src/http/response-cache.ts, is the one).
 */
interface CachedResponses {
  respond(request: FastifyRequest, reply: FastifyReply, key: string, build: () => Promise<unknown>): Promise<FastifyReply>;
}

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** Shared by every request of one app. `config` and `urls` are replaced once, after listen, when port 0 picked the real port. */
export interface AppContext {
  db: Db;
  config: Readonly<Config>;
  urls: Urls;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The durable job queue and its worker: jobs are enqueued through it; the areas' queues are registered on it; `serve` starts it. */
  jobs: JobWorker;
  /** The event log: events are recorded through it; the areas' listeners run in the transaction of each. */
  events: EventLog;
  /** What the areas contribute to accounts (directories removed with one, counts on profiles). */
  accounts: AccountContributions;
  /** What the repositories area lends the others (webhooks: a repository, who administers it, its payload object). */
  repositories: RepositoryReads;
  /** What the webhooks area lends the migrations importer (an archive's organization webhooks, imported inactive). */
  hooks: HookImports;
  /** Hot reads answered from memory while the database is unchanged. */
  responses: CachedResponses;
  /** Seals and opens secrets kept at rest (hook secrets, passwords, URL credentials) with the configured key. */
  secrets: SecretBox;
  /** What the areas count for Prometheus (`ctx.metrics.signIn('success')`); does nothing when metrics are off. */
  metrics: Metrics;
  /** The audit log (the audit area's): every audited change records its entry through it, in the change's transaction. */
  audit: AuditLog;
}

export interface ServiceContext extends AppContext {
  actor: Actor | null;
  /** Where the request came from (its address and User-Agent), for the audit log; unset outside a request. */
  client?: RequestClient | null;
}
