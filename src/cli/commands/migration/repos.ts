// `hublet migration repos ID [--org ORG]`: a migration's repositories, as a table (or the API's JSON).
import type { Command } from 'commander';
import type { ApiResponse } from '../../client.js';
import type { IO } from '../../io.js';
import { printList } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import { allPages, basePath, expectMigrationOk, migrationId, withOrgOption, type MigrationOptions, type ScopeOptions } from './shared.js';

export async function runRepos(opts: MigrationOptions, io: IO): Promise<void> {
  const { client, id } = opts;
  const check = (res: ApiResponse) => expectMigrationOk(client, opts, id, res);
  const repos = await allPages<{ full_name: string; private: boolean; default_branch: string }>(
    client,
    `${basePath(opts)}/${id}/repositories`,
    check,
  );
  printList(io.stdout, opts.json, repos, ['repository', 'visibility', 'default_branch'], (r) => ({
    repository: r.full_name,
    visibility: r.private ? 'private' : 'public',
    default_branch: r.default_branch,
  }));
}

export function registerRepos(migration: Command, f: Factory): void {
  withOrgOption(
    withExamples(migration.command('repos').argument('<id>', 'migration id', migrationId).description("list a migration's repositories"), [
      'hublet migration repos --org acme 7',
      'hublet migration repos 8',
    ]),
  ).action(async (id: string, flags: ScopeOptions, command: Command) =>
    withClient(command, f, (c) => runRepos({ ...c, org: flags.org, id }, f.io)),
  );
}
