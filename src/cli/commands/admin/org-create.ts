// `hublet admin org create ORG --owner LOGIN`: an organization with its first owner.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';

interface OrgCreateOptions extends ClientOptions {
  org: string;
  owner: string;
  /** Display name. */
  name?: string;
}

export async function runOrgCreate(opts: OrgCreateOptions, io: IO): Promise<void> {
  const res = expectOk(
    await opts.client.request('POST', '/admin/organizations', { body: { login: opts.org, admin: opts.owner, profile_name: opts.name } }),
  );
  if (opts.json) printJson(io.stdout, res.body);
  else io.stdout.write(`created organization ${opts.org} owned by ${opts.owner}\n`);
}

export function registerOrgCreate(org: Command, f: Factory): void {
  withExamples(org.command('create').description('create an organization with its first owner (an existing user)'), [
    'hublet admin org create acme --owner alice',
    "hublet admin org create acme --owner alice --name 'Acme, Inc.'",
  ])
    .argument('<org>', "the new organization's login")
    .requiredOption('--owner <login>', 'the first owner')
    .option('--name <name>', 'display name')
    .action(async (name: string, flags: { owner: string; name?: string }, command: Command) =>
      withClient(command, f, (c) => runOrgCreate({ ...c, org: name, owner: flags.owner, name: flags.name }, f.io)),
    );
}
