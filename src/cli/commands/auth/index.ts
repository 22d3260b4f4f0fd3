// `hublet auth …`: remote-mode credentials, one command per file: login, status, logout (checked against the server's
// GET /user), token (the one in use), setup-git and git-credential (hublet as git's credential helper).
import type { Command } from 'commander';
import type { Factory } from '../factory.js';
import { registerGitCredential } from './git-credential.js';
import { registerLogin } from './login.js';
import { registerLogout } from './logout.js';
import { registerSetupGit } from './setup-git.js';
import { registerStatus } from './status.js';
import { registerToken } from './token.js';

export function registerAuth(program: Command, f: Factory): void {
  const auth = program.command('auth').description('sign in to a remote hublet server, and let git use its token');
  for (const register of [registerLogin, registerStatus, registerLogout, registerToken, registerSetupGit, registerGitCredential])
    register(auth, f);
}
