// `hublet repo …`: create, list, view and delete repositories through the API; registers `admin repo import` too.
import readline from 'node:readline/promises';
import { Command } from 'commander';
import type { Client } from '../client.js';
import { CliExit, EXIT, expectOk, printJson, printTable } from '../output.js';
import { registerAdminRepo } from './admin-repo.js';
import { positiveInteger } from './option-values.js';
import { printRepo, repoSpec, type Repo } from './repo-format.js';
import { withClient } from './with-client.js';

const enc = encodeURIComponent;

function fullSpec(v: string): { owner: string; name: string } {
  const spec = repoSpec(v);
  if (!spec.owner) throw new CliExit(EXIT.usage, `hublet: expected OWNER/NAME, got ${JSON.stringify(v)}`);
  return spec as { owner: string; name: string };
}

async function whoAmI(client: Client): Promise<string> {
  return (expectOk(await client.request('GET', '/user')).body as { login: string }).login;
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

/** Asks for the repository's full name on a terminal; refuses without one (scripts pass --yes). */
async function confirmDelete(fullName: string): Promise<void> {
  if (!process.stdin.isTTY) throw new CliExit(EXIT.usage, `hublet: refusing to delete ${fullName} without --yes (no terminal to confirm on)`);
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`Type ${fullName} to delete it and all its git data: `);
    if (answer.trim() !== fullName) throw new CliExit(EXIT.error, 'hublet: not deleted (the name did not match)');
  } finally {
    rl.close();
  }
}

export function registerRepo(program: Command): void {
  const repo = program.command('repo').description('repositories: create, list, view, delete (git clone/push go to the clone URL)');

  repo
    .command('create <owner/name>')
    .description('create a repository in your account or an organization')
    .option('--private', 'make it private')
    .option('--auto-init', 'start with a README.md commit on main')
    .option('--description <text>', 'a short description')
    .action(async (specText: string, opts: { private?: boolean; autoInit?: boolean; description?: string }, command: Command) => {
      const spec = repoSpec(specText);
      return withClient(command, async (client, g) => {
        const mine = !spec.owner || spec.owner.toLowerCase() === (await whoAmI(client)).toLowerCase();
        const path = mine ? '/user/repos' : `/orgs/${enc(spec.owner!)}/repos`;
        const res = expectOk(await client.request('POST', path, { body: { name: spec.name, private: Boolean(opts.private), auto_init: Boolean(opts.autoInit), description: opts.description } }));
        const r = res.body as Repo;
        if (g.json) printJson(r);
        else process.stdout.write(`created ${r.full_name} (${r.visibility})\nclone with: git clone ${r.clone_url}\n`);
      });
    });

  repo
    .command('list [owner]')
    .description("list repositories: yours (with your organizations'), or an account's")
    .option('--limit <n>', 'at most this many', positiveInteger, 100)
    .action(async (owner: string | undefined, opts: { limit: number }, command: Command) =>
      withClient(command, async (client, g) => {
        let path = '/user/repos';
        if (owner) {
          const account = expectOk(await client.request('GET', `/users/${enc(owner)}`)).body as { login: string; type: string };
          if (account.type === 'Organization') path = `/orgs/${enc(account.login)}/repos?sort=full_name`;
          else if (account.login.toLowerCase() === (await whoAmI(client)).toLowerCase()) path = '/user/repos?affiliation=owner';
          else path = `/users/${enc(account.login)}/repos`;
        }
        const repos = await collect(client, path, opts.limit);
        if (g.json) return printJson(repos);
        printTable(
          repos.map((r) => ({ name: r.full_name, visibility: r.visibility, branch: r.default_branch, pushed: r.pushed_at, description: r.description ?? '' })),
          ['name', 'visibility', 'branch', 'pushed', 'description'],
        );
      }),
    );

  repo
    .command('view <owner/name>')
    .description('show a repository')
    .action(async (specText: string, _opts: unknown, command: Command) => {
      const spec = fullSpec(specText);
      return withClient(command, async (client, g) => {
        const r = expectOk(await client.request('GET', `/repos/${enc(spec.owner)}/${enc(spec.name)}`)).body as Repo;
        if (g.json) printJson(r);
        else printRepo(r);
      });
    });

  repo
    .command('delete <owner/name>')
    .description('delete a repository and its git data (asks for its name unless --yes)')
    .option('--yes', 'do not ask')
    .action(async (specText: string, opts: { yes?: boolean }, command: Command) => {
      const spec = fullSpec(specText);
      const fullName = `${spec.owner}/${spec.name}`;
      if (!opts.yes) await confirmDelete(fullName);
      return withClient(command, async (client) => {
        expectOk(await client.request('DELETE', `/repos/${enc(spec.owner)}/${enc(spec.name)}`));
        process.stdout.write(`deleted ${fullName}\n`);
      });
    });

  registerAdminRepo(program);
}
