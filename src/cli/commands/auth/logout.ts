// `hublet auth logout`: forgets the saved server and token.
import type { Command } from 'commander';
import { credentialsPath, removeCredentials } from '../../credentials.js';
import type { IO } from '../../io.js';
import { withExamples } from '../examples.js';
import type { Factory } from '../factory.js';

interface LogoutOptions {
  /** Where the credentials file is found (HUBLET_CONFIG_DIR, XDG_CONFIG_HOME). */
  env: NodeJS.ProcessEnv;
}

export async function runLogout(opts: LogoutOptions, io: IO): Promise<void> {
  const removed = removeCredentials(opts.env);
  io.stdout.write(removed ? `signed out (removed ${credentialsPath(opts.env)})\n` : 'not signed in\n');
}

export function registerLogout(auth: Command, f: Factory): void {
  withExamples(
    auth
      .command('logout')
      .description('forget the saved server and token (the next command without --server or HUBLET_SERVER runs in local mode)'),
    ['hublet auth logout'],
  ).action(() => runLogout({ env: f.env }, f.io));
}
