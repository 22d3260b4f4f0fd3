// `hublet gist list`: your gists (or starred ones), filtered by visibility, following pages up to --limit. As gh's, it
// needs a user: remote mode without a token is refused ("not signed in", exit 4) instead of listing other people's
// gists as yours; there `--public` lists everyone's public gists, with an OWNER column. Times are relative at a
// terminal ("about 2 hours ago"), ISO 8601 otherwise.
import { Option, type Command } from 'commander';
import type { IO } from '../../io.js';
import { chooseMode, describeChoice } from '../../mode.js';
import { CliExit, EXIT, printJson, printTable } from '../../output.js';
import { timeCell } from '../../relative-time.js';
import { positiveInteger } from '../option-values.js';
import { withExamples } from '../examples.js';
import { globals, withClient, type ClientOptions, type Factory } from '../factory.js';
import { collectPages, fileCount, sortedNames, type Gist } from './shared.js';

/** The command line's flags. */
interface ListFlags {
  public?: boolean;
  secret?: boolean;
  starred?: boolean;
  limit: number;
}

interface ListOptions extends ListFlags, ClientOptions {
  /** No user to list for: everyone's public gists (only with --public). */
  anonymous: boolean;
}

/** Which list: your gists or starred ones (filtered by visibility here), or, anonymously, everyone's public gists. */
function source(opts: ListOptions): { path: string; keep?: (g: Gist) => boolean; owners: boolean } {
  if (opts.anonymous) return { path: '/gists/public', owners: true };
  const keep = opts.public ? (g: Gist) => g.public : opts.secret ? (g: Gist) => !g.public : undefined;
  return opts.starred ? { path: '/gists/starred', keep, owners: true } : { path: '/gists', keep, owners: false };
}

/** As gh's table: the description on one line, else the name of its first file that is not an unnamed `gistfileN`. */
function describe(g: Gist): string {
  const text = (g.description ?? '').replace(/\s+/g, ' ').trim();
  return text || (sortedNames(g.files).find((n) => !n.startsWith('gistfile')) ?? '');
}

export async function runList(opts: ListOptions, io: IO): Promise<void> {
  const { path, keep, owners } = source(opts);
  const gists = await collectPages<Gist>(opts.client, path, opts.limit, keep);
  if (opts.json) return printJson(io.stdout, gists);
  printGists(io, gists, owners);
}

/** Gists as `gist list` prints them: a line each, starting with the id (an OWNER column when they are not all yours). */
export function printGists(io: IO, gists: Gist[], owners: boolean): void {
  const now = new Date();
  const rows = gists.map((g) => ({
    id: g.id,
    owner: g.owner?.login ?? '',
    description: describe(g),
    files: fileCount(g),
    visibility: g.public ? 'public' : 'secret',
    updated: timeCell(g.updated_at, io.isTTY, now),
  }));
  printTable(
    io.stdout,
    rows,
    owners ? ['id', 'owner', 'description', 'files', 'visibility', 'updated'] : ['id', 'description', 'files', 'visibility', 'updated'],
  );
}

/** Remote mode without a token has no "your gists": refused as gh refuses (exit 4), unless --public asks for everyone's. */
function anonymous(command: Command, flags: ListFlags, env: NodeJS.ProcessEnv): boolean {
  const choice = chooseMode(globals(command), env);
  if (choice.mode !== 'remote' || choice.token) return false;
  if (flags.public && !flags.starred) return true;
  const what = flags.starred ? 'the gists you starred' : 'your gists';
  throw new CliExit(
    EXIT.auth,
    [
      `hublet: not signed in: \`gist list\` lists ${what}, which needs a token; this command would run in ${describeChoice(choice)} without one`,
      `hint: sign in with \`hublet auth login --server ${choice.server.value}\`, or pass --token (HUBLET_TOKEN)`,
      "hint: `hublet gist list --public` lists everyone's public gists without a token",
    ].join('\n'),
  );
}

export function registerList(gist: Command, f: Factory): void {
  withExamples(
    gist
      .command('list')
      .description('list your gists (secret ones too), newest first; or the gists you starred')
      .addOption(new Option('--public', "only public gists (without a token: everyone's public gists)").conflicts('secret'))
      .option('--secret', 'only secret gists')
      .option('--starred', 'the gists you starred instead of your own')
      .option('-L, --limit <n>', 'how many gists at most', positiveInteger, 10),
    [
      '# your ten most recently updated gists',
      'hublet gist list',
      'hublet gist list --secret --limit 50',
      "# without a token: everyone's public gists",
      'hublet --server https://hublet.example gist list --public',
    ],
  ).action(async (flags: ListFlags, command: Command) => {
    const anon = anonymous(command, flags, f.env);
    await withClient(command, f, (c) => runList({ ...flags, ...c, anonymous: anon }, f.io));
  });
}
