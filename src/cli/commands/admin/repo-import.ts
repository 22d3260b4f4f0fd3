// `hublet admin repo import OWNER/NAME --from PATH`: a site admin imports a git repository from the server's machine.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { printRepo, repoSpec, whoAmI, type Repo } from '../repo/shared.js';

interface RepoImportOptions extends ClientOptions {
  spec: { owner?: string; name: string };
  /** A path on the server's machine (locally this one: relative to the current directory). */
  from: string;
  private?: boolean;
  description?: string;
}

export async function runRepoImport(opts: RepoImportOptions, io: IO): Promise<void> {
  const { client, spec } = opts;
  const from = client.serverPath(opts.from);
  const owner = spec.owner ?? (await whoAmI(client));
  const res = expectOk(
    await client.request('POST', '/admin/repos/import', {
      body: { owner, name: spec.name, path: from, private: Boolean(opts.private), description: opts.description },
    }),
  );
  const r = res.body as Repo;
  if (opts.json) return printJson(io.stdout, r);
  io.stdout.write(`imported ${from} as ${r.full_name}\n`);
  printRepo(io.stdout, r);
}

export function registerRepoImport(repo: Command, f: Factory): void {
  withExamples(
    repo.command('import').description('create OWNER/NAME from an existing git repository (all branches and tags) at a path on the server'),
    [
      'hublet admin repo import acme/tools --from /srv/git/tools.git',
      "# NAME alone: the acting user's (local mode: --as, default admin)",
      "hublet --as alice admin repo import dotfiles --from ~/dotfiles --private --description 'my dotfiles'",
    ],
  )
    .argument('<owner/name>', 'the repository to create: OWNER/NAME, or NAME for your own')
    .requiredOption('--from <path>', 'the repository to import (local mode: this machine; remote mode: a path on the server)')
    .option('--private', 'make it private')
    .option('--description <text>', 'a short description')
    .action(async (specText: string, flags: { from: string; private?: boolean; description?: string }, command: Command) => {
      const spec = repoSpec(specText);
      return withClient(command, f, (c) => runRepoImport({ ...flags, ...c, spec }, f.io));
    });
}
