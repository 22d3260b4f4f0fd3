// `hublet migration …`: the migration-archive command group, one command per file (start, list, status, download, delete-archive, unlock, repos).
import type { Command } from 'commander';
import { withExamples } from '../examples.js';
import type { Factory } from '../factory.js';
import { registerDeleteArchive } from './delete-archive.js';
import { registerDownload } from './download.js';
import { registerList } from './list.js';
import { registerRepos } from './repos.js';
import { registerStart } from './start.js';
import { registerStatus } from './status.js';
import { registerUnlock } from './unlock.js';

export function registerMigration(program: Command, f: Factory): void {
  const migration = withExamples(
    program.command('migration').description("export an organization's (--org ORG) or your own repositories into archives (migrations)"),
    [
      'hublet migration start --org acme tools website --wait',
      'hublet migration download --org acme 7',
      'hublet migration list --org acme',
    ],
  );
  for (const register of [
    registerStart,
    registerList,
    registerStatus,
    registerDownload,
    registerDeleteArchive,
    registerUnlock,
    registerRepos,
  ]) {
    register(migration, f);
  }
}
