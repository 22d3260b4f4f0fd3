// `hublet migration status ID [--org ORG] [--wait]`: a migration's state (--wait: until exported or failed); exit 1 when it failed.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import { finish, getMigration, migrationId, withOrgOption, type MigrationOptions, type ScopeOptions } from './shared.js';
import { waitFor } from './wait.js';

/** `wait`: until the export is done (locally: run it now). */
export async function runStatus(opts: MigrationOptions & { wait?: boolean }, io: IO): Promise<void> {
  if (opts.wait) await waitFor(opts.client, io, opts, opts.id);
  finish(io, await getMigration(opts.client, opts, opts.id, false), opts.json);
}

export function registerStatus(migration: Command, f: Factory): void {
  withOrgOption(
    withExamples(
      migration
        .command('status')
        .argument('<id>', 'migration id', migrationId)
        .description("show a migration's state (pending, exporting, exported or failed)")
        .option('--wait', 'wait until exported or failed, with a progress line (locally: run the export now)'),
      [
        'hublet migration status --org acme 7',
        '# wait for it, then download',
        'hublet migration status --org acme 7 --wait && hublet migration download --org acme 7',
      ],
    ),
  ).action(async (id: string, flags: ScopeOptions & { wait?: boolean }, command: Command) =>
    withClient(command, f, (c) => runStatus({ ...c, org: flags.org, wait: flags.wait, id }, f.io)),
  );
}
