// `hublet hook …`: organization webhooks and their deliveries through the API (locally, deliveries run before returning).
import { Command, Option } from 'commander';
import { LocalClient, type Client } from '../client.js';
import { CliExit, EXIT, expectOk, printJson, printTable } from '../output.js';
import { commaList as csv, positiveIntegerText as hookId } from './option-values.js';
import { withClient } from './with-client.js';

interface Hook {
  id: number;
  active: boolean;
  events: string[];
  config: { url: string; content_type: string; insecure_ssl: string; secret?: string };
  last_response: { code: number | null; status: string; message: string | null };
  created_at: string;
  updated_at: string;
}

interface Delivery {
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

const DELIVER_QUEUE = 'hooks.deliver';

const enc = encodeURIComponent;
const hooksPath = (org: string) => `/orgs/${enc(org)}/hooks`;

/** Deliveries queued by the last request: locally they run now; a server delivers them on its own. */
async function deliverNow(client: Client): Promise<void> {
  if (client instanceof LocalClient) await client.drainJobs([DELIVER_QUEUE]);
}

async function newestDeliveries(client: Client, org: string, id: string): Promise<Delivery[]> {
  const res = expectOk(await client.request('GET', `${hooksPath(org)}/${id}/deliveries?per_page=20`));
  return res.body as Delivery[];
}

/**
 * Waits up to `waitMs` for a delivery newer than `after`. Locally it has usually happened already (unless a server on
 * the same data dir claimed the job first); remotely the server delivers it. Undefined when none showed up in time.
 */
async function awaitDelivery(client: Client, org: string, id: string, after: number, match: (d: Delivery) => boolean, waitMs: number): Promise<Delivery | undefined> {
  await deliverNow(client);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const d = (await newestDeliveries(client, org, id)).find((x) => x.id > after && match(x));
    if (d) return d;
    if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, 200));
  }
}

function deliveryLine(d: Delivery): string {
  return `delivery ${d.id} (${d.event}${d.redelivery ? ', redelivery' : ''}): ${d.status_code || '-'} ${d.status} in ${d.duration}s`;
}

function printHook(h: Hook): void {
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
  for (const [k, v] of lines) process.stdout.write(`${k.padEnd(14)}${v}\n`);
}

/** Ends with exit 1 when a delivery failed, so scripts can tell. */
function reportDelivery(d: Delivery | undefined, json: boolean | undefined, pending: string): void {
  if (!d) {
    if (json) printJson(null);
    else process.stdout.write(`${pending}\n`);
    return;
  }
  if (json) printJson(d);
  else process.stdout.write(`${deliveryLine(d)}\n`);
  if (!(d.status_code >= 200 && d.status_code < 400)) throw new CliExit(EXIT.error, `hublet: delivery ${d.id} failed: ${d.status}`);
}

interface EditOptions {
  org: string;
  url?: string;
  contentType?: string;
  secret?: string;
  removeSecret?: boolean;
  insecureSsl?: boolean;
  secureSsl?: boolean;
  events?: string[];
  active?: boolean;
}

export function registerHook(program: Command): void {
  const hook = program.command('hook').description('organization webhooks and their deliveries');
  const orgOption = () => new Option('--org <org>', 'the organization').makeOptionMandatory();
  const contentType = () => new Option('--content-type <type>', 'payload format').choices(['json', 'form']);

  hook
    .command('list')
    .description("list an organization's webhooks")
    .addOption(orgOption())
    .action(async (opts: { org: string }, command: Command) =>
      withClient(command, async (client, g) => {
        const res = expectOk(await client.request('GET', `${hooksPath(opts.org)}?per_page=100`));
        const hooks = res.body as Hook[];
        if (g.json) return printJson(hooks);
        printTable(
          hooks.map((h) => ({ id: h.id, url: h.config.url, events: h.events.join(','), active: h.active ? 'yes' : 'no', last: h.last_response.message ?? h.last_response.status })),
          ['id', 'url', 'events', 'active', 'last'],
        );
      }),
    );

  hook
    .command('create')
    .description('create a webhook (it is pinged at once when active)')
    .addOption(orgOption())
    .requiredOption('--url <url>', 'where deliveries are posted')
    .addOption(contentType().default('form'))
    .option('--secret <secret>', 'HMAC key for the X-Hub-Signature headers')
    .option('--events <list>', 'event names, comma separated (* for all)', csv)
    .option('--insecure-ssl', 'do not verify the receiver certificate')
    .option('--inactive', 'create it turned off')
    .action(async (opts: EditOptions & { inactive?: boolean }, command: Command) =>
      withClient(command, async (client, g) => {
        const body = {
          name: 'web',
          config: { url: opts.url, content_type: opts.contentType, secret: opts.secret, insecure_ssl: opts.insecureSsl ? '1' : '0' },
          events: opts.events,
          active: !opts.inactive,
        };
        const res = expectOk(await client.request('POST', hooksPath(opts.org), { body }));
        await deliverNow(client);
        const created = res.body as Hook;
        if (g.json) return printJson(created);
        process.stdout.write(`created hook ${created.id} on ${opts.org} for ${created.events.join(', ')} → ${created.config.url}\n`);
      }),
    );

  hook
    .command('view')
    .argument('<id>', 'hook id', hookId)
    .description('show a webhook')
    .addOption(orgOption())
    .action(async (id: string, opts: { org: string }, command: Command) =>
      withClient(command, async (client, g) => {
        const res = expectOk(await client.request('GET', `${hooksPath(opts.org)}/${id}`));
        if (g.json) return printJson(res.body);
        printHook(res.body as Hook);
      }),
    );

  hook
    .command('edit')
    .argument('<id>', 'hook id', hookId)
    .description('change a webhook; config changes touch only what is named (the secret stays unless changed)')
    .addOption(orgOption())
    .option('--url <url>', 'new delivery URL')
    .addOption(contentType())
    .option('--secret <secret>', 'new secret')
    .option('--remove-secret', 'stop signing deliveries')
    .option('--insecure-ssl', 'stop verifying the receiver certificate')
    .option('--secure-ssl', 'verify the receiver certificate again')
    .option('--events <list>', 'event names, comma separated (* for all)', csv)
    .option('--active', 'turn it on')
    .option('--no-active', 'turn it off')
    .action(async (idArg: string, opts: EditOptions, command: Command) =>
      withClient(command, async (client, g) => {
        const id = idArg;
        const config: Record<string, unknown> = {};
        if (opts.url !== undefined) config.url = opts.url;
        if (opts.contentType !== undefined) config.content_type = opts.contentType;
        if (opts.secret !== undefined) config.secret = opts.secret;
        if (opts.removeSecret) config.secret = '';
        if (opts.insecureSsl) config.insecure_ssl = '1';
        if (opts.secureSsl) config.insecure_ssl = '0';
        const hookChanges: Record<string, unknown> = {};
        if (opts.events !== undefined) hookChanges.events = opts.events;
        if (opts.active !== undefined) hookChanges.active = opts.active;
        if (Object.keys(config).length === 0 && Object.keys(hookChanges).length === 0) throw new CliExit(EXIT.usage, 'hublet: nothing to change (see hublet hook edit --help)');
        if (Object.keys(config).length) expectOk(await client.request('PATCH', `${hooksPath(opts.org)}/${id}/config`, { body: config }));
        const res = Object.keys(hookChanges).length
          ? expectOk(await client.request('PATCH', `${hooksPath(opts.org)}/${id}`, { body: hookChanges }))
          : expectOk(await client.request('GET', `${hooksPath(opts.org)}/${id}`));
        if (g.json) return printJson(res.body);
        printHook(res.body as Hook);
      }),
    );

  hook
    .command('delete')
    .argument('<id>', 'hook id', hookId)
    .description('delete a webhook (an active one is sent a meta event first)')
    .addOption(orgOption())
    .action(async (idArg: string, opts: { org: string }, command: Command) =>
      withClient(command, async (client, g) => {
        const id = idArg;
        expectOk(await client.request('DELETE', `${hooksPath(opts.org)}/${id}`));
        await deliverNow(client);
        if (g.json) return printJson({ deleted: Number(id) });
        process.stdout.write(`deleted hook ${id}\n`);
      }),
    );

  hook
    .command('ping')
    .argument('<org>', 'organization')
    .argument('<id>', 'hook id', hookId)
    .description('send a ping event and show how it went')
    .option('--wait <seconds>', 'how long to wait for the delivery', '15')
    .action(async (org: string, idArg: string, opts: { wait: string }, command: Command) =>
      withClient(command, async (client, g) => {
        const id = idArg;
        const before = (await newestDeliveries(client, org, id))[0]?.id ?? 0;
        expectOk(await client.request('POST', `${hooksPath(org)}/${id}/pings`));
        const d = await awaitDelivery(client, org, id, before, (x) => x.event === 'ping', Number(opts.wait) * 1000 || 0);
        reportDelivery(d, g.json, `ping sent to hook ${id}; not delivered yet`);
      }),
    );

  hook
    .command('deliveries')
    .argument('<org>', 'organization')
    .argument('<id>', 'hook id', hookId)
    .description("list a webhook's deliveries, newest first")
    .addOption(new Option('--status <status>', 'only successes or failures').choices(['success', 'failure']))
    .option('--limit <n>', 'at most this many (up to 100)', '30')
    .action(async (org: string, idArg: string, opts: { status?: string; limit: string }, command: Command) =>
      withClient(command, async (client, g) => {
        const id = idArg;
        const q = new URLSearchParams({ per_page: String(Math.min(100, Math.max(1, Number(opts.limit) || 30))) });
        if (opts.status) q.set('status', opts.status);
        const res = expectOk(await client.request('GET', `${hooksPath(org)}/${id}/deliveries?${q}`));
        const list = res.body as Delivery[];
        if (g.json) return printJson(list);
        printTable(
          list.map((d) => ({ id: d.id, guid: d.guid, event: d.action ? `${d.event}.${d.action}` : d.event, code: d.status_code, status: d.status, redelivery: d.redelivery ? 'yes' : '', delivered: d.delivered_at })),
          ['id', 'guid', 'event', 'code', 'status', 'redelivery', 'delivered'],
        );
      }),
    );

  hook
    .command('delivery')
    .argument('<org>', 'organization')
    .argument('<id>', 'hook id', hookId)
    .argument('<delivery_id>', 'delivery id', hookId)
    .description('show one delivery: what was sent and what came back')
    .action(async (org: string, idArg: string, deliveryArg: string, _opts: unknown, command: Command) =>
      withClient(command, async (client, g) => {
        const res = expectOk(await client.request('GET', `${hooksPath(org)}/${idArg}/deliveries/${deliveryArg}`));
        const d = res.body as Delivery;
        if (g.json) return printJson(d);
        process.stdout.write(`${deliveryLine(d)}\nguid ${d.guid}\nurl ${d.url}\ndelivered ${d.delivered_at}\n\nrequest headers\n`);
        for (const [k, v] of Object.entries(d.request?.headers ?? {})) process.stdout.write(`  ${k}: ${v}\n`);
        process.stdout.write(`request payload\n${JSON.stringify(d.request?.payload, null, 2)}\n\nresponse headers\n`);
        for (const [k, v] of Object.entries(d.response?.headers ?? {})) process.stdout.write(`  ${k}: ${v}\n`);
        process.stdout.write(`response body\n${d.response?.payload ?? ''}\n`);
      }),
    );

  hook
    .command('redeliver')
    .argument('<org>', 'organization')
    .argument('<id>', 'hook id', hookId)
    .argument('<delivery_id>', 'delivery id', hookId)
    .description('send a delivery again (same guid, marked as a redelivery)')
    .option('--wait <seconds>', 'how long to wait for the delivery', '15')
    .action(async (org: string, idArg: string, deliveryArg: string, opts: { wait: string }, command: Command) =>
      withClient(command, async (client, g) => {
        const id = idArg;
        const original = expectOk(await client.request('GET', `${hooksPath(org)}/${id}/deliveries/${deliveryArg}`)).body as Delivery;
        const before = (await newestDeliveries(client, org, id))[0]?.id ?? 0;
        expectOk(await client.request('POST', `${hooksPath(org)}/${id}/deliveries/${deliveryArg}/attempts`));
        const d = await awaitDelivery(client, org, id, before, (x) => x.guid === original.guid && x.redelivery, Number(opts.wait) * 1000 || 0);
        reportDelivery(d, g.json, `redelivery of ${deliveryArg} queued`);
      }),
    );
}
