// `hublet migration unlock ID REPO [--org ORG]`: unlocks a repository the migration locked. REPO is a name or
// OWNER/NAME (as `start` takes them); an owner that is not the migration's is refused before anything is unlocked.
import { InvalidArgumentError, type Command } from 'commander';
import type { IO } from '../../io.js';
import { CliExit, EXIT, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type Factory } from '../factory.js';
import {
  basePath,
  expectMigrationOk,
  getMigration,
  migrationId,
  withOrgOption,
  type MigrationOptions,
  type ScopeOptions,
} from './shared.js';

/** A repository as the command line names it: `name` or `owner/name`. */
interface RepoArg {
  owner?: string;
  name: string;
}

function repoArg(v: string): RepoArg {
  const parts = v.split('/');
  if (parts.length > 2 || parts.some((p) => p === '')) throw new InvalidArgumentError('expected a repository as NAME or OWNER/NAME');
  return parts.length === 2 ? { owner: parts[0], name: parts[1] } : { name: parts[0] };
}

export async function runUnlock(opts: MigrationOptions & { repo: RepoArg }, io: IO): Promise<void> {
  const { client, id, repo } = opts;
  let fullName = repo.name;
  if (repo.owner) {
    const m = await getMigration(client, opts, id, true, repo.owner);
    if (m.owner.login.toLowerCase() !== repo.owner.toLowerCase()) {
      throw new CliExit(
        EXIT.usage,
        `hublet: migration ${id} is ${m.owner.login}'s: its repositories are ${m.owner.login}/NAME, not ${repo.owner}/${repo.name}`,
      );
    }
    fullName = `${m.owner.login}/${repo.name}`;
  }
  await expectMigrationOk(
    client,
    opts,
    id,
    await client.request('DELETE', `${basePath(opts)}/${id}/repos/${encodeURIComponent(repo.name)}/lock`),
    repo.owner,
  );
  if (opts.json) printJson(io.stdout, { id: Number(id), repository: fullName, locked: false });
  else io.stdout.write(`unlocked ${fullName} (migration ${id})\n`);
}

export function registerUnlock(migration: Command, f: Factory): void {
  withOrgOption(
    withExamples(
      migration
        .command('unlock')
        .argument('<id>', 'migration id', migrationId)
        .argument('<repo>', "the repository: NAME or OWNER/NAME (the migration's owner)", repoArg)
        .description('unlock a repository the migration locked (started with --lock), so pushes work again'),
      ['hublet migration unlock --org acme 7 acme/tools', 'hublet migration unlock 8 dotfiles'],
    ),
  ).action(async (id: string, repo: RepoArg, flags: ScopeOptions, command: Command) =>
    withClient(command, f, (c) => runUnlock({ ...c, org: flags.org, id, repo }, f.io)),
  );
}
