// `hublet migration start [REPO…] [--org ORG]`: starts an export (--wait: until it is exported or failed): an
// organization's with --org, else (or with --user) the signed-in user's, as every `migration` command reads --org.
import type { Command } from 'commander';
import type { ApiResponse } from '../../client.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { basePath, finish, getMigration, type Migration, type ScopeOptions } from './shared.js';
import { waitFor } from './wait.js';

/** The command line's flags. */
interface StartFlags extends ScopeOptions {
  user?: boolean;
  lock?: boolean;
  excludeMetadata?: boolean;
  excludeGitData?: boolean;
  excludeAttachments?: boolean;
  excludeReleases?: boolean;
  excludeOwnerProjects?: boolean;
  orgMetadataOnly?: boolean;
  wait?: boolean;
}

interface StartOptions extends StartFlags, ClientOptions {
  repos: string[];
}

/** The 422 of a user migration naming another owner's repositories says which --org was meant. */
function withOrgHint(res: ApiResponse, opts: StartOptions): ApiResponse {
  try {
    return expectOk(res);
  } catch (err) {
    const owner = opts.repos.map((r) => r.split('/')).find((p) => p.length === 2)?.[0];
    if (!(err instanceof CliExit) || res.status !== 422 || opts.org || !owner) throw err;
    throw new CliExit(
      err.code,
      `${err.message}\nhublet: without --org this is a migration of your own repositories; for ${owner}'s add --org ${owner}`,
    );
  }
}

export async function runStart(opts: StartOptions, io: IO): Promise<void> {
  const { client } = opts;
  const res = withOrgHint(
    await client.request('POST', basePath(opts), {
      body: {
        repositories: opts.repos,
        lock_repositories: Boolean(opts.lock),
        exclude_metadata: Boolean(opts.excludeMetadata),
        exclude_git_data: Boolean(opts.excludeGitData),
        exclude_attachments: Boolean(opts.excludeAttachments),
        exclude_releases: Boolean(opts.excludeReleases),
        exclude_owner_projects: Boolean(opts.excludeOwnerProjects),
        org_metadata_only: Boolean(opts.orgMetadataOnly),
      },
    }),
    opts,
  );
  const m = res.body as Migration;
  if (opts.wait) {
    await waitFor(client, io, opts, String(m.id));
    return finish(io, await getMigration(client, opts, String(m.id), false), opts.json);
  }
  if (opts.json) return printJson(io.stdout, m);
  io.stdout.write(
    `started migration ${m.id} (${m.state}) of ${m.owner.login}: ${(m.repositories ?? []).map((r) => r.full_name).join(', ') || 'organization metadata only'}\n`,
  );
  if (client.mode === 'local')
    io.stdout.write(
      `  it exports when a server runs on this data dir, or now with: hublet migration status ${m.id}${opts.org ? ` --org ${opts.org}` : ''} --wait\n`,
    );
}

export function registerStart(migration: Command, f: Factory): void {
  withExamples(
    migration.command('start').description("start an export of repositories: an organization's (--org ORG) or your own (the default)"),
    [
      '# two repositories of an organization, locked while exported, and wait for the archive',
      'hublet migration start --org acme tools website --lock --wait',
      '# your own repositories',
      'hublet migration start dotfiles notes',
      '# the organization and its people only',
      'hublet migration start --org acme --org-metadata-only',
    ],
  )
    .argument('[repos...]', "the repositories: NAME, or OWNER/NAME (OWNER the migration's owner)")
    .option('--org <org>', 'export repositories of this organization')
    .option('--user', 'export your own repositories (the default without --org)')
    .option('--lock', 'lock the repositories (pushes refused) until unlocked')
    .option('--exclude-metadata', 'only git data, no metadata')
    .option('--exclude-git-data', 'no git data, metadata only')
    .option('--exclude-attachments', 'leave attachments out')
    .option('--exclude-releases', 'leave releases out')
    .option('--exclude-owner-projects', "leave the owner's projects out")
    .option('--org-metadata-only', 'only the organization and its people (no repositories)')
    .option('--wait', 'wait for the export to finish (locally: run it now)')
    .action(async (repos: string[], flags: StartFlags, command: Command) => {
      if (flags.org && flags.user)
        throw new CliExit(EXIT.usage, 'hublet: --org ORG and --user name different owners: give one of them (or neither, for --user)');
      return withClient(command, f, (c) => runStart({ ...flags, ...c, repos }, f.io));
    });
}
