// `hublet auth login --server URL [--token TOKEN]`: without --token, signs in with a one-time code approved in the browser
// (device-login.ts); with it (for scripts), takes the token as given. Either way the token is checked against the
// server's GET /user and saved with the server (mode 0600).
import type { Command } from 'commander';
import { RemoteClient, type Client } from '../../client.js';
import { writeCredentials } from '../../credentials.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { globals, type Factory } from '../factory.js';
import { deviceLogin, type Timing } from './device-login.js';

interface LoginOptions {
  server?: string;
  token?: string;
  json: boolean;
  /** Where the credentials file is found (HUBLET_CONFIG_DIR, XDG_CONFIG_HOME). */
  env: NodeJS.ProcessEnv;
  /** A client of the server (a RemoteClient) with this token, or with none when it is '' (the device flow's requests). */
  connect: (server: string, token: string) => Client;
  /** How the device flow waits between polls (the real clock unless a test gives its own). */
  timing?: Timing;
}

export async function runLogin(opts: LoginOptions, io: IO): Promise<void> {
  if (!opts.server) throw new CliExit(EXIT.usage, 'hublet auth login needs --server URL (and --token TOKEN in scripts)');
  const server = opts.server.replace(/\/+$/, '');
  const token = opts.token ?? (await deviceLogin(opts.connect(server, ''), server, io, opts.timing));
  const res = expectOk(await opts.connect(server, token).request('GET', '/user'));
  const login = (res.body as { login: string }).login;
  const file = writeCredentials({ server, token, login }, opts.env);
  if (opts.json) printJson(io.stdout, { server, login, credentials: file });
  else io.stdout.write(`signed in to ${server} as ${login} (saved to ${file})\n`);
}

export function registerLogin(auth: Command, f: Factory): void {
  // --server and --token are the program's own options (they may stand before or after `auth login`).
  withExamples(
    auth
      .command('login')
      .description(
        'sign in to a server for remote mode: --server URL alone prints a one-time code to enter in the browser and waits for your approval; with --token T (scripts) checks that token instead; either way saves the server and the token (the program options below)',
      ),
    [
      '# prints a code and a URL: open it, sign in, enter the code, authorize',
      'hublet auth login --server https://hublet.example.com',
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
