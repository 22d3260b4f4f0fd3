// `hublet hook create --org ORG --url URL …`: a webhook (pinged at once when active; locally the ping is delivered before the command returns).
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { commaList as csv } from '../option-values.js';
import type { Factory } from '../factory.js';
import {
  contentTypeOption,
  DELIVER_QUEUE,
  hookCommand,
  hooksPath,
  ownerName,
  signatureFormatOption,
  withHooks,
  type Hook,
  type HooksOptions,
  type OwnerFlags,
} from './shared.js';

/** The command line's flags. */
interface CreateFlags extends OwnerFlags {
  url: string;
  contentType?: string;
  secret?: string;
  events?: string[];
  insecureSsl?: boolean;
  signatureFormat?: string;
  inactive?: boolean;
}

type CreateOptions = HooksOptions & Omit<CreateFlags, 'org' | 'repo'>;

export async function runCreate(opts: CreateOptions, io: IO): Promise<void> {
  const body = {
    name: 'web',
    config: {
      url: opts.url,
      content_type: opts.contentType,
      secret: opts.secret,
      insecure_ssl: opts.insecureSsl ? '1' : '0',
      signature_format: opts.signatureFormat,
    },
    events: opts.events,
    active: !opts.inactive,
  };
  const res = expectOk(await opts.client.request('POST', hooksPath(opts.owner), { body }));
  await opts.client.settle([DELIVER_QUEUE]);
  const created = res.body as Hook;
  if (opts.json) return printJson(io.stdout, created);
  io.stdout.write(`created hook ${created.id} on ${ownerName(opts.owner)} for ${created.events.join(', ')} → ${created.config.url}\n`);
}

export function registerCreate(hook: Command, f: Factory): void {
  hookCommand(hook, 'create', 'create a webhook (it is pinged at once when active; prints its id)', [
    '# push events as JSON, signed with a secret',
    'hublet hook create --org acme --url https://ci.example.com/hook --events push --content-type json --secret s3cret',
    '# every event, created turned off',
    "hublet hook create --org acme --url https://example.com/all --events '*' --inactive",
    '# signed as Standard Webhooks (webhook-signature) instead of X-Hub-Signature-256',
    'hublet hook create --org acme --url https://example.com/sw --secret "whsec_$(openssl rand -base64 32)" --signature-format standard',
  ])
    .requiredOption('--url <url>', 'where deliveries are posted')
    .addOption(contentTypeOption().default('form'))
    .option('--secret <secret>', 'HMAC key for the signature headers (see --signature-format)')
    .addOption(signatureFormatOption())
    .option('--events <list>', 'event names, comma separated (* for all; default push)', csv)
    .option('--insecure-ssl', 'do not verify the receiver certificate')
    .option('--inactive', 'create it turned off')
    .action(async (flags: CreateFlags, command: Command) =>
      withHooks(command, f, flags, [], (opts) => runCreate({ ...flags, ...opts }, f.io)),
    );
}
