// hublet as git's credential helper (as gh is with `gh auth setup-git`): which token answers for a server, the helper
// command git runs (`!<this executable> auth git-credential`), the global git setting that names it, and whether git
// would ask hublet for a URL. Used by `auth setup-git`, `auth git-credential` and `gist clone`'s hint.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { isSea } from 'node:sea';
import { readCredentials } from './credentials.js';
import { chooseMode } from './mode.js';

/** The user name git sends with a token when the login is not known (GitHub's, and gh's). */
export const TOKEN_USER = 'x-access-token';

/** `scheme://host[:port]` of a URL, lower-case; undefined when it is not an http(s) URL. */
export function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

export interface ServerToken {
  /** The server as it was named (saved, --server or HUBLET_SERVER). */
  server: string;
  token: string;
  /** The login the token belongs to, when `auth login` saved it; git's user name (else TOKEN_USER). */
  login?: string;
  /** What named the token: `--token`, `HUBLET_TOKEN`, `saved credentials`. */
  from: string;
}

/**
 * The token for the server at `origin`, by the CLI's one rule (flag > environment > saved credentials, mode.ts):
 * the chosen remote server's token when that server is at this origin, else the saved one when the saved server is.
 */
export function tokenForOrigin(
  origin: string,
  env: NodeJS.ProcessEnv,
  flags: { server?: string; token?: string } = {},
): ServerToken | undefined {
  const saved = readCredentials(env);
  try {
    const choice = chooseMode(flags, env);
    if (choice.mode === 'remote' && choice.token && originOf(choice.server.value) === origin) {
      const login = choice.token.from === 'saved' ? saved?.login : undefined;
      return { server: choice.server.value, token: choice.token.value, login, from: choice.token.name };
    }
  } catch {
    // Contradicting settings (a usage error for a command): the saved credentials still answer below.
  }
  if (saved && originOf(saved.server) === origin)
    return { server: saved.server, token: saved.token, login: saved.login, from: 'saved credentials' };
  return undefined;
}

/**
 * The path git should run to reach this program: the single executable itself, or the script node runs
 * (bin/hublet through tsx).
 */
export function selfExecutable(): string {
  if (isSea()) return process.execPath;
  const script = process.argv[1];
  return script ? path.resolve(script) : process.execPath;
}

/** A word for a shell (git runs `!…` helpers through one): as it is when nothing in it is special, else single-quoted. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** The helper command for git: `!<executable> auth git-credential`. */
export function helperCommand(executable: string): string {
  return `!${shellWord(executable)} auth git-credential`;
}

/** The global git setting whose values are the helpers for a server's origin. */
export const helperKey = (origin: string) => `credential.${origin}.helper`;

/** Runs git with this environment (HOME, GIT_CONFIG_GLOBAL… decide which global config it reads and writes). */
export function runGit(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { env, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') return reject(err);
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Whether git, asked for credentials for this URL, would run `hublet auth git-credential` (any hublet executable). */
export async function helperConfiguredFor(url: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  try {
    const r = await runGit(['config', '--get-urlmatch', 'credential.helper', url], env);
    return r.code === 0 && /\sauth git-credential\s*$/.test(r.stdout.trim());
  } catch {
    return false;
  }
}
