// `hublet auth login|status|logout`: remote-mode credentials, checked against the server's GET /user.
import type { Command } from 'commander';
import { RemoteClient, type GlobalOptions } from '../client.js';
import { credentialsPath, readCredentials, removeCredentials, writeCredentials } from '../credentials.js';
import { CliExit, EXIT, expectOk, printJson } from '../output.js';

export function registerAuthCommands(program: Command): void {
  const auth = program.command('auth').description('sign in to a remote hublet server');

  // --server and --token are the program's own options (they may stand before or after `auth login`).
  auth
    .command('login')
    .description('check a token against a server and save both (hublet auth login --server URL --token T)')
    .action(async (_opts: unknown, command: Command) => {
      const g = command.optsWithGlobals<GlobalOptions>();
      if (!g.server || !g.token) throw new CliExit(EXIT.usage, 'hublet auth login needs --server URL and --token TOKEN');
      const server = g.server.replace(/\/+$/, '');
      const res = expectOk(await new RemoteClient(server, g.token).request('GET', '/user'));
      const login = (res.body as { login: string }).login;
      const file = writeCredentials({ server, token: g.token, login });
      if (g.json) printJson({ server, login, credentials: file });
      else process.stdout.write(`signed in to ${server} as ${login} (saved to ${file})\n`);
    });

  auth
    .command('status')
    .description('show the saved server and whether its token still works')
    .action(async (_opts: unknown, command: Command) => {
      const g = command.optsWithGlobals<GlobalOptions>();
      const saved = readCredentials();
      if (!saved) throw new CliExit(EXIT.auth, 'not signed in to any server (hublet auth login --server URL --token T)');
      const res = await new RemoteClient(saved.server, saved.token).request('GET', '/user');
      const valid = res.status === 200;
      const login = valid ? (res.body as { login: string }).login : saved.login;
      const scopes = res.headers['x-oauth-scopes'];
      if (g.json) printJson({ server: saved.server, login, valid, scopes: scopes === undefined ? null : scopes.split(', ').filter(Boolean) });
      else process.stdout.write(`${saved.server}: ${valid ? `signed in as ${login}` : `token rejected (HTTP ${res.status})`}${scopes ? `; scopes: ${scopes}` : ''}\n`);
      if (!valid) throw new CliExit(EXIT.auth, 'the saved token no longer works');
    });

  auth
    .command('logout')
    .description('forget the saved server and token')
    .action(() => {
      const removed = removeCredentials();
      process.stdout.write(removed ? `signed out (removed ${credentialsPath()})\n` : 'not signed in\n');
    });
}
