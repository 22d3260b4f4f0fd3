// `hublet gist view ID`: a gist's description and files (one file's exact bytes with --raw), now or at --revision;
// `--files` lists its file names, one a line (as gh's).
import { Option, type Command } from 'commander';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { BASE64, fileBytes, gistPath, seg, sortedNames, type Gist } from './shared.js';

/** The command line's flags. */
interface ViewFlags {
  raw?: boolean;
  filename?: string;
  revision?: string;
  files?: boolean;
}

interface ViewOptions extends ViewFlags, ClientOptions {
  id: string;
}

const withNewline = (b: Buffer) => (b.length && b[b.length - 1] !== 0x0a ? Buffer.concat([b, Buffer.from('\n')]) : b);

export async function runView(opts: ViewOptions, io: IO): Promise<void> {
  const { client, id } = opts;
  const path = opts.revision ? `${gistPath(id)}/${seg(opts.revision)}` : gistPath(id);
  if (opts.json) return printJson(io.stdout, expectOk(await client.request('GET', path)).body);
  const gist = expectOk(await client.request('GET', path, { headers: BASE64 })).body as Gist;
  const out = (b: Buffer | string) => io.stdout.write(b);
  if (opts.files) {
    for (const name of sortedNames(gist.files)) out(`${name}\n`);
    if (gist.truncated) io.stderr.write(`hublet: gist ${gist.id} has more files than the API returns; clone it to see them all\n`);
    return;
  }

  if (opts.filename !== undefined) {
    const file = gist.files[opts.filename];
    if (!file) throw new CliExit(EXIT.error, `hublet: gist ${gist.id} has no file ${JSON.stringify(opts.filename)}`);
    const bytes = await fileBytes(client, gist, file);
    out(opts.raw ? bytes : withNewline(bytes));
    return;
  }
  const names = sortedNames(gist.files);
  if (opts.raw && names.length === 1) {
    out(await fileBytes(client, gist, gist.files[names[0]]));
    return;
  }
  // As `gh gist view`: the description, then each file (under its name when there are several), a blank line between.
  if (!opts.raw && gist.description) out(`${gist.description}\n\n`);
  for (const [i, name] of names.entries()) {
    if (names.length > 1) out(`${name}\n\n`);
    out(withNewline(await fileBytes(client, gist, gist.files[name])));
    if (i < names.length - 1) out('\n');
  }
  if (gist.truncated) io.stderr.write(`hublet: gist ${gist.id} has more files than the API returns; clone it to see them all\n`);
}

export function registerView(gist: Command, f: Factory): void {
  withExamples(
    gist
      .command('view')
      .argument('<id>', 'the gist: its id or URL')
      .description('print a gist: its description and files; --raw for file content only')
      .option('-r, --raw', 'file content only (the exact bytes when one file is printed)')
      .option('-f, --filename <name>', 'only this file')
      .addOption(new Option('--files', 'list the file names, one a line').conflicts(['filename', 'raw']))
      .option('--revision <sha>', 'the gist as it was at this revision (a version from `gist history`)'),
    [
      'hublet gist view ID',
      "# one file's exact content",
      'hublet gist view ID --filename notes.md --raw',
      '# the file names only',
      'hublet gist view ID --files',
    ],
  ).action(async (id: string, flags: ViewFlags, command: Command) => {
    await withClient(command, f, (c) => runView({ ...flags, ...c, id }, f.io));
  });
}
