// `hublet gist create [FILE…|-]`: a gist from files and/or stdin (`-`, or piped stdin when no file is named).
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import { withClient } from '../with-client.js';
import { readStdin, readTextFile, type Gist } from './shared.js';

export interface CreateOptions {
  desc?: string;
  public?: boolean;
  filename?: string;
}

/** The `files` map of the request; stdin without --filename goes under an empty name (the API names it gistfile1.txt). */
export function createFiles(args: string[], opts: CreateOptions, stdinIsTty: boolean): Record<string, { content: string }> {
  const useStdin = args.includes('-') || (args.length === 0 && !stdinIsTty);
  if (args.length === 0 && stdinIsTty) throw new CliExit(EXIT.usage, 'hublet: name files to put in the gist, or pipe the content on stdin (or use -)');
  if (args.filter((a) => a === '-').length > 1) throw new CliExit(EXIT.usage, 'hublet: stdin (-) can be named once');
  if (opts.filename !== undefined && !useStdin) throw new CliExit(EXIT.usage, 'hublet: --filename names the content read from stdin; no stdin is read here');
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
  if (useStdin) add(opts.filename ?? '', readStdin());
  return files;
}

export async function runCreate(client: Client, files: Record<string, { content: string }>, opts: CreateOptions, json: boolean): Promise<void> {
  const res = expectOk(await client.request('POST', '/gists', { body: { description: opts.desc, public: Boolean(opts.public), files } }));
  const gist = res.body as Gist;
  if (json) printJson(gist);
  else process.stdout.write(`${gist.id}\n`);
}

export function registerCreate(gist: Command): void {
  gist
    .command('create')
    .description('create a gist from files, or from stdin (- or piped); prints its id (the gist with --json)')
    .argument('[files...]', 'files to add (- for stdin)')
    .option('-d, --desc <description>', 'the gist description')
    .option('-p, --public', 'make the gist public (default: secret)')
    .option('-f, --filename <name>', 'file name for the content read from stdin')
    .action(async (args: string[], opts: CreateOptions, command: Command) => {
      // Files and stdin are read before the data dir or the server is touched: a bad argument exits 2 at once.
      const files = createFiles(args, opts, Boolean(process.stdin.isTTY));
      await withClient(command, (client, g) => runCreate(client, files, opts, Boolean(g.json)));
    });
}
