// `--password-stdin`: the password is the first line of standard input, its newline stripped (as `docker login
// --password-stdin`), so it never appears in the command line, the shell's history or the process list.
import { readAll, type IO } from '../../io.js';
import { CliExit, EXIT } from '../../output.js';

export async function passwordFromStdin(io: IO): Promise<string> {
  const text = (await readAll(io.stdin)).toString('utf8');
  const line = text.split('\n', 1)[0].replace(/\r$/, '');
  if (line === '') throw new CliExit(EXIT.usage, 'hublet: --password-stdin: standard input held no password (one line, then end of input)');
  return line;
}
