// `hublet migration unlock ID REPO [--org ORG]`: unlocks a repository the migration locked.
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { withClient, type Factory } from '../factory.js';
import { basePath, migrationId, withOrgOption, type ScopeOptions } from './shared.js';

interface UnlockOptions extends ScopeOptions {
  client: Client;
  id: string;
  repo: string;
  json: boolean;
}

async function runUnlock(opts: UnlockOptions, io: IO): Promise<void> {
  expectOk(await opts.client.request('DELETE', `${basePath(opts)}/${opts.id}/repos/${encodeURIComponent(opts.repo)}/lock`));
  if (opts.json) printJson(io.stdout, { id: Number(opts.id), repository: opts.repo, locked: false });
  else io.stdout.write(`unlocked ${opts.repo} (migration ${opts.id})\n`);
}

export function registerUnlock(migration: Command, f: Factory): void {
  withOrgOption(migration.command('unlock').argument('<id>', 'migration id', migrationId).argument('<repo>', 'repository name').description('unlock a repository the migration locked')).action(
    async (id: string, repo: string, flags: ScopeOptions, command: Command) => withClient(command, f, (client, g) => runUnlock({ org: flags.org, client, id, repo, json: Boolean(g.json) }, f.io)),
  );
}
