// `hublet admin repo import OWNER/NAME --from PATH`: a site admin imports a git repository from the server's machine.
import path from 'node:path';
import type { Command } from 'commander';
import { expectOk, printJson } from '../output.js';
import { printRepo, repoSpec, type Repo } from './repo-format.js';
import { withClient } from './with-client.js';

/** Adds `repo import` under the `admin` command (registered by admin.ts before this runs). */
export function registerAdminRepo(program: Command): void {
  const admin = program.commands.find((c) => c.name() === 'admin') ?? program.command('admin').description('site administration');
  const repo = admin.command('repo').description('manage repositories as a site admin');
  repo
    .command('import <owner/name>')
    .description('create OWNER/NAME from an existing git repository (all branches and tags) at a path on the server')
    .requiredOption('--from <path>', 'the repository to import (local mode: this machine; remote mode: a path on the server)')
    .option('--private', 'make it private')
    .option('--description <text>', 'a short description')
    .action(async (specText: string, opts: { from: string; private?: boolean; description?: string }, command: Command) => {
      const spec = repoSpec(specText);
      return withClient(command, async (client, g) => {
        // Local mode reads this machine, so a relative path means the current directory; remote paths are the server's.
        const from = client.mode === 'local' ? path.resolve(opts.from) : opts.from;
        const owner = spec.owner ?? ((expectOk(await client.request('GET', '/user')).body as { login: string }).login);
        const res = expectOk(
          await client.request('POST', '/admin/repos/import', { body: { owner, name: spec.name, path: from, private: Boolean(opts.private), description: opts.description } }),
        );
        const r = res.body as Repo;
        if (g.json) printJson(r);
        else {
          process.stdout.write(`imported ${from} as ${r.full_name}\n`);
          printRepo(r);
        }
      });
    });
}
