// `hublet gist clone ID [DIR]`: a working tree of a gist through `git clone`; the token rides in git's environment.
//
// git clones the gist's git_pull_url as the client reaches it: remotely the URL itself; locally the same path on the
// client's loopback gateway into the in-process app, so the clone goes through the server's own git read (which puts
// the branch where the database says under the gist's lock) and needs no running server. The token (remotely the
// user's, when there is one; locally the gateway's key) reaches git as an `http.<origin>.extraHeader` setting passed
// through GIT_CONFIG_COUNT/GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n: it is never in a URL, never in an argument (which `ps`
// shows to everyone), never written to the clone's .git/config, and is sent only to that origin. A local clone's
// `origin` is then pointed at git_pull_url for later pushes.
//
// Later pushes go to the server itself (in local mode too: the gateway lives only while the command runs), where git
// asks its credential helper for the token. When git would not ask hublet there (`hublet auth setup-git`), or hublet
// has no token for that server, a hint line on stderr says what to run (at a terminal: it is for a person).
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import { helperConfiguredFor, originOf, tokenForOrigin } from '../../git-credentials.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import { getGist } from './shared.js';

interface CloneOptions {
  client: Client;
  id: string;
  /** Where to clone to (default: the gist id, in the current directory). */
  dir?: string;
  /** The environment git runs with (and finds itself through PATH). */
  env: NodeJS.ProcessEnv;
}

/** Runs git; its messages go to stderr. Exit 1 when it fails or is not installed. */
function git(args: string[], env: NodeJS.ProcessEnv, io: IO): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (chunk: Buffer) => io.stderr.write(chunk));
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(
        new CliExit(
          EXIT.error,
          err.code === 'ENOENT'
            ? 'hublet: git is not installed (or not on PATH); gist clone needs it'
            : `hublet: cannot run git: ${err.message}`,
        ),
      ),
    );
    child.on('close', (code, signal) =>
      code === 0 ? resolve() : reject(new CliExit(EXIT.error, `hublet: git ${args[0]} failed (${signal ?? `exit ${code}`})`)),
    );
  });
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

export async function runClone(opts: CloneOptions, io: IO): Promise<void> {
  const gist = await getGist(opts.client, opts.id);
  const dir = path.resolve(opts.dir ?? gist.id);
  const source = await opts.client.reach(gist.git_pull_url, { withToken: true });
  const env = gitEnv(opts.env, source.url, source.token);
  await git(['clone', '--quiet', '--', source.url, dir], env, io);
  if (source.url !== gist.git_pull_url) await git(['-C', dir, 'remote', 'set-url', 'origin', gist.git_pull_url], env, io);
  io.stdout.write(`cloned gist ${gist.id} into ${dir}\n`);
  if (io.stderrIsTTY) for (const line of await pushHints(gist.git_pull_url, opts.env)) io.stderr.write(`${line}\n`);
}

/** What to run so that `git push` from the clone gets a token without a prompt (nothing when it already does). */
async function pushHints(url: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const origin = originOf(url);
  if (!origin) return [];
  // What git's helper will find later: HUBLET_SERVER/HUBLET_TOKEN in its environment, or the saved credentials.
  const token = tokenForOrigin(origin, env);
  const helper = await helperConfiguredFor(url, env);
  if (token && helper) return [];
  if (token)
    return [
      `hint: to push with git without a password prompt, run \`hublet auth setup-git\` once (git then asks hublet for the token for ${origin})`,
    ];
  const then = helper ? '' : ', then `hublet auth setup-git`';
  return [`hint: pushing with git needs a token for ${origin}: sign in with \`hublet auth login --server ${origin}\`${then}`];
}

export function registerClone(gist: Command, f: Factory): void {
  withExamples(
    gist
      .command('clone')
      .description('clone a gist with git (into DIR, default: the gist id); `hublet auth setup-git` lets git push back with your token')
      .argument('<id>', 'the gist: its id or URL')
      .argument('[dir]', 'the directory to clone into (default: the gist id)'),
    [
      '# a working tree of the gist; after `hublet auth setup-git`, git push needs no password',
      'hublet gist clone ID',
      'hublet gist clone ID notes',
    ],
  ).action(async (id: string, dir: string | undefined, _flags: unknown, command: Command) => {
    await withClient(command, f, ({ client }) => runClone({ client, id, dir, env: f.env }, f.io));
  });
}
