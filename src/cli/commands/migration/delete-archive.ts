// `hublet migration delete-archive ID [--org ORG]`: deletes a migration's archive now.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import { basePath, expectMigrationOk, migrationId, withOrgOption, type MigrationOptions, type ScopeOptions } from './shared.js';

export async function runDeleteArchive(opts: MigrationOptions, io: IO): Promise<void> {
  await expectMigrationOk(opts.client, opts, opts.id, await opts.client.request('DELETE', `${basePath(opts)}/${opts.id}/archive`));
  if (opts.json) printJson(io.stdout, { id: Number(opts.id), archive: 'deleted' });
  else io.stdout.write(`deleted the archive of migration ${opts.id}\n`);
}

export function registerDeleteArchive(migration: Command, f: Factory): void {
  withOrgOption(
    withExamples(
      migration
        .command('delete-archive')
        .argument('<id>', 'migration id', migrationId)
        .description("delete a migration's archive now (archives expire by themselves after 7 days)"),
      ['hublet migration delete-archive --org acme 7'],
    ),
  ).action(async (id: string, flags: ScopeOptions, command: Command) =>
    withClient(command, f, (c) => runDeleteArchive({ ...c, org: flags.org, id }, f.io)),
  );
}
