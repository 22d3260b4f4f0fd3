// `hublet migration …`: the migration-archive command group, one command per file (start, list, status, download, delete-archive, unlock, repos).
import type { Command } from 'commander';
import type { Factory } from '../factory.js';
import { registerDeleteArchive } from './delete-archive.js';
import { registerDownload } from './download.js';
import { registerList } from './list.js';
import { registerRepos } from './repos.js';
import { registerStart } from './start.js';
import { registerStatus } from './status.js';
import { registerUnlock } from './unlock.js';

export function registerMigration(program: Command, f: Factory): void {
  const migration = program.command('migration').description('export organization or user repositories into archives (migrations)');
  for (const register of [registerStart, registerList, registerStatus, registerDownload, registerDeleteArchive, registerUnlock, registerRepos]) {
    register(migration, f);
  }
}
