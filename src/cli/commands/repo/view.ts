// `hublet repo view OWNER/NAME`: one repository as fields (or the API's JSON).
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { fullSpec, printRepo, repoPath, type Repo } from './shared.js';

export async function runView(opts: ClientOptions & { spec: { owner: string; name: string } }, io: IO): Promise<void> {
  const r = expectOk(await opts.client.request('GET', repoPath(opts.spec))).body as Repo;
  if (opts.json) printJson(io.stdout, r);
  else printRepo(io.stdout, r);
}

export function registerView(repo: Command, f: Factory): void {
  withExamples(repo.command('view').description('show a repository: description, visibility, default branch, clone URL, your access'), [
    'hublet repo view acme/tools',
    'hublet --json repo view acme/tools | jq -r .clone_url',
  ])
    .argument('<owner/name>', 'the repository')
    .action(async (specText: string, _flags: unknown, command: Command) => {
      const spec = fullSpec(specText);
      return withClient(command, f, (c) => runView({ ...c, spec }, f.io));
    });
}
