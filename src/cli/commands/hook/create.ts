// `hublet hook create --org ORG --url URL …`: a webhook (pinged at once when active; locally the ping is delivered before the command returns).
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { commaList as csv } from '../option-values.js';
import { withClient, type Factory } from '../factory.js';
import { contentTypeOption, DELIVER_QUEUE, hooksPath, orgOption, type Hook } from './shared.js';

/** The command line's flags. */
interface CreateFlags {
  org: string;
  url: string;
  contentType?: string;
  secret?: string;
  events?: string[];
  insecureSsl?: boolean;
  inactive?: boolean;
}

interface CreateOptions extends CreateFlags {
  client: Client;
  json: boolean;
}

async function runCreate(opts: CreateOptions, io: IO): Promise<void> {
  const body = {
    name: 'web',
    config: { url: opts.url, content_type: opts.contentType, secret: opts.secret, insecure_ssl: opts.insecureSsl ? '1' : '0' },
    events: opts.events,
    active: !opts.inactive,
  };
  const res = expectOk(await opts.client.request('POST', hooksPath(opts.org), { body }));
  await opts.client.settle([DELIVER_QUEUE]);
  const created = res.body as Hook;
  if (opts.json) return printJson(io.stdout, created);
  io.stdout.write(`created hook ${created.id} on ${opts.org} for ${created.events.join(', ')} → ${created.config.url}\n`);
}

export function registerCreate(hook: Command, f: Factory): void {
  hook
    .command('create')
    .description('create a webhook (it is pinged at once when active)')
    .addOption(orgOption())
    .requiredOption('--url <url>', 'where deliveries are posted')
    .addOption(contentTypeOption().default('form'))
    .option('--secret <secret>', 'HMAC key for the X-Hub-Signature headers')
    .option('--events <list>', 'event names, comma separated (* for all)', csv)
    .option('--insecure-ssl', 'do not verify the receiver certificate')
    .option('--inactive', 'create it turned off')
    .action(async (flags: CreateFlags, command: Command) =>
      withClient(command, f, (client, g) => runCreate({ ...flags, client, json: Boolean(g.json) }, f.io)),
    );
}
