// `hublet admin token create LOGIN`: issues a token (classic, fine-grained, oauth, …); prints the token alone, or the record with --json.
import { Option, type Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { commaList as csv, positiveInteger } from '../option-values.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';

/** The command line's flags. */
interface TokenCreateFlags {
  scopes?: string[];
  kind: string;
  permissions?: Record<string, string>;
  app?: number;
  /** ISO 8601, or a number of days (`30d`). */
  expires?: string;
  note?: string;
}

interface TokenCreateOptions extends TokenCreateFlags, ClientOptions {
  login: string;
}

/** `gists=write,organization_hooks=read` → `{gists: 'write', organization_hooks: 'read'}` */
function permissionsList(v: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of csv(v)) {
    const [k, level] = pair.split(/[=:]/);
    out[k.trim()] = (level ?? '').trim();
  }
  return out;
}

export async function runTokenCreate(opts: TokenCreateOptions, io: IO): Promise<void> {
  const expires =
    opts.expires && /^\d+d$/.test(opts.expires)
      ? new Date(Date.now() + parseInt(opts.expires, 10) * 86_400_000).toISOString()
      : opts.expires;
  const res = expectOk(
    await opts.client.request('POST', `/admin/users/${encodeURIComponent(opts.login)}/authorizations`, {
      body: {
        scopes: opts.scopes,
        kind: opts.kind.replace('-', '_'),
        permissions: opts.permissions,
        app_id: opts.app,
        expires_at: expires,
        note: opts.note,
      },
    }),
  );
  if (opts.json) printJson(io.stdout, res.body);
  else io.stdout.write(`${(res.body as { token: string }).token}\n`);
}

export function registerTokenCreate(token: Command, f: Factory): void {
  withExamples(token.command('create').description('issue a token for a user; prints the token alone (or the whole record with --json)'), [
    "# a new admin token (e.g. the first one was lost): local mode, on the server's data dir",
    'hublet --data /var/lib/hublet admin token create admin --scopes site_admin,admin:org,admin:org_hook,gist,repo,user',
    'hublet admin token create alice --scopes gist,admin:org_hook,repo --note laptop --expires 30d',
    'hublet admin token create alice --kind fine_grained --permissions gists=write,organization_hooks=read',
    '# sign in with a new token in one go',
    'hublet auth login --server https://hublet.example.com --token "$(hublet admin token create alice --scopes gist)"',
  ])
    .argument('<login>', 'the user the token acts as')
    .option('--scopes <list>', 'OAuth scopes, comma separated (classic and oauth kinds)', csv)
    .addOption(
      new Option('--kind <kind>', 'token kind')
        .choices(['classic', 'fine_grained', 'fine-grained', 'oauth', 'installation', 'app_user', 'app-user'])
        .default('classic'),
    )
    .option('--permissions <list>', 'fine-grained permissions, e.g. gists=write,organization_hooks=read', permissionsList)
    .option('--app <id>', 'OAuth app id the token belongs to (oauth kind)', positiveInteger)
    .option('--expires <iso>', 'expiry time (ISO 8601) or a number of days, e.g. 30d')
    .option('--note <text>', 'what the token is for')
    .action(async (login: string, flags: TokenCreateFlags, command: Command) =>
      withClient(command, f, (c) => runTokenCreate({ ...flags, ...c, login }, f.io)),
    );
}
