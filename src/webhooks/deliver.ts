// The delivery job: builds the signed request for one hook and one event, posts it, and records the attempt. While
// traces are on, each attempt is a span `webhook.deliver` of its own, linked to the span that recorded the event. A
// failed attempt may be retried on Standard Webhooks' schedule (off by default, as GitHub); a receiver answering
// `410 Gone` turns its hook off (Standard Webhooks).
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { scrubDeletedCopies } from '../db/dialect.js';
import type { JobRow } from '../db/schema.js';
import type { EventRow } from '../db/tables/events.js';
import { completeRunsIn, type JobRun } from '../jobs/worker.js';
import type { AppContext } from '../core/context.js';
import { VERSION } from '../version.js';
import { Batcher } from '../db/batch.js';
import { enqueueDelivery, type DeliverJob, type Destination } from './outbox.js';
import { OpenedCache } from '../secrets/opened-cache.js';
import { openConfig } from './sealed-config.js';
import { withGithubNames } from './github-headers.js';
import { deliverySignatures } from './sign.js';
import { eventsByIds } from '../events/store.js';
import {
  deleteFarewell,
  deliveriesSince,
  findFarewell,
  hooksByIds,
  insertDeliveries,
  lockExistingHooks,
  recentDeliveries,
  updateHook,
} from './store.js';
import { recordHookDisabled } from './audit.js';
import type { HookRow } from '../db/tables/webhooks.js';
import { installationTarget, type HookTarget } from './scope.js';
import type { Attempt, Transport } from './transport.js';
import type { Fairness } from './fairness.js';
import { inSpan } from '../tracing/spans.js';

/** GitHub does not send payloads over 25 MB; such a delivery is recorded as failed. */
const MAX_PAYLOAD_BYTES = 25 * 1024 * 1024;

const USER_AGENT = `hublet-Hookshot/${VERSION}`;

/** The exact bytes posted: the JSON itself, or `payload=<url-encoded JSON>` for form hooks. */
function requestBody(contentType: 'json' | 'form', json: string): Buffer {
  return Buffer.from(contentType === 'json' ? json : new URLSearchParams({ payload: json }).toString(), 'utf8');
}

interface DeliveryHeadersInput {
  guid: string;
  event: string;
  hookId: number;
  /** Whose hook it is (scope.ts installationTarget). */
  target: { type: string; id: number };
  destination: Destination;
  body: Buffer;
  /** When the attempt is made (Standard Webhooks' `webhook-timestamp`). */
  at: Date;
}

/** The secret before the last rotation while its overlap lasts, else null. */
function overlapping(d: Destination, at: Date): string | null {
  return d.previousSecret !== null && d.previousSecretUntil !== null && Date.parse(d.previousSecretUntil) > at.getTime()
    ? d.previousSecret
    : null;
}

/** The headers of spec section 6 and the hook's signatures (sign.ts); also what a delivery record shows. */
function deliveryHeaders(input: DeliveryHeadersInput): Record<string, string> {
  return {
    Accept: '*/*',
    'User-Agent': USER_AGENT,
    'X-Service-Delivery': input.guid,
    'X-Service-Event': input.event,
    'X-Service-Hook-ID': String(input.hookId),
    'X-Service-Hook-Installation-Target-ID': String(input.target.id),
    'X-Service-Hook-Installation-Target-Type': input.target.type,
    ...deliverySignatures({
      format: input.destination.signatureFormat,
      secret: input.destination.secret,
      previousSecret: overlapping(input.destination, input.at),
      id: input.guid,
      at: input.at,
      body: input.body,
    }),
    'content-type': input.destination.contentType === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
  };
}

/** The URL without credentials, and the Basic authorization they (or the hook's username/password) amount to. */
function splitCredentials(dest: Destination): { url: string; authorization?: string } {
  const u = new URL(dest.url);
  let user = dest.username ?? '';
  let pass = dest.password ?? '';
  if (u.username || u.password) {
    user = decodeURIComponent(u.username);
    pass = decodeURIComponent(u.password);
    u.username = '';
    u.password = '';
  }
  const authorization = user || pass ? `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` : undefined;
  return { url: u.toString(), authorization };
}

const succeeded = (code: number) => code >= 200 && code <= 399;

/** Standard Webhooks: the receiver wants no more deliveries; its hook is turned off and the delivery not retried. */
const GONE = 410;

/**
 * Standard Webhooks' example retry schedule, in seconds after each failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 * 14 h, 20 h, 24 h (the tenth attempt about 75 hours after the first); retries past the ninth wait 24 h each.
 */
const RETRY_SCHEDULE_S = [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400];

/**
 * How long to wait after failed attempt `attempt` (1 for the first): its step of the schedule scaled by
 * hookRetryBaseMs / 5000 (the first step lasts hookRetryBaseMs; 5000, the default, is the schedule as written), plus up
 * to 10 % of jitter, as the spec recommends.
 */
function retryDelay(config: Readonly<Config>, attempt: number): number {
  const step = RETRY_SCHEDULE_S[Math.min(attempt, RETRY_SCHEDULE_S.length) - 1];
  const scaled = (step / RETRY_SCHEDULE_S[0]) * config.hookRetryBaseMs;
  return Math.round(scaled * (1 + Math.random() / 10));
}

/** One finished attempt waiting to be written (with its job's completion) in the next batch. */
interface Recording {
  job: DeliverJob;
  run: JobRun;
  hookId: number;
  event: EventRow;
  deliveredAt: Date;
  attempt: Attempt;
  headers: Record<string, string>;
  url: string;
}

function byId<T extends { id: number }>(rows: T[], ids: number[]): (T | undefined)[] {
  const map = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => map.get(id));
}

/**
 * The delivery job handler. Concurrent jobs share their reads (one query for the hooks, one for the events of all
 * jobs started together) and their writes (one transaction records a batch of attempts and completes their jobs).
 */
export class Deliverer {
  private readonly hooks: Batcher<number, HookRow | undefined>;
  private readonly events: Batcher<number, EventRow | undefined>;
  private readonly recorder: Batcher<Recording, undefined>;
  /** Hook configs are opened at each delivery; AES-GCM once per sealed value is enough. */
  private readonly secrets: OpenedCache;

  constructor(
    private readonly ctx: AppContext,
    private readonly transport: Transport,
    private readonly fairness: Fairness,
  ) {
    this.hooks = new Batcher(async (ids) => byId(await hooksByIds(ctx.db, ids), ids));
    this.events = new Batcher(async (ids) => byId(await eventsByIds(ctx.db, ids), ids));
    // A group commit: while one transaction records a batch, the attempts finished meanwhile gather for the next.
    this.recorder = new Batcher((entries) => this.record(entries), { oneAtATime: true, max: 500 });
    this.secrets = new OpenedCache(ctx.secrets);
  }

  /** The job handler of the delivery queue. */
  readonly handle = async (job: DeliverJob, _row: JobRow, run: JobRun): Promise<void> => {
    const hook = await this.hooks.add(job.hookId);
    const event = await this.events.add(job.eventId);
    if (!event) return;
    // Deleted since: nothing to send, nowhere to record it, except the farewell of a hook deleted with its event (the
    // `meta` event announcing the deletion, an organization's `deleted` to its own hooks).
    if (!hook) return job.farewell || event.name === 'meta' ? this.farewell(job, event, run) : undefined;
    // An automatic retry stops once the hook is turned off.
    if (!hook.active && (job.attempt ?? 1) > 1) return;

    if (await this.throttled(job, hook.id, run)) return;

    // A slow destination beyond its share of the slots holds the job back instead (fairness.ts).
    const admission = await this.fairness.enter(hook.url, run);
    if (!admission) return;
    const sent = await this.send(job, event, openConfig(this.secrets, hook), hook).finally(() => this.fairness.leave(admission));
    // Sent: its slot goes to the next delivery while the attempt waits to be recorded, as long as the attempts waiting
    // are fewer than the slots (beyond that, recording is what holds deliveries back).
    if (this.recorder.size < this.ctx.config.hookConcurrency) run.releaseSlot();
    await this.recorder.add({ job, run, hookId: hook.id, event, ...sent });
  };

  /**
   * Sends one attempt (post): while traces are on, in a span `webhook.deliver` starting a trace of its own, linked to the
   * span that recorded the event (the request's, its traceparent kept with the event).
   */
  private send(
    job: DeliverJob,
    event: EventRow,
    destination: Destination,
    target: HookTarget,
  ): Promise<Pick<Recording, 'deliveredAt' | 'attempt' | 'headers' | 'url'>> {
    const attributes = {
      'webhook.hook.id': job.hookId,
      'webhook.event': event.name,
      'webhook.delivery.guid': event.guid,
      'webhook.attempt': job.attempt ?? 1,
      'webhook.redelivery': job.redelivery || undefined,
    };
    return inSpan('webhook.deliver', attributes, () => this.post(job, event, destination, target), {
      links: [event.trace_context],
      root: true,
      end: ({ attempt }) => ({
        'http.response.status_code': attempt.statusCode || undefined,
        'webhook.outcome': succeeded(attempt.statusCode) ? 'success' : 'failure',
        'error.type': succeeded(attempt.statusCode) ? undefined : attempt.statusCode ? String(attempt.statusCode) : attempt.status,
      }),
    });
  }

  /** Signs and posts one event with a hook's config (opened just now, dropped after). */
  private async post(
    job: DeliverJob,
    event: EventRow,
    destination: Destination,
    target: HookTarget,
  ): Promise<Pick<Recording, 'deliveredAt' | 'attempt' | 'headers' | 'url'>> {
    const body = requestBody(destination.contentType, event.payload);
    const deliveredAt = this.ctx.clock.now();
    const installation = installationTarget(target);
    const headers = withGithubNames(
      deliveryHeaders({
        guid: event.guid,
        event: event.name,
        hookId: job.hookId,
        target: installation,
        destination,
        body,
        at: deliveredAt,
      }),
      this.ctx.config.hookGithubHeaders,
    );
    const { url, authorization } = splitCredentials(destination);
    const attempt: Attempt =
      body.length > MAX_PAYLOAD_BYTES
        ? {
            statusCode: 0,
            status: `Payload too large: ${body.length} bytes (the limit is 25 MB); not sent`,
            responseHeaders: {},
            responseBody: null,
            duration: 0,
          }
        : await this.transport.post({
            url,
            insecureSsl: destination.insecureSsl === '1',
            headers: authorization ? { ...headers, Authorization: authorization } : headers,
            body,
          });
    this.ctx.log.debug({ hook: job.hookId, guid: event.guid, event: event.name, status: attempt.status }, 'webhook delivered');
    this.ctx.metrics.webhookDelivery(succeeded(attempt.statusCode) ? 'success' : 'failure', attempt.duration);
    return { deliveredAt, attempt, headers, url };
  }

  /**
   * The delivery to a hook deleted with its event (`meta` deleted, an organization's `deleted`): the hook is gone, its
   * sealed config waits in a farewell row. Sent once, not recorded (the hook's history went with it); the farewell is
   * deleted with the job's completion. A farewell that outlived its organization names it through the event.
   */
  private async farewell(job: DeliverJob, event: EventRow, run: JobRun): Promise<void> {
    const row = await findFarewell(this.ctx.db, job.hookId);
    if (!row) return;
    const target = row.scope === 'organization' && row.org_id === null ? { ...row, org_id: event.org_id } : row;
    await this.send(job, event, openConfig(this.secrets, row), target);
    await this.ctx.db.transaction().execute(async (trx) => {
      await deleteFarewell(trx, job.hookId);
      await run.completeIn(trx);
    });
    await scrubDeletedCopies(this.ctx.db);
  }

  /** Writes a batch of attempts and completes their jobs in one transaction. */
  private async record(entries: Recording[]): Promise<undefined[]> {
    await this.ctx.db.transaction().execute(async (trx) => {
      // A hook deleted while its request was in flight took its history with it: nothing to record for it.
      // Locked against changes: a concurrent delete waits until this batch is in.
      const alive = await lockExistingHooks(
        trx,
        entries.map((e) => e.hookId),
      );
      const kept = entries.filter((e) => alive.has(e.hookId));
      await insertDeliveries(
        trx,
        kept.map(({ job, hookId, event, deliveredAt, attempt, headers, url }) => ({
          hook_id: hookId,
          event_id: event.id,
          guid: event.guid,
          event: event.name,
          action: event.action,
          repository_id: event.repository_id,
          redelivery: job.redelivery || (job.attempt ?? 1) > 1 ? 1 : 0,
          delivered_at: deliveredAt.toISOString(),
          duration: attempt.duration,
          status: attempt.status,
          status_code: attempt.statusCode,
          throttled_at: job.throttledAt ?? null,
          url,
          request_headers: JSON.stringify(headers),
          response_headers: JSON.stringify(attempt.responseHeaders),
          response_body: attempt.responseBody,
        })),
      );
      for (const e of kept) {
        if (e.attempt.statusCode === GONE) await this.disable(trx, e.hookId, e.event, e.deliveredAt, 'the receiver answered 410 Gone');
        else if (!succeeded(e.attempt.statusCode)) await this.afterFailure(trx, e.job, e.hookId, e.event, e.deliveredAt);
      }
      await completeRunsIn(
        trx,
        entries.map((e) => e.run),
        this.ctx.clock.now(),
      );
    });
    return entries.map(() => undefined);
  }

  /** Per-hook throttling (off by default): over the limit, the delivery waits for a free slot and keeps `throttled_at`. */
  private async throttled(job: DeliverJob, hookId: number, run: JobRun): Promise<boolean> {
    const limit = this.ctx.config.hookThrottlePerMinute;
    if (limit <= 0) return false;
    const now = this.ctx.clock.now();
    const windowStart = new Date(now.getTime() - 60_000);
    const recent = await deliveriesSince(this.ctx.db, hookId, windowStart);
    if (recent < limit) return false;
    const waitMs = Math.ceil((60_000 / limit) * (recent - limit + 1));
    await this.ctx.db.transaction().execute(async (trx) => {
      await enqueueDelivery(
        this.ctx.jobs,
        trx,
        { ...job, throttledAt: job.throttledAt ?? now.toISOString() },
        now,
        new Date(now.getTime() + waitMs),
      );
      await run.completeIn(trx);
    });
    return true;
  }

  /** Automatic retries and automatic disabling, both off by default (GitHub does neither). */
  private async afterFailure(trx: Db, job: DeliverJob, hookId: number, event: EventRow, now: Date): Promise<void> {
    const config = this.ctx.config;
    const attempt = job.attempt ?? 1;
    if (attempt <= config.hookRetries) {
      const next: DeliverJob = { hookId: job.hookId, eventId: job.eventId, attempt: attempt + 1 };
      await enqueueDelivery(this.ctx.jobs, trx, next, now, new Date(now.getTime() + retryDelay(config, attempt)));
    }
    const n = config.hookDisableAfterFailures;
    if (n > 0) {
      const recent = await recentDeliveries(trx, hookId, n);
      const windowMs = config.hookDisableWindowMinutes * 60_000;
      if (
        recent.length === n &&
        recent.every((d) => !succeeded(d.status_code)) &&
        now.getTime() - Date.parse(recent[n - 1].delivered_at) >= windowMs
      ) {
        await this.disable(trx, hookId, event, now, `disabled after ${n} failed deliveries in a row`);
      }
    }
  }

  /** Turns an active hook off for `reason` (shown nowhere but the log and its audit entry, `hook.active_changed` by nobody). */
  private async disable(trx: Db, hookId: number, event: EventRow, now: Date, reason: string): Promise<void> {
    const [before] = await hooksByIds(trx, [hookId]);
    if (!before?.active) return;
    const after = await updateHook(trx, hookId, { active: 0, disabled_reason: reason, updated_at: now.toISOString() });
    await recordHookDisabled(trx, this.ctx, { before, after, reason, event });
    this.ctx.log.warn({ hook: hookId }, reason);
  }
}
