// `hublet gist create [FILE…|-]`: a gist from files and/or stdin (`-`, or piped stdin when no file is named). Prints
// the gist's URL, as gh does (`--json`: the gist); at a terminal, gh's `✓ Created secret gist NAME` on stderr first.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { readStdin, readTextFile, sortedNames, type Gist } from './shared.js';

/** The command line's flags. */
interface CreateFlags {
  desc?: string;
  public?: boolean;
  filename?: string;
}

interface CreateOptions extends ClientOptions {
  files: Record<string, { content: string }>;
  desc?: string;
  public?: boolean;
}

/** The `files` map of the request; stdin without --filename goes under an empty name (the API names it gistfile1.txt). */
export async function createFiles(args: string[], flags: CreateFlags, io: IO): Promise<Record<string, { content: string }>> {
  const useStdin = args.includes('-') || (args.length === 0 && !io.stdinIsTTY);
  if (args.length === 0 && io.stdinIsTTY)
    throw new CliExit(EXIT.usage, 'hublet: name files to put in the gist, or pipe the content on stdin (or use -)');
  if (args.filter((a) => a === '-').length > 1) throw new CliExit(EXIT.usage, 'hublet: stdin (-) can be named once');
  if (flags.filename !== undefined && !useStdin)
    throw new CliExit(EXIT.usage, 'hublet: --filename names the content read from stdin; no stdin is read here');
  const files: Record<string, { content: string }> = {};
  const add = (name: string, content: string) => {
    if (name in files) throw new CliExit(EXIT.usage, `hublet: two files named ${JSON.stringify(name)}`);
    files[name] = { content };
  };
  for (const arg of args) {
    if (arg === '-') continue;
    const f = readTextFile(arg);
    add(f.filename, f.content);
  }
  if (useStdin) add(flags.filename ?? '', await readStdin(io));
  return files;
}

export async function runCreate(opts: CreateOptions, io: IO): Promise<void> {
  const res = expectOk(
    await opts.client.request('POST', '/gists', { body: { description: opts.desc, public: Boolean(opts.public), files: opts.files } }),
  );
  const gist = res.body as Gist;
  if (opts.json) return printJson(io.stdout, gist);
  if (io.stderrIsTTY) io.stderr.write(`✓ Created ${gist.public ? 'public' : 'secret'} gist${gistName(gist)}\n`);
  io.stdout.write(`${gist.html_url}\n`);
}

/** What gh calls a new gist (with a space before it): its first file by name that is not an unnamed `gistfileN.txt`. */
function gistName(gist: Gist): string {
  const name = sortedNames(gist.files).find((n) => !/^gistfile\d+\.txt$/.test(n));
  return name === undefined ? '' : ` ${name}`;
}

export function registerCreate(gist: Command, f: Factory): void {
  withExamples(
    gist
      .command('create')
      .description('create a gist from files, or from stdin (- or piped); prints its URL (the gist with --json)')
      .argument('[files...]', 'files to add (- for stdin)')
      .option('-d, --desc <description>', 'the gist description')
      .option('-p, --public', 'make the gist public (default: secret)')
      .option('-f, --filename <name>', 'file name for the content read from stdin'),
    [
      '# a secret gist from two files; prints its URL',
      'hublet gist create notes.md script.sh --desc "my notes"',
      '# a public gist from a pipe, named hello.txt',
      'echo hello | hublet gist create --public --filename hello.txt',
    ],
  ).action(async (args: string[], flags: CreateFlags, command: Command) => {
    // Files and stdin are read before the data dir or the server is touched: a bad argument exits 2 at once.
    const files = await createFiles(args, flags, f.io);
    await withClient(command, f, (c) => runCreate({ ...c, files, desc: flags.desc, public: flags.public }, f.io));
  });
}
