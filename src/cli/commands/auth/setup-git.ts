// `hublet auth setup-git`: makes git ask hublet for the token of its server(s), as `gh auth setup-git` does, so that a
// `git push` to a gist or repository there (a `gist clone`'s origin) needs no password prompt. For each server with a
// token (the one this command would use: --server/HUBLET_SERVER with its token, and the one `auth login` saved) it
// writes to the global git config (git's own: $GIT_CONFIG_GLOBAL, else ~/.gitconfig):
//   credential.<origin>.helper = ""                                  (no other helper answers for this server…)
//   credential.<origin>.helper = !<this executable> auth git-credential   (…but hublet)
// Run again after moving the executable. `git config --global --unset-all credential.<origin>.helper` undoes it.
import type { Command } from 'commander';
import { readCredentials } from '../../credentials.js';
import { helperCommand, helperKey, originOf, runGit, selfExecutable, tokenForOrigin } from '../../git-credentials.js';
import type { IO } from '../../io.js';
import { chooseMode, type ModeFlags } from '../../mode.js';
import { CliExit, EXIT, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { globals, type Factory } from '../factory.js';

interface SetupGitOptions {
  flags: ModeFlags;
  json: boolean;
  /** git's environment (which global config it writes), and where the credentials are found. */
  env: NodeJS.ProcessEnv;
  /** What git runs: this program's executable. */
  executable: string;
}

const signIn = (server: string) => `hublet auth login --server ${server}`;

/** The origins to set up: the server this command would use, and the saved one; each must have a token. */
function servers(opts: SetupGitOptions): string[] {
  const origins: string[] = [];
  const add = (server: string) => {
    const origin = originOf(server);
    if (!origin) throw new CliExit(EXIT.usage, `hublet: ${JSON.stringify(server)} is not an http(s) URL`);
    if (!tokenForOrigin(origin, opts.env, opts.flags)) {
      throw new CliExit(
        EXIT.auth,
        `hublet: no token for ${server}: git could not be answered there\nhint: sign in first: \`${signIn(server)}\`, then run \`hublet auth setup-git\``,
      );
    }
    if (!origins.includes(origin)) origins.push(origin);
  };
  const choice = chooseMode(opts.flags, opts.env);
  if (choice.mode === 'remote') add(choice.server.value);
  const saved = readCredentials(opts.env);
  if (saved) add(saved.server);
  if (!origins.length) {
    throw new CliExit(
      EXIT.auth,
      `hublet: not signed in to any server: nothing to set up\nhint: sign in first: \`${signIn('URL')}\`, then run \`hublet auth setup-git\``,
    );
  }
  return origins;
}

async function git(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  let r: Awaited<ReturnType<typeof runGit>>;
  try {
    r = await runGit(args, env);
  } catch {
    throw new CliExit(EXIT.error, 'hublet: git is not installed (or not on PATH); auth setup-git configures it');
  }
  if (r.code !== 0)
    throw new CliExit(
      EXIT.error,
      `hublet: failed to set up git's credential helper: git ${args.join(' ')}: ${r.stderr.trim() || `exit ${r.code}`}`,
    );
}

export async function runSetupGit(opts: SetupGitOptions, io: IO): Promise<void> {
  const origins = servers(opts);
  const helper = helperCommand(opts.executable);
  const done: { server: string; key: string; helper: string }[] = [];
  for (const origin of origins) {
    const key = helperKey(origin);
    // A blank value first ends the list of helpers git inherited for this URL (a store or keychain helper would
    // otherwise answer first with a stale password, and be handed the token to keep); then hublet.
    await git(['config', '--global', '--replace-all', key, ''], opts.env);
    await git(['config', '--global', '--add', key, helper], opts.env);
    done.push({ server: origin, key, helper });
  }
  if (opts.json) return printJson(io.stdout, done);
  for (const d of done) io.stdout.write(`git now asks hublet for the token for ${d.server} (${d.key} in the global git config)\n`);
}

export function registerSetupGit(auth: Command, f: Factory): void {
  withExamples(
    auth
      .command('setup-git')
      .description('make git ask hublet for the token of its server(s), so git push needs no password (as gh auth setup-git)')
      .addHelpText(
        'after',
        [
          '',
          'Sets credential.<server>.helper in the global git config ($GIT_CONFIG_GLOBAL, else ~/.gitconfig) for the server',
          'this command would use (--server, HUBLET_SERVER) and the one `hublet auth login` saved; each needs a token.',
        ].join('\n'),
      ),
    [
      'hublet auth login --server https://hublet.example --token hlp_…',
      'hublet auth setup-git',
      '# then a clone pushes without a password prompt',
      'hublet gist clone ID',
      'git -C ID commit -am "…" && git -C ID push',
    ],
  ).action(async (_flags: unknown, command: Command) => {
    const g = globals(command);
    await runSetupGit({ flags: g, json: Boolean(g.json), env: f.env, executable: selfExecutable() }, f.io);
  });
}
