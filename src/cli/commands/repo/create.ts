// `hublet repo create [OWNER/]NAME`: a repository in your account or an organization.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { repoSpec, whoAmI, type Repo } from './shared.js';

/** The command line's flags. */
interface CreateFlags {
  private?: boolean;
  autoInit?: boolean;
  description?: string;
}

interface CreateOptions extends CreateFlags, ClientOptions {
  spec: { owner?: string; name: string };
}

export async function runCreate(opts: CreateOptions, io: IO): Promise<void> {
  const { client, spec } = opts;
  const mine = !spec.owner || spec.owner.toLowerCase() === (await whoAmI(client)).toLowerCase();
  const path = mine ? '/user/repos' : `/orgs/${encodeURIComponent(spec.owner!)}/repos`;
  const res = expectOk(
    await client.request('POST', path, {
      body: { name: spec.name, private: Boolean(opts.private), auto_init: Boolean(opts.autoInit), description: opts.description },
    }),
  );
  const r = res.body as Repo;
  if (opts.json) printJson(io.stdout, r);
  else io.stdout.write(`created ${r.full_name} (${r.visibility})\nclone with: git clone ${r.clone_url}\n`);
}

export function registerCreate(repo: Command, f: Factory): void {
  withExamples(repo.command('create').description('create a repository in your account or an organization; prints how to clone it'), [
    '# yours (NAME alone), starting with a README commit',
    'hublet repo create notes --auto-init',
    "hublet repo create acme/tools --private --description 'build tools'",
  ])
    .argument('<owner/name>', 'OWNER/NAME (an organization you own, or yourself), or NAME for your own')
    .option('--private', 'make it private')
    .option('--auto-init', 'start with a README.md commit on main')
    .option('--description <text>', 'a short description')
    .action(async (specText: string, flags: CreateFlags, command: Command) => {
      const spec = repoSpec(specText);
      return withClient(command, f, (c) => runCreate({ ...flags, ...c, spec }, f.io));
    });
}
