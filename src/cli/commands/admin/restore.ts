// `hublet admin restore --from DIR --data NEWDIR [--database URL]`: a new installation from a backup, into an empty data
// dir and an empty database (src/backup/restore.ts checks the backup whole first); local mode only.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { CliExit, EXIT, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { globals, type Factory } from '../factory.js';

interface RestoreCommandOptions {
  from: string;
  data?: string;
  database?: string;
  json: boolean;
  env: NodeJS.ProcessEnv;
}

export async function runRestore(opts: RestoreCommandOptions, io: IO): Promise<void> {
  if (!opts.data && !opts.env.HUBLET_DATA)
    throw new CliExit(EXIT.usage, 'hublet: admin restore needs --data NEWDIR: the new, empty data dir to restore into');
  const [{ loadConfig }, { restoreBackup }, { BackupRefusal }] = await Promise.all([
    import('../../../config.js'),
    import('../../../backup/restore.js'),
    import('../../../backup/manifest.js'),
  ]);
  const config = loadConfig({ dataDir: opts.data, databaseUrl: opts.database, logLevel: 'silent' }, opts.env);
  try {
    const r = await restoreBackup({ from: opts.from, config, say: (line) => io.stderr.write(`${line}\n`) });
    if (opts.json) return printJson(io.stdout, { backup: r.backup, data_dir: r.dataDir, database: r.database, manifest: r.manifest });
    const m = r.manifest;
    io.stdout.write(
      `restored ${r.backup} (taken ${m.created_at}) into ${r.dataDir}, database ${r.database}: ` +
        `${m.gists} gists, ${m.repositories} repositories, ${m.archives.length} archives${m.secret_key ? ', the secret key' : ''}\n` +
        `next: hublet --data ${r.dataDir}${opts.database ? ' --database URL' : ''} admin fsck, then hublet serve --data ${r.dataDir}\n`,
    );
  } catch (err) {
    if (err instanceof BackupRefusal)
      throw new CliExit(err.kind === 'usage' ? EXIT.usage : EXIT.error, `hublet: admin restore: ${err.message}`);
    throw err;
  }
}

export function registerRestore(admin: Command, f: Factory): void {
  withExamples(
    admin
      .command('restore')
      .description(
        'rebuild an installation from a backup (local mode only) into a new, empty data dir (--data) and, for a PostgreSQL ' +
          'backup, an existing empty database (--database); the backup is checked against its manifest first',
      ),
    [
      '# the newest complete backup in the folder, into a new data dir',
      'hublet admin restore --from /srv/backups/hublet --data /var/lib/hublet-restored',
      'hublet admin restore --from /srv/backups/hublet/2026-05-12T03-15-00Z --data /srv/hublet2 --database postgres://hublet@db/hublet2',
    ],
  )
    .requiredOption('--from <dir>', 'a backup, or the --to folder of admin backup (its newest complete backup is taken)')
    .action(async (flags: { from: string }, command: Command) => {
      const g = globals(command);
      if (g.server ?? f.env.HUBLET_SERVER)
        throw new CliExit(EXIT.usage, 'hublet: admin restore writes a data dir on this machine; it has no remote mode (drop --server)');
      await runRestore({ from: flags.from, data: g.data, database: g.database, json: Boolean(g.json), env: f.env }, f.io);
    });
}
