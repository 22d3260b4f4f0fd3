// `hublet auth status`: the mode, the server or data dir, and the user the next command would use, each with where it
// came from (flag, environment, saved credentials, default; mode.ts's rule), checked by asking GET /user as that command
// would. Exit 0 when that user is known; 4 when it is not (no token, a rejected token, an unknown --as user, no
// database to act in); 2 for options that contradict each other, as every command.
import type { Command } from 'commander';
import { openClient, type ApiResponse, type Client } from '../../client.js';
import type { IO } from '../../io.js';
import { chooseMode, type LocalChoice, type ModeFlags, type RemoteChoice, type Sourced } from '../../mode.js';
import { CliExit, EXIT, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { globals, type Factory } from '../factory.js';

interface StatusOptions {
  /** The program's options: what chooses the mode (mode.ts). */
  flags: ModeFlags;
  json: boolean;
  /** Where HUBLET_* and the credentials file (HUBLET_CONFIG_DIR, XDG_CONFIG_HOME) are found. */
  env: NodeJS.ProcessEnv;
  /** Opens the client the next command would use (openClient with the same options and environment). */
  open: () => Promise<Client>;
}

const from = (s: Sourced | undefined) => (s === undefined || s.from === 'default' ? 'default' : `from ${s.name}`);
const scopesOf = (header: string | undefined) => (header === undefined ? null : header.split(', ').filter(Boolean));

/** GET /user as the next command would ask it. */
async function getUser(opts: StatusOptions): Promise<ApiResponse> {
  const client = await opts.open();
  try {
    return await client.request('GET', '/user');
  } finally {
    await client.close();
  }
}

async function remoteStatus(choice: RemoteChoice, opts: StatusOptions, io: IO): Promise<void> {
  const { server, token } = choice;
  const res = await getUser(opts);
  const valid = res.status === 200 && token !== undefined;
  const login = valid ? (res.body as { login: string }).login : null;
  const scopes = res.headers['x-oauth-scopes'];
  const sources = { server: server.from, token: token?.from ?? null };
  if (opts.json) printJson(io.stdout, { mode: 'remote', server: server.value, login, valid, scopes: scopesOf(scopes), sources });
  else {
    io.stdout.write(`remote mode: server ${server.value} (${from(server)})\n`);
    if (!token) io.stdout.write('user: none, anonymous (no token: --token, HUBLET_TOKEN or hublet auth login)\n');
    else if (!valid) io.stdout.write(`user: none, token rejected (HTTP ${res.status}) (token ${from(token)})\n`);
    else io.stdout.write(`user: ${login} (token ${from(token)})${scopes ? `; scopes: ${scopes}` : ''}\n`);
  }
  if (!token) throw new CliExit(EXIT.auth, 'hublet: no token for this server; sign in with hublet auth login --server URL');
  if (!valid)
    throw new CliExit(
      EXIT.auth,
      `hublet: the token ${from(token)} no longer works; sign in again with hublet auth login --server ${server.value}`,
    );
}

async function localStatus(choice: LocalChoice, opts: StatusOptions, io: IO): Promise<void> {
  const { localConfig, NoDatabaseError } = await import('../../runtime.js');
  const { shownDatabase } = await import('../../../db/urls.js');
  const { config, recordedAt } = localConfig(
    { dataDir: choice.dataDir?.value, databaseUrl: choice.database?.value, baseUrl: choice.baseUrl?.value },
    opts.env,
  );
  const links = { value: config.baseUrl, from: choice.baseUrl?.from ?? (recordedAt ? 'recorded' : 'default') };
  const linksText = choice.baseUrl
    ? from(choice.baseUrl)
    : recordedAt
      ? `recorded by hublet serve at ${recordedAt}`
      : 'default; no hublet serve has recorded its URL in this data dir';
  const modeLine = `local mode: data dir ${config.dataDir} (${from(choice.dataDir)}), database ${shownDatabase(config.databaseUrl)} (${from(choice.database)})\n`;
  let login: string | null = null;
  let problem: CliExit | undefined;
  try {
    const res = await getUser(opts);
    if (res.status === 200) login = (res.body as { login: string }).login;
    else
      problem = new CliExit(
        EXIT.auth,
        `hublet: there is no user ${choice.user.value} (${from(choice.user)}) in this data dir; create it with hublet admin user create ${choice.user.value}`,
      );
  } catch (err) {
    if (!(err instanceof NoDatabaseError)) throw err;
    const nothingNamed = choice.dataDir === undefined && choice.database === undefined;
    problem = new CliExit(
      EXIT.auth,
      nothingNamed ? err.message.replace(/^hublet: /, 'hublet: not signed in to any server, and ') : err.message,
    );
  }
  const sources = {
    data_dir: choice.dataDir?.from ?? 'default',
    database: choice.database?.from ?? 'default',
    user: choice.user.from,
    base_url: links.from,
  };
  if (opts.json)
    printJson(io.stdout, {
      mode: 'local',
      data_dir: config.dataDir,
      database: shownDatabase(config.databaseUrl),
      login,
      valid: login !== null,
      scopes: null,
      base_url: links.value,
      sources,
    });
  else {
    io.stdout.write(modeLine);
    io.stdout.write(
      login ? `user: ${login} (${from(choice.user)})\n` : `user: none (${choice.user.value} ${from(choice.user)} cannot act here)\n`,
    );
    io.stdout.write(`links: ${links.value} (${linksText})\n`);
  }
  if (problem) throw problem;
}

export async function runStatus(opts: StatusOptions, io: IO): Promise<void> {
  const choice = chooseMode(opts.flags, opts.env);
  if (choice.mode === 'remote') await remoteStatus(choice, opts, io);
  else await localStatus(choice, opts, io);
}

export function registerStatus(auth: Command, f: Factory): void {
  withExamples(
    auth
      .command('status')
      .description(
        'show the mode, server or data dir, and user the next command would use, and where each came from (exit 4 when that user is unknown)',
      ),
    [
      'hublet auth status',
      '# what a command with these options would use',
      'hublet --data ./data --as alice auth status',
      'hublet --json auth status',
    ],
  ).action(async (_flags: unknown, command: Command) => {
    const g = globals(command);
    await runStatus({ flags: g, json: Boolean(g.json), env: f.env, open: () => openClient(g, f.env) }, f.io);
  });
}
