// `hublet admin org add-member ORG LOGIN [--role admin|member]`: makes a user a member (or an owner) of an organization.
import { Option, type Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';

interface OrgAddMemberOptions extends ClientOptions {
  org: string;
  login: string;
  role: string;
}

export async function runOrgAddMember(opts: OrgAddMemberOptions, io: IO): Promise<void> {
  const path = `/orgs/${encodeURIComponent(opts.org)}/memberships/${encodeURIComponent(opts.login)}`;
  const res = expectOk(await opts.client.request('PUT', path, { body: { role: opts.role } }));
  if (opts.json) printJson(io.stdout, res.body);
  else io.stdout.write(`${opts.login} is now ${opts.role === 'admin' ? 'an owner' : 'a member'} of ${opts.org}\n`);
}

export function registerOrgAddMember(org: Command, f: Factory): void {
  withExamples(
    org
      .command('add-member')
      .description('make a user a member, or an owner (--role admin), of an organization; changes the role of one who is'),
    ['hublet admin org add-member acme bob', 'hublet admin org add-member acme carol --role admin'],
  )
    .argument('<org>', 'the organization')
    .argument('<login>', 'the user')
    .addOption(new Option('--role <role>', 'admin (owner) or member').choices(['admin', 'member']).default('member'))
    .action(async (orgName: string, login: string, flags: { role: string }, command: Command) =>
      withClient(command, f, (c) => runOrgAddMember({ ...c, org: orgName, login, role: flags.role }, f.io)),
    );
}
