// `hublet hook edit --org ORG ID …`: changes only what is named (config through PATCH …/config, the rest through PATCH).
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk } from '../../output.js';
import { commaList as csv } from '../option-values.js';
import type { Factory } from '../factory.js';
import {
  contentTypeOption,
  hookCommand,
  hookPath,
  showHook,
  signatureFormatOption,
  withHooks,
  type Hook,
  type HookOptions,
  type OwnerFlags,
} from './shared.js';

/** The command line's flags. */
interface EditFlags extends OwnerFlags {
  url?: string;
  contentType?: string;
  secret?: string;
  removeSecret?: boolean;
  insecureSsl?: boolean;
  secureSsl?: boolean;
  signatureFormat?: string;
  events?: string[];
  active?: boolean;
}

type EditOptions = HookOptions & Omit<EditFlags, 'org' | 'repo'>;

export async function runEdit(opts: EditOptions, io: IO): Promise<void> {
  const { client } = opts;
  const config: Record<string, unknown> = {};
  if (opts.url !== undefined) config.url = opts.url;
  if (opts.contentType !== undefined) config.content_type = opts.contentType;
  if (opts.secret !== undefined) config.secret = opts.secret;
  if (opts.removeSecret) config.secret = '';
  if (opts.insecureSsl) config.insecure_ssl = '1';
  if (opts.secureSsl) config.insecure_ssl = '0';
  if (opts.signatureFormat !== undefined) config.signature_format = opts.signatureFormat;
  const hookChanges: Record<string, unknown> = {};
  if (opts.events !== undefined) hookChanges.events = opts.events;
  if (opts.active !== undefined) hookChanges.active = opts.active;
  if (Object.keys(config).length === 0 && Object.keys(hookChanges).length === 0)
    throw new CliExit(EXIT.usage, 'hublet: nothing to change (see hublet hook edit --help)');
  if (Object.keys(config).length) expectOk(await client.request('PATCH', `${hookPath(opts)}/config`, { body: config }));
  const res = Object.keys(hookChanges).length
    ? expectOk(await client.request('PATCH', hookPath(opts), { body: hookChanges }))
    : expectOk(await client.request('GET', hookPath(opts)));
  showHook(io, res.body as Hook, opts.json);
}

export function registerEdit(hook: Command, f: Factory): void {
  hookCommand(hook, 'edit', 'change a webhook: only what is named changes (the secret stays unless changed)', [
    '# deliver every event from now on',
    "hublet hook edit --org acme 12 --events '*'",
    '# a new receiver, and turn it back on',
    'hublet hook edit --org acme 12 --url https://ci.example.com/new --active',
    'hublet hook edit --org acme 12 --remove-secret --no-active',
    "# sign with both GitHub's and Standard Webhooks' headers while receivers move over",
    'hublet hook edit --org acme 12 --signature-format github,standard',
  ])
    .argument('<id>', 'hook id')
    .option('--url <url>', 'new delivery URL')
    .addOption(contentTypeOption())
    .option('--secret <secret>', 'new secret')
    .option('--remove-secret', 'stop signing deliveries')
    .option('--insecure-ssl', 'stop verifying the receiver certificate')
    .option('--secure-ssl', 'verify the receiver certificate again')
    .addOption(signatureFormatOption())
    .option('--events <list>', 'event names, comma separated (* for all); replaces the list', csv)
    .option('--active', 'turn it on')
    .option('--no-active', 'turn it off')
    .action(async (_id: string, flags: EditFlags, command: Command) =>
      withHooks(command, f, flags, ['id'], (opts, [id]) => runEdit({ ...flags, ...opts, id }, f.io)),
    );
}
