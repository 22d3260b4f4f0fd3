// `hublet admin fsck [--repair] [--no-git-fsck]`: checks a data dir (every gist and repository against git) and lists what is wrong.
import type { Command } from 'commander';
import type { GlobalOptions } from '../client.js';
import { CliExit, EXIT, printJson } from '../output.js';

interface FsckOptions {
  repair?: boolean;
  gitFsck: boolean;
}

/** Adds `fsck` under the `admin` command. Local only: it reads the data dir and the database directly. */
export function registerAdminFsck(admin: Command): void {
  admin
    .command('fsck')
    .description(
      'check a data dir: every gist (database head, history and files against its git repository) and every repository ' +
        '(its directory, HEAD), with git fsck of each; prints one line per problem and exits 1 when there is any',
    )
    .option('--repair', 'move gist branches that lag behind to the head the database names (what the next git request would do)')
    .option('--no-git-fsck', 'skip git fsck of each repository (much faster; the database is still checked against git)')
    .action(async (opts: FsckOptions, command: Command) => {
      const g = command.optsWithGlobals<GlobalOptions>();
      if (g.server ?? process.env.HUBLET_SERVER) throw new CliExit(EXIT.usage, 'hublet: admin fsck checks a data dir on this machine; it has no remote mode (drop --server)');
      const [{ openRuntime }, { checkGists }, { checkRepositories }] = await Promise.all([
        import('../runtime.js'),
        import('../../gists/fsck.js'),
        import('../../repos/fsck.js'),
      ]);
      const runtime = await openRuntime({ dataDir: g.data, databaseUrl: g.database, logLevel: 'silent' });
      try {
        const gists = await checkGists(runtime.config, runtime.db, { gitFsck: opts.gitFsck, repair: Boolean(opts.repair) });
        const repos = await checkRepositories(runtime.config, runtime.db, { gitFsck: opts.gitFsck });
        const problems = [...gists.problems, ...repos.problems];
        const notes = [...gists.notes, ...repos.notes];
        if (g.json) {
          printJson({ gists: gists.checked, repositories: repos.checked, problems, notes });
        } else {
          for (const p of problems) process.stdout.write(`${p.subject}: ${p.message}\n`);
          for (const n of notes) process.stdout.write(`note: ${n.subject}: ${n.message}\n`);
          process.stdout.write(`checked ${gists.checked} gists and ${repos.checked} repositories: ${problems.length ? `${problems.length} problems` : 'no problems'}\n`);
        }
        if (problems.length) throw new CliExit(EXIT.error, `hublet: admin fsck found ${problems.length} problems`);
      } finally {
        await runtime.close();
      }
    });
}
