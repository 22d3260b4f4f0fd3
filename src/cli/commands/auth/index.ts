// `hublet auth …`: remote-mode credentials, one command per file (login, status, logout), checked against the server's GET /user.
import type { Command } from 'commander';
import type { Factory } from '../factory.js';
import { registerLogin } from './login.js';
import { registerLogout } from './logout.js';
import { registerStatus } from './status.js';

export function registerAuth(program: Command, f: Factory): void {
  const auth = program.command('auth').description('sign in to a remote hublet server');
  for (const register of [registerLogin, registerStatus, registerLogout]) register(auth, f);
}
