// `hublet admin fsck [--repair] [--no-git-fsck]`: checks a data dir (every gist and repository against git) and lists what is wrong.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { CliExit, EXIT, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { globals, type Factory } from '../factory.js';

interface FsckOptions {
  data?: string;
  database?: string;
  repair?: boolean;
  gitFsck: boolean;
  json: boolean;
  /** Where HUBLET_DATA, HUBLET_DATABASE and the other settings are read. */
  env: NodeJS.ProcessEnv;
}

/** Local only: it reads the data dir and the database directly. */
export async function runFsck(opts: FsckOptions, io: IO): Promise<void> {
  const [{ openRuntime }, { checkGists }, { checkRepositories }] = await Promise.all([
    import('../../runtime.js'),
    import('../../../gists/fsck.js'),
    import('../../../repos/fsck.js'),
  ]);
  const runtime = await openRuntime({ dataDir: opts.data, databaseUrl: opts.database, logLevel: 'silent' }, opts.env);
  try {
    const gists = await checkGists(runtime.config, runtime.db, { gitFsck: opts.gitFsck, repair: Boolean(opts.repair) });
    const repos = await checkRepositories(runtime.config, runtime.db, { gitFsck: opts.gitFsck });
    const problems = [...gists.problems, ...repos.problems];
    const notes = [...gists.notes, ...repos.notes];
    if (opts.json) {
      printJson(io.stdout, { gists: gists.checked, repositories: repos.checked, problems, notes });
    } else {
      for (const p of problems) io.stdout.write(`${p.subject}: ${p.message}\n`);
      for (const n of notes) io.stdout.write(`note: ${n.subject}: ${n.message}\n`);
      io.stdout.write(
        `checked ${gists.checked} gists and ${repos.checked} repositories: ${problems.length ? `${problems.length} problems` : 'no problems'}\n`,
      );
    }
    if (problems.length) throw new CliExit(EXIT.error, `hublet: admin fsck found ${problems.length} problems`);
  } finally {
    await runtime.close();
  }
}

export function registerFsck(admin: Command, f: Factory): void {
  withExamples(
    admin
      .command('fsck')
      .description(
        'check a data dir (local mode only): every gist (database head, history and files against its git repository) and every repository ' +
          '(its directory, HEAD), with git fsck of each; prints one line per problem and exits 1 when there is any',
      ),
    [
      'hublet --data /var/lib/hublet admin fsck',
      '# quicker: the database against git only',
      'hublet admin fsck --no-git-fsck',
      'hublet admin fsck --repair',
    ],
  )
    .option('--repair', 'move gist branches that lag behind to the head the database names (what the next git request would do)')
    .option('--no-git-fsck', 'skip git fsck of each repository (much faster; the database is still checked against git)')
    .action(async (flags: { repair?: boolean; gitFsck: boolean }, command: Command) => {
      const g = globals(command);
      if (g.server ?? f.env.HUBLET_SERVER)
        throw new CliExit(EXIT.usage, 'hublet: admin fsck checks a data dir on this machine; it has no remote mode (drop --server)');
      await runFsck(
        { data: g.data, database: g.database, repair: flags.repair, gitFsck: flags.gitFsck, json: Boolean(g.json), env: f.env },
        f.io,
      );
    });
}
