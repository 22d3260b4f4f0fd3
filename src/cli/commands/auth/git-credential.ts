// `hublet auth git-credential get|store|erase`: git's credential-helper protocol (gitcredentials(7)), which git runs
// once `hublet auth setup-git` has named it. `get` reads git's `key=value` lines and answers with the token for that
// server (the same one the CLI would send: --token > HUBLET_TOKEN > saved) as the password, the saved login (or
// x-access-token) as the user name; when hublet has no token there it answers nothing and exits 1 with one line on
// stderr saying so (git shows it), and git goes on to its other helpers or its prompt. `store` and `erase` do nothing, as gh's: the token lives in hublet's credentials, and git
// must not sign the user out. Hidden from help, as gh's is.
import readline from 'node:readline';
import type { Command } from 'commander';
import { originOf, TOKEN_USER, tokenForOrigin } from '../../git-credentials.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT } from '../../output.js';
import type { Factory } from '../factory.js';

interface CredentialOptions {
  operation: string;
  env: NodeJS.ProcessEnv;
}

/** git's request: `key=value` lines up to a blank line (or the end); `url=` is split into its parts. */
async function readRequest(stdin: NodeJS.ReadableStream): Promise<Map<string, string>> {
  const wants = new Map<string, string>();
  const lines = readline.createInterface({ input: stdin, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (line === '') break;
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1);
    if (key !== 'url') {
      wants.set(key, value);
      continue;
    }
    try {
      const u = new URL(value);
      wants.set('protocol', u.protocol.replace(/:$/, ''));
      wants.set('host', u.host);
      wants.set('path', u.pathname.replace(/^\//, ''));
      if (u.username) wants.set('username', decodeURIComponent(u.username));
    } catch {
      // not a URL git would send: nothing to match
    }
  }
  lines.close();
  return wants;
}

/** Exit 1, nothing on stdout: git asks its next helper (or the user); the reason is one line on stderr. */
const noAnswer = (why: string) => new CliExit(EXIT.error, `hublet auth git-credential: ${why}`);

export async function runCredential(opts: CredentialOptions, io: IO): Promise<void> {
  if (opts.operation === 'store' || opts.operation === 'erase') return;
  if (opts.operation !== 'get')
    throw new CliExit(EXIT.error, `hublet auth git-credential: ${JSON.stringify(opts.operation)} operation not supported`);
  const wants = await readRequest(io.stdin);
  const protocol = wants.get('protocol');
  const host = wants.get('host');
  if ((protocol !== 'http' && protocol !== 'https') || !host)
    throw noAnswer(`no token for ${protocol ?? '(no protocol)'}://${host ?? '(no host)'}: only http(s) servers have one`);
  const origin = originOf(`${protocol}://${host}`);
  const found = origin ? tokenForOrigin(origin, opts.env) : undefined;
  if (!found) throw noAnswer(`no token for ${origin ?? host}; sign in with \`hublet auth login --server ${origin ?? host}\``);
  // As gh: a token from the environment goes as x-access-token; a saved one as its login, when that was saved.
  const user = found.from === 'saved credentials' && found.login ? found.login : TOKEN_USER;
  const asked = wants.get('username');
  if (asked && user !== TOKEN_USER && asked.toLowerCase() !== user.toLowerCase())
    throw noAnswer(`the token for ${origin} is ${user}'s, not ${asked}'s`);
  io.stdout.write(`protocol=${protocol}\nhost=${host}\nusername=${user}\npassword=${found.token}\n`);
}

export function registerGitCredential(auth: Command, f: Factory): void {
  auth
    .command('git-credential <operation>', { hidden: true })
    .description("git's credential helper (get, store, erase); `hublet auth setup-git` makes git run it")
    .action(async (operation: string) => runCredential({ operation, env: f.env }, f.io));
}
