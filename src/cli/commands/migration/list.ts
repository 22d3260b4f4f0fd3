// `hublet migration list [--org ORG]`: migrations, newest first, as a table (or the API's JSON).
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { printList } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { allPages, basePath, withOrgOption, type Migration, type ScopeOptions } from './shared.js';

export async function runList(opts: ClientOptions & ScopeOptions, io: IO): Promise<void> {
  const all = await allPages<Migration>(opts.client, basePath(opts));
  printList(io.stdout, opts.json, all, ['id', 'state', 'repositories', 'created'], (m) => ({
    id: m.id,
    state: m.state,
    repositories: (m.repositories ?? []).map((r) => r.full_name).join(', '),
    created: m.created_at,
  }));
}

export function registerList(migration: Command, f: Factory): void {
  withOrgOption(
    withExamples(migration.command('list').description('list migrations, newest first: id, state, repositories'), [
      '# your user migrations',
      'hublet migration list',
      'hublet migration list --org acme',
    ]),
  ).action(async (flags: ScopeOptions, command: Command) => withClient(command, f, (c) => runList({ ...c, org: flags.org }, f.io)));
}
