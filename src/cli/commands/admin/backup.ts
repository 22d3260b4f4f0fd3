// `hublet admin backup --to DIR [--include-secret-key] [--keep N]`: a consistent backup of a data dir and its database,
// taken beside running servers (src/backup/backup.ts says how); local mode only.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { CliExit, EXIT, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { globals, type Factory } from '../factory.js';

interface BackupCommandOptions {
  data?: string;
  database?: string;
  to: string;
  includeSecretKey: boolean;
  keep?: number;
  json: boolean;
  /** Where HUBLET_DATA, HUBLET_DATABASE, HUBLET_SECRET_KEY and the archive settings are read. */
  env: NodeJS.ProcessEnv;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export async function runBackup(opts: BackupCommandOptions, io: IO): Promise<void> {
  const [{ loadConfig }, { takeBackup }, { BackupRefusal }] = await Promise.all([
    import('../../../config.js'),
    import('../../../backup/backup.js'),
    import('../../../backup/manifest.js'),
  ]);
  const config = loadConfig({ dataDir: opts.data, databaseUrl: opts.database, logLevel: 'silent' }, opts.env);
  try {
    const r = await takeBackup({
      config,
      to: opts.to,
      includeSecretKey: opts.includeSecretKey,
      keep: opts.keep,
      env: opts.env,
      say: (line) => io.stderr.write(`${line}\n`),
    });
    if (opts.json) return printJson(io.stdout, { dir: r.dir, manifest: r.manifest, removed: r.removed });
    const m = r.manifest;
    io.stdout.write(
      `backup written to ${r.dir}: ${m.gists} gists, ${m.repositories} repositories, ${m.archives.length} archives, ` +
        `database ${mib(m.database.file.size)}, git ${mib(m.git.bytes)}` +
        `${m.linked.from ? ` (${mib(m.linked.bytes)} of it linked from ${m.linked.from})` : ''}` +
        `${m.secret_key ? ', with the secret key' : ''}\n`,
    );
  } catch (err) {
    if (err instanceof BackupRefusal)
      throw new CliExit(err.kind === 'usage' ? EXIT.usage : EXIT.error, `hublet: admin backup: ${err.message}`);
    throw err;
  }
}

function keepCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new CliExit(EXIT.usage, `hublet: --keep expects a whole number of backups, 1 or more; got ${JSON.stringify(value)}`);
  return n;
}

export function registerBackup(admin: Command, f: Factory): void {
  withExamples(
    admin
      .command('backup')
      .description(
        'back up a data dir and its database while its servers keep running (local mode only): a consistent snapshot of the ' +
          'database, then the git data and archives it names, into a new folder of --to; git objects the previous backup in ' +
          '--to holds are hard-linked, not copied. Prints where the backup went',
      ),
    [
      'hublet --data /var/lib/hublet admin backup --to /srv/backups/hublet',
      '# with the key that seals hook secrets (keep such backups as safe as the key), the 7 newest kept',
      'hublet --data /var/lib/hublet admin backup --to /srv/backups/hublet --include-secret-key --keep 7',
      'HUBLET_DATABASE=postgres://hublet@db/hublet hublet --data /srv/hublet admin backup --to /srv/backups/hublet',
    ],
  )
    .requiredOption('--to <dir>', 'the folder backups are kept in (created when missing); each backup is a folder in it, named by its time')
    .option(
      '--include-secret-key',
      'include the secret key that seals hook secrets (secret.key, or HUBLET_SECRET_KEY); without it, keep the key yourself',
    )
    .option('--keep <n>', 'then delete all but the newest N complete backups in --to', keepCount)
    .action(async (flags: { to: string; includeSecretKey?: boolean; keep?: number }, command: Command) => {
      const g = globals(command);
      if (g.server ?? f.env.HUBLET_SERVER)
        throw new CliExit(EXIT.usage, 'hublet: admin backup reads a data dir on this machine; it has no remote mode (drop --server)');
      await runBackup(
        {
          data: g.data,
          database: g.database,
          to: flags.to,
          includeSecretKey: Boolean(flags.includeSecretKey),
          keep: flags.keep,
          json: Boolean(g.json),
          env: f.env,
        },
        f.io,
      );
    });
}
