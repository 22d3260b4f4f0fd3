// `hublet hook redeliver --org ORG ID --failed [--since DURATION|TIME]`: sends every failed delivery of a hook again,
// through the public API (the deliveries list with `status=failure`, cursor pages, then one `POST …/attempts` each).
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import { findNextPage, nextRequestPath } from '../api/paginate.js';
import { DELIVER_QUEUE, hookPath, type Delivery, type HookOptions } from './shared.js';

interface RedeliverFailedOptions extends HookOptions {
  /** Only deliveries made at or after this time; all the hook still has when undefined. */
  since?: Date;
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `--since`: a duration back from `now` (`90s`, `30m`, `12h`, `7d`, `2w`) or a time (ISO 8601, `2026-11-20` or
 * `2026-11-20T10:00:00Z`). Undefined when it is neither.
 */
export function parseSince(text: string, now: Date): Date | undefined {
  const d = /^(\d{1,9})([smhdw])$/.exec(text.trim());
  if (d) return new Date(now.getTime() - Number(d[1]) * UNITS[d[2]]);
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text.trim())) return undefined;
  const t = Date.parse(text.trim());
  return Number.isNaN(t) ? undefined : new Date(t);
}

/** The hook's deliveries with this status, newest first, page by page, down to `since`. */
async function deliveriesSince(opts: RedeliverFailedOptions, status: 'failure' | 'success'): Promise<Delivery[]> {
  const { client, since } = opts;
  const out: Delivery[] = [];
  let next: string | undefined = `${hookPath(opts)}/deliveries?per_page=100&status=${status}`;
  while (next) {
    const res = expectOk(await client.request('GET', next));
    for (const d of res.body as Delivery[]) {
      if (since && Date.parse(d.delivered_at) < since.getTime()) return out;
      out.push(d);
    }
    const link = findNextPage(res.headers.link);
    next = link ? nextRequestPath(link, next) : undefined;
  }
  return out;
}

const eventOf = (d: Delivery) => (d.action ? `${d.event}.${d.action}` : d.event);
const statusOf = (d: Delivery) => `${d.status_code || '-'} ${d.status}`;

/**
 * One attempt per failed event (its newest failed delivery; a guid delivered successfully since is left alone, as
 * GitHub's redelivery script does), oldest first. Prints each and a summary; exits 1 if any attempt was refused.
 */
export async function runRedeliverFailed(opts: RedeliverFailedOptions, io: IO): Promise<void> {
  const { client, id, since } = opts;
  const failed = await deliveriesSince(opts, 'failure');
  const succeeded = new Set((await deliveriesSince(opts, 'success')).map((d) => d.guid));
  const seen = new Set<string>();
  const todo: Delivery[] = [];
  let skipped = 0;
  for (const d of failed) {
    if (seen.has(d.guid)) continue;
    seen.add(d.guid);
    if (succeeded.has(d.guid)) skipped++;
    else todo.push(d);
  }
  todo.reverse();

  const redelivered: Delivery[] = [];
  const refused: { id: number; message: string }[] = [];
  for (const d of todo) {
    const res = await client.request('POST', `${hookPath(opts)}/deliveries/${d.id}/attempts`);
    if (res.status < 400) {
      redelivered.push(d);
      if (!opts.json) io.stdout.write(`redelivered ${d.id}  ${eventOf(d)}  (was ${statusOf(d)}, ${d.delivered_at})\n`);
      continue;
    }
    const message =
      typeof res.body === 'object' && res.body && 'message' in res.body ? String(res.body.message) : res.text || `HTTP ${res.status}`;
    refused.push({ id: d.id, message });
    io.stderr.write(`hublet: could not redeliver ${d.id}: ${res.status} ${message}\n`);
  }
  // Locally this process runs the deliveries before it exits; remotely the server does.
  if (redelivered.length > 0) await client.settle([DELIVER_QUEUE]);

  if (opts.json) {
    const brief = (d: Delivery) => ({
      id: d.id,
      guid: d.guid,
      event: d.event,
      action: d.action,
      status: d.status,
      status_code: d.status_code,
      delivered_at: d.delivered_at,
    });
    printJson(io.stdout, { redelivered: redelivered.map(brief), failed: refused, skipped_delivered_since: skipped });
  } else {
    const window = since ? ` since ${since.toISOString()}` : '';
    const notes = [
      skipped > 0 ? `${skipped} delivered successfully since, skipped` : '',
      refused.length > 0 ? `${refused.length} could not be redelivered` : '',
    ].filter(Boolean);
    io.stdout.write(
      `${redelivered.length} failed ${redelivered.length === 1 ? 'delivery' : 'deliveries'} of hook ${id}${window} redelivered${notes.length ? ` (${notes.join('; ')})` : ''}\n`,
    );
  }
  if (refused.length > 0) throw new CliExit(EXIT.error, `hublet: ${refused.length} of ${todo.length} redeliveries failed`);
}
