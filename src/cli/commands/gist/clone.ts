// `hublet gist clone ID [DIR]`: a working tree of a gist through `git clone`; remotely the token rides in the environment.
//
// Remote mode clones the gist's git_pull_url. The token (when there is one) reaches git as an `http.<origin>.extraHeader`
// setting passed through GIT_CONFIG_COUNT/GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n: it is never in a URL, never in an
// argument (which `ps` shows to everyone), never written to the clone's .git/config, and is sent only to that origin.
// Local mode needs no server: it clones the gist's bare repository in the data dir (its branch first put where the
// database says, as the server does before every git read), then points `origin` at git_pull_url for later pushes.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Command } from 'commander';
import { readCredentials } from '../../credentials.js';
import type { Client, GlobalOptions } from '../../client.js';
import { CliExit, EXIT } from '../../output.js';
import { withClient } from '../with-client.js';
import { getGist, type Gist } from './shared.js';

/** Runs git; its messages go straight to stderr. Exit 1 when it fails or is not installed. */
function git(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(new CliExit(EXIT.error, err.code === 'ENOENT' ? 'hublet: git is not installed (or not on PATH); gist clone needs it' : `hublet: cannot run git: ${err.message}`)),
    );
    child.on('close', (code, signal) => (code === 0 ? resolve() : reject(new CliExit(EXIT.error, `hublet: git ${args[0]} failed (${signal ?? `exit ${code}`})`))));
  });
}

/** The token remote mode sends, chosen exactly as openClient chooses it (flag, HUBLET_TOKEN, saved credentials). */
export function remoteToken(g: GlobalOptions, env: NodeJS.ProcessEnv): string | undefined {
  const explicit = g.token ?? env.HUBLET_TOKEN;
  if (explicit) return explicit;
  const saved = readCredentials(env);
  if (!saved) return undefined;
  const server = g.server ?? env.HUBLET_SERVER;
  const trim = (u: string) => u.replace(/\/+$/, '');
  return !server || trim(saved.server) === trim(server) ? saved.token : undefined;
}

/** git's environment: never prompts; with a token, an Authorization header for the clone URL's origin only. */
export function gitEnv(base: NodeJS.ProcessEnv, url: string, token: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, GIT_TERMINAL_PROMPT: '0' };
  if (!token) return env;
  const first = Number.parseInt(base.GIT_CONFIG_COUNT ?? '0', 10) || 0;
  const settings: [string, string][] = [
    [`http.${new URL(url).origin}/.extraHeader`, `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`],
    // No credential helper runs: a refused token fails the clone instead of prompting or storing anything.
    ['credential.helper', ''],
  ];
  settings.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${first + i}`] = key;
    env[`GIT_CONFIG_VALUE_${first + i}`] = value;
  });
  env.GIT_CONFIG_COUNT = String(first + settings.length);
  return env;
}

async function cloneLocal(g: GlobalOptions, gist: Gist, dir: string): Promise<void> {
  const [{ loadConfig }, { gistRepoDir }, { syncRef }] = await Promise.all([import('../../../config.js'), import('../../../gists/git.js'), import('../../../gists/write.js')]);
  const repo = gistRepoDir(loadConfig({ dataDir: g.data, databaseUrl: g.database }), gist.id);
  const head = gist.history?.[0]?.version;
  if (head) await syncRef(repo, head);
  const env = gitEnv(process.env, gist.git_pull_url, undefined);
  // --no-local: a real fetch of what the branch reaches, no hard links into the data dir.
  await git(['clone', '--quiet', '--no-local', '--', repo, dir], env);
  await git(['-C', dir, 'remote', 'set-url', 'origin', gist.git_pull_url], env);
}

export async function runClone(client: Client, g: GlobalOptions, id: string, target: string | undefined): Promise<void> {
  const gist = await getGist(client, id);
  const dir = path.resolve(target ?? gist.id);
  if (client.mode === 'local') await cloneLocal(g, gist, dir);
  else await git(['clone', '--quiet', '--', gist.git_pull_url, dir], gitEnv(process.env, gist.git_pull_url, remoteToken(g, process.env)));
  process.stdout.write(`cloned gist ${gist.id} into ${dir}\n`);
}

export function registerClone(gist: Command): void {
  gist
    .command('clone <id> [dir]')
    .description('clone a gist with git (into DIR, default: the gist id); push back with a token as the password')
    .action(async (id: string, dir: string | undefined, _opts: unknown, command: Command) => {
      await withClient(command, (client, g) => runClone(client, g, id, dir));
    });
}
