// What the `hook` commands share: the API's hook and delivery shapes, whose hooks a command acts on (`--org ORG` or
// `--repo OWNER/REPO`, and the deprecated `ORG ID` positional form), their paths and options, how a hook command is
// declared and run (hookCommand, withHooks), and how a hook and a delivery are awaited and shown.
import { type Command, Option } from 'commander';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { positiveIntegerText } from '../option-values.js';

export interface Hook {
  id: number;
  active: boolean;
  events: string[];
  /** `signature_format` only when it is not `github` (as the API shows it). */
  config: { url: string; content_type: string; insecure_ssl: string; secret?: string; signature_format?: string };
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

/** Whose webhooks a command acts on: an organization's (`--org ORG`) or a repository's (`--repo OWNER/REPO`). */
export type HookOwner = { org: string } | { repo: { owner: string; name: string } };

/** What `--org` and `--repo` give a command (commander's parsed flags). */
export interface OwnerFlags {
  org?: string;
  repo?: string;
}

/** What a hook command's run function gets: the client, --json, and whose hooks. */
export interface HooksOptions extends ClientOptions {
  owner: HookOwner;
}

/** …and which of them: one hook's commands. */
export interface HookOptions extends HooksOptions {
  id: string;
}

/** The API path of the owner's hooks: GitHub's `/orgs/{org}/hooks` or `/repos/{owner}/{repo}/hooks`. */
export const hooksPath = (owner: HookOwner) =>
  'org' in owner
    ? `/orgs/${encodeURIComponent(owner.org)}/hooks`
    : `/repos/${encodeURIComponent(owner.repo.owner)}/${encodeURIComponent(owner.repo.name)}/hooks`;

/** The API path of one hook. */
export const hookPath = (opts: Pick<HookOptions, 'owner' | 'id'>) => `${hooksPath(opts.owner)}/${opts.id}`;

/** How a message names the owner: `acme` or `octo/app`. */
export const ownerName = (owner: HookOwner) => ('org' in owner ? owner.org : `${owner.repo.owner}/${owner.repo.name}`);

/** The owner flags every hook command takes: one of the two is required, checked by `hookOwner`. */
const orgOption = () => new Option('--org <org>', 'the organization whose webhooks these are (this or --repo is required)');
const repoOption = () => new Option('--repo <owner/repo>', 'the repository whose webhooks these are (this or --org is required)');
export const contentTypeOption = () => new Option('--content-type <type>', 'payload format').choices(['json', 'form']);
/** Which signatures deliveries carry: given to the API as is, whose 422 answers a value it does not take (one place for the rule). */
export const signatureFormatOption = () =>
  new Option(
    '--signature-format <format>',
    'github (X-Hub-Signature-256, the default), standard (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) or github,standard (both)',
  );
/** ping and redeliver: how long to wait for the delivery to show up. */
export const waitOption = () =>
  new Option('--wait <seconds>', 'how long to wait for the delivery before saying it is not delivered yet').default('15');

/** A usage error as commander reports its own (`error: …`, exit 2, the help after it). */
export function usageError(command: Command, message: string): never {
  command.error(`error: ${message}`, { exitCode: 2, code: 'hublet.usage' });
}

/**
 * `hook NAME`: its description and examples, and the --org/--repo options every hook command takes. `positionalOrg`:
 * it took the organization as its first argument in earlier versions (`hook ping ORG ID`), which still works: commander
 * lets the one extra argument through (other commands refuse it before hookOwner sees it).
 */
export function hookCommand(hook: Command, name: string, description: string, examples: string[], positionalOrg = false): Command {
  const command = withExamples(hook.command(name).description(description), examples).addOption(orgOption()).addOption(repoOption());
  return positionalOrg ? command.allowExcessArguments() : command;
}

/**
 * The owner and the ids a hook command was given: `names` are its id arguments (`id`, `delivery_id`), all positive
 * integers. The owner is `--org ORG`. An argument before the ids (only a command declared with `positionalOrg` gets one)
 * is the organization of the deprecated `ORG ID…` form, with a note on stderr.
 */
export function hookOwner(
  command: Command,
  flags: OwnerFlags,
  names: string[],
  stderr: NodeJS.WritableStream,
): { owner: HookOwner; ids: string[] } {
  const args = command.args;
  let org = flags.org;
  let ids = args;
  if (org === undefined && flags.repo === undefined && args.length === names.length + 1) {
    const placeholders = names.map((n) => n.toUpperCase()).join(' ');
    stderr.write(
      `hublet: \`hook ${command.name()} ORG ${placeholders}\` is deprecated; use \`hook ${command.name()} --org ORG ${placeholders}\`\n`,
    );
    [org, ...ids] = args;
  }
  const owner = ownerOf(command, org, flags.repo);
  if (ids.length > names.length)
    usageError(command, `too many arguments for '${command.name()}'. Expected ${names.length} but got ${ids.length}.`);
  names.forEach((name, i) => {
    if (ids[i] === undefined) usageError(command, `missing required argument '${name}'`);
    try {
      positiveIntegerText(ids[i]);
    } catch (err) {
      usageError(command, `command-argument value '${ids[i]}' is invalid for argument '${name}'. ${(err as Error).message}`);
    }
  });
  return { owner, ids };
}

/** The owner the flags name: exactly one of `--org ORG` and `--repo OWNER/REPO`. */
function ownerOf(command: Command, org: string | undefined, repo: string | undefined): HookOwner {
  if (org !== undefined && repo !== undefined)
    usageError(command, "options '--org <org>' and '--repo <owner/repo>' cannot be used together");
  if (repo !== undefined) {
    const m = /^([^/\s]+)\/([^/\s]+)$/.exec(repo);
    if (!m) usageError(command, `option '--repo <owner/repo>' argument '${repo}' is invalid. Expected OWNER/REPO.`);
    return { repo: { owner: m[1], name: m[2] } };
  }
  if (org === undefined || org === '')
    usageError(command, "required option '--org <org>' not specified (or --repo <owner/repo> for a repository's webhooks)");
  return { org };
}

/** Runs a hook command: the owner and the ids its command line names are checked (hookOwner), then `run` gets them with an open client. */
export function withHooks(
  command: Command,
  f: Factory,
  flags: OwnerFlags,
  names: string[],
  run: (opts: HooksOptions, ids: string[]) => Promise<void>,
): Promise<void> {
  const { owner, ids } = hookOwner(command, flags, names, f.io.stderr);
  return withClient(command, f, (c) => run({ ...c, owner }, ids));
}

/** One hook, as the functions below need it. */
type OneHook = Pick<HookOptions, 'client' | 'owner' | 'id'>;

async function newestDeliveries(hook: OneHook): Promise<Delivery[]> {
  const res = expectOk(await hook.client.request('GET', `${hookPath(hook)}/deliveries?per_page=20`));
  return res.body as Delivery[];
}

/** The id of the newest delivery of a hook (0 when there is none): what a new one is told apart by. */
export async function newestDeliveryId(hook: OneHook): Promise<number> {
  return (await newestDeliveries(hook))[0]?.id ?? 0;
}

/** `--wait SECONDS` in milliseconds (anything but a number: no wait). */
export const waitTime = (seconds: string): number => Number(seconds) * 1000 || 0;

/**
 * Waits up to `waitMs` for a delivery newer than `after`. Locally it has usually happened already (unless a server on
 * the same data dir claimed the job first); remotely the server delivers it. Undefined when none showed up in time.
 */
export async function awaitDelivery(
  hook: OneHook,
  after: number,
  match: (d: Delivery) => boolean,
  waitMs: number,
): Promise<Delivery | undefined> {
  await hook.client.settle([DELIVER_QUEUE]);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const d = (await newestDeliveries(hook)).find((x) => x.id > after && match(x));
    if (d) return d;
    if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function deliveryLine(d: Delivery): string {
  return `delivery ${d.id} (${d.event}${d.redelivery ? ', redelivery' : ''}): ${d.status_code || '-'} ${d.status} in ${d.duration}s`;
}

function printHook(out: NodeJS.WritableStream, h: Hook): void {
  const lines = [
    ['id', String(h.id)],
    ['url', h.config.url],
    ['content type', h.config.content_type],
    ['secret', h.config.secret ? 'set' : 'none'],
    ['insecure ssl', h.config.insecure_ssl === '1' ? 'yes (certificates not verified)' : 'no'],
    ['signature', h.config.signature_format ?? 'github'],
    ['events', h.events.join(', ')],
    ['active', h.active ? 'yes' : 'no'],
    ['last response', h.last_response.message ? `${h.last_response.code ?? '-'} ${h.last_response.message}` : h.last_response.status],
    ['created', h.created_at],
    ['updated', h.updated_at],
  ];
  for (const [k, v] of lines) out.write(`${k.padEnd(14)}${v}\n`);
}

/** One hook as fields, or the API's JSON with --json. */
export function showHook(io: IO, h: Hook, json: boolean): void {
  if (json) printJson(io.stdout, h);
  else printHook(io.stdout, h);
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
