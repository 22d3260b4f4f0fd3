// `hublet auth login --server URL --token TOKEN`: checks the token against the server's GET /user and saves both (mode 0600).
import type { Command } from 'commander';
import { RemoteClient, type Client } from '../../client.js';
import { writeCredentials } from '../../credentials.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { globals, type Factory } from '../factory.js';

interface LoginOptions {
  server?: string;
  token?: string;
  json: boolean;
  /** Where the credentials file is found (HUBLET_CONFIG_DIR, XDG_CONFIG_HOME). */
  env: NodeJS.ProcessEnv;
  /** The client that checks the token at the server (a RemoteClient). */
  connect: (server: string, token: string) => Client;
}

export async function runLogin(opts: LoginOptions, io: IO): Promise<void> {
  if (!opts.server || !opts.token) throw new CliExit(EXIT.usage, 'hublet auth login needs --server URL and --token TOKEN');
  const server = opts.server.replace(/\/+$/, '');
  const res = expectOk(await opts.connect(server, opts.token).request('GET', '/user'));
  const login = (res.body as { login: string }).login;
  const file = writeCredentials({ server, token: opts.token, login }, opts.env);
  if (opts.json) printJson(io.stdout, { server, login, credentials: file });
  else io.stdout.write(`signed in to ${server} as ${login} (saved to ${file})\n`);
}

export function registerLogin(auth: Command, f: Factory): void {
  // --server and --token are the program's own options (they may stand before or after `auth login`).
  withExamples(
    auth
      .command('login')
      .description(
        'check a token against a server and save both, for remote mode: give the server with --server URL and the token with --token T (the program options below)',
      ),
    [
      '# the admin token the first hublet serve printed',
      'hublet auth login --server http://127.0.0.1:3000 --token hlp_…',
      '# a token from a file, not from the shell history',
      'hublet auth login --server https://hublet.example.com --token "$(cat ~/.hublet-token)"',
    ],
  ).action(async (_flags: unknown, command: Command) => {
    const g = globals(command);
    await runLogin(
      { server: g.server, token: g.token, json: Boolean(g.json), env: f.env, connect: (server, token) => new RemoteClient(server, token) },
      f.io,
    );
  });
}
