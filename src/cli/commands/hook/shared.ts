// What the `hook` commands share: the API's hook and delivery shapes, their paths and options, and how a delivery is awaited and shown.
import { Option } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';

export interface Hook {
  id: number;
  active: boolean;
  events: string[];
  config: { url: string; content_type: string; insecure_ssl: string; secret?: string };
  last_response: { code: number | null; status: string; message: string | null };
  created_at: string;
  updated_at: string;
}

export interface Delivery {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  url?: string;
  request?: { headers: Record<string, string>; payload: unknown };
  response?: { headers: Record<string, string>; payload: string | null };
}

/** The queue of webhook deliveries: locally the command runs it before returning (Client.settle). */
export const DELIVER_QUEUE = 'hooks.deliver';

export const hooksPath = (org: string) => `/orgs/${encodeURIComponent(org)}/hooks`;

export const orgOption = () => new Option('--org <org>', 'the organization').makeOptionMandatory();
export const contentTypeOption = () => new Option('--content-type <type>', 'payload format').choices(['json', 'form']);

async function newestDeliveries(client: Client, org: string, id: string): Promise<Delivery[]> {
  const res = expectOk(await client.request('GET', `${hooksPath(org)}/${id}/deliveries?per_page=20`));
  return res.body as Delivery[];
}

/** The id of the newest delivery of a hook (0 when there is none): what a new one is told apart by. */
export async function newestDeliveryId(client: Client, org: string, id: string): Promise<number> {
  return (await newestDeliveries(client, org, id))[0]?.id ?? 0;
}

/**
 * Waits up to `waitMs` for a delivery newer than `after`. Locally it has usually happened already (unless a server on
 * the same data dir claimed the job first); remotely the server delivers it. Undefined when none showed up in time.
 */
export async function awaitDelivery(client: Client, org: string, id: string, after: number, match: (d: Delivery) => boolean, waitMs: number): Promise<Delivery | undefined> {
  await client.settle([DELIVER_QUEUE]);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const d = (await newestDeliveries(client, org, id)).find((x) => x.id > after && match(x));
    if (d) return d;
    if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function deliveryLine(d: Delivery): string {
  return `delivery ${d.id} (${d.event}${d.redelivery ? ', redelivery' : ''}): ${d.status_code || '-'} ${d.status} in ${d.duration}s`;
}

export function printHook(out: NodeJS.WritableStream, h: Hook): void {
  const lines = [
    ['id', String(h.id)],
    ['url', h.config.url],
    ['content type', h.config.content_type],
    ['secret', h.config.secret ? 'set' : 'none'],
    ['insecure ssl', h.config.insecure_ssl === '1' ? 'yes (certificates not verified)' : 'no'],
    ['events', h.events.join(', ')],
    ['active', h.active ? 'yes' : 'no'],
    ['last response', h.last_response.message ? `${h.last_response.code ?? '-'} ${h.last_response.message}` : h.last_response.status],
    ['created', h.created_at],
    ['updated', h.updated_at],
  ];
  for (const [k, v] of lines) out.write(`${k.padEnd(14)}${v}\n`);
}

/** Ends with exit 1 when a delivery failed, so scripts can tell. */
export function reportDelivery(io: IO, d: Delivery | undefined, json: boolean, pending: string): void {
  if (!d) {
    if (json) printJson(io.stdout, null);
    else io.stdout.write(`${pending}\n`);
    return;
  }
  if (json) printJson(io.stdout, d);
  else io.stdout.write(`${deliveryLine(d)}\n`);
  if (!(d.status_code >= 200 && d.status_code < 400)) throw new CliExit(EXIT.error, `hublet: delivery ${d.id} failed: ${d.status}`);
}
