// `hublet repo list [OWNER]`: your repositories (with your organizations'), or an account's, as a table (or the API's JSON).
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk, printList } from '../../output.js';
import { positiveInteger } from '../option-values.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { whoAmI, type Repo } from './shared.js';

interface ListOptions extends ClientOptions {
  owner?: string;
  limit: number;
}

/** Every page of a list, up to `limit` items. */
async function collect(client: Client, path: string, limit: number): Promise<Repo[]> {
  const out: Repo[] = [];
  for (let page = 1; out.length < limit; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const batch = expectOk(await client.request('GET', `${path}${sep}per_page=100&page=${page}`)).body as Repo[];
    out.push(...batch);
    if (batch.length < 100) break;
  }
  return out.slice(0, limit);
}

export async function runList(opts: ListOptions, io: IO): Promise<void> {
  const { client, owner } = opts;
  const enc = encodeURIComponent;
  let path = '/user/repos';
  if (owner) {
    const account = expectOk(await client.request('GET', `/users/${enc(owner)}`)).body as { login: string; type: string };
    if (account.type === 'Organization') path = `/orgs/${enc(account.login)}/repos?sort=full_name`;
    else if (account.login.toLowerCase() === (await whoAmI(client)).toLowerCase()) path = '/user/repos?affiliation=owner';
    else path = `/users/${enc(account.login)}/repos`;
  }
  const repos = await collect(client, path, opts.limit);
  printList(io.stdout, opts.json, repos, ['name', 'visibility', 'branch', 'pushed', 'description'], (r) => ({
    name: r.full_name,
    visibility: r.visibility,
    branch: r.default_branch,
    pushed: r.pushed_at,
    description: r.description ?? '',
  }));
}

export function registerList(repo: Command, f: Factory): void {
  withExamples(repo.command('list').description("list repositories: yours (with your organizations'), or an account's"), [
    'hublet repo list',
    'hublet repo list acme --limit 20',
    "hublet --json repo list alice | jq -r '.[].clone_url'",
  ])
    .argument('[owner]', 'a user or organization (default: you)')
    .option('--limit <n>', 'at most this many', positiveInteger, 100)
    .action(async (owner: string | undefined, flags: { limit: number }, command: Command) =>
      withClient(command, f, (c) => runList({ ...c, owner, limit: flags.limit }, f.io)),
    );
}
