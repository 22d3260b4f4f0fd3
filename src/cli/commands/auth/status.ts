// `hublet auth status`: the saved server and whether its token still works (exit 4 when it does not, or none is saved).
import type { Command } from 'commander';
import { RemoteClient } from '../../client.js';
import { readCredentials } from '../../credentials.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT, printJson } from '../../output.js';
import { globals, type Factory } from '../factory.js';

interface StatusOptions {
  json: boolean;
  /** Where the credentials file is found (HUBLET_CONFIG_DIR, XDG_CONFIG_HOME). */
  env: NodeJS.ProcessEnv;
}

async function runStatus(opts: StatusOptions, io: IO): Promise<void> {
  const saved = readCredentials(opts.env);
  if (!saved) throw new CliExit(EXIT.auth, 'not signed in to any server (hublet auth login --server URL --token T)');
  const res = await new RemoteClient(saved.server, saved.token).request('GET', '/user');
  const valid = res.status === 200;
  const login = valid ? (res.body as { login: string }).login : saved.login;
  const scopes = res.headers['x-oauth-scopes'];
  if (opts.json) printJson(io.stdout, { server: saved.server, login, valid, scopes: scopes === undefined ? null : scopes.split(', ').filter(Boolean) });
  else io.stdout.write(`${saved.server}: ${valid ? `signed in as ${login}` : `token rejected (HTTP ${res.status})`}${scopes ? `; scopes: ${scopes}` : ''}\n`);
  if (!valid) throw new CliExit(EXIT.auth, 'the saved token no longer works');
}

export function registerStatus(auth: Command, f: Factory): void {
  auth
    .command('status')
    .description('show the saved server and whether its token still works')
    .action(async (_flags: unknown, command: Command) => runStatus({ json: Boolean(globals(command).json), env: f.env }, f.io));
}
