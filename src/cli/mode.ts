// How a client command chooses its mode, and with it the data dir or server, the token and the user: one rule, in one
// place. Each setting is taken from the first of flag > environment > saved credentials (`auth login`) that names it:
//   1. --server (remote) or --data/--database (local) on the command line; both at once is a usage error;
//   2. else HUBLET_SERVER (remote) or HUBLET_DATA/HUBLET_DATABASE (local) in the environment; both at once is a usage error;
//   3. else the server saved by `hublet auth login` (remote);
//   4. else local mode over the default data dir.
// Remote mode's token: --token > HUBLET_TOKEN > the saved token (only when the saved server is the chosen one).
// Local mode's user: --as > HUBLET_USER > admin. A flag of the other mode is refused (--as or --base-url in remote
// mode, --token in local mode) instead of being ignored; the other mode's environment variables are ignored (a shell
// may export HUBLET_TOKEN for curl and HUBLET_DATA for serve).
import { ADMIN_LOGIN } from '../accounts/site-admin.js';
import { readCredentials } from './credentials.js';
import { CliExit, EXIT } from './output.js';

/** Where a setting came from: a flag, an environment variable, the credentials `auth login` saved, or the default. */
type Source = 'flag' | 'env' | 'saved' | 'default';

export interface Sourced {
  value: string;
  from: Source;
  /** The flag or variable that gave it (`--data`, `HUBLET_SERVER`, `saved credentials`, `default`). */
  name: string;
}

/** The program's options this rule reads (GlobalOptions adds --json). */
export interface ModeFlags {
  data?: string;
  database?: string;
  as?: string;
  server?: string;
  token?: string;
  /** Local mode: the public URL for links (else what `serve` recorded in the data dir). */
  baseUrl?: string;
}

export interface LocalChoice {
  mode: 'local';
  /** Unset: the platform's data dir (config.ts). */
  dataDir?: Sourced;
  /** Unset: `<data>/hublet.sqlite`. */
  database?: Sourced;
  user: Sourced;
  /** Links' base URL from --base-url or HUBLET_BASE_URL; unset: what `serve` recorded in the data dir, else the default. */
  baseUrl?: Sourced;
}

export interface RemoteChoice {
  mode: 'remote';
  server: Sourced;
  /** Unset: requests go without a token (anonymous). */
  token?: Sourced;
}

export type ModeChoice = LocalChoice | RemoteChoice;

const given = (v: string | undefined): v is string => v !== undefined && v !== '';
const sameServer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

function first(candidates: [string | undefined, Source, string][]): Sourced | undefined {
  for (const [value, from, name] of candidates) if (given(value)) return { value, from, name };
  return undefined;
}

const usage = (message: string) => new CliExit(EXIT.usage, `hublet: ${message}`);

/** What chose the mode, for messages: `--data`, `HUBLET_SERVER`, `saved credentials`, or why local mode is the default. */
export function describeChoice(choice: ModeChoice): string {
  if (choice.mode === 'remote') return `remote mode (server ${choice.server.value} from ${choice.server.name})`;
  const where = choice.dataDir ?? choice.database;
  return where
    ? `local mode (${where === choice.dataDir ? 'data dir' : 'database'} from ${where.name})`
    : 'local mode (no --server, HUBLET_SERVER or saved credentials)';
}

/** The mode a client command runs in, and with what; a usage error (exit 2) for options that contradict each other. */
export function chooseMode(flags: ModeFlags, env: NodeJS.ProcessEnv): ModeChoice {
  const localFlag = given(flags.data) ? '--data' : given(flags.database) ? '--database' : undefined;
  if (given(flags.server) && localFlag)
    throw usage(`--server (remote mode) and ${localFlag} (local mode) cannot be used together; choose one`);
  const localEnv = given(env.HUBLET_DATA) ? 'HUBLET_DATA' : given(env.HUBLET_DATABASE) ? 'HUBLET_DATABASE' : undefined;
  const saved = readCredentials(env);
  let server: Sourced | undefined;
  if (given(flags.server)) server = { value: flags.server, from: 'flag', name: '--server' };
  else if (!localFlag && given(env.HUBLET_SERVER)) {
    if (localEnv)
      throw usage(
        `HUBLET_SERVER (remote mode) and ${localEnv} (local mode) are both set; choose with --server URL or --data DIR, or unset one`,
      );
    server = { value: env.HUBLET_SERVER, from: 'env', name: 'HUBLET_SERVER' };
  } else if (!localFlag && !localEnv && saved) server = { value: saved.server, from: 'saved', name: 'saved credentials' };
  let choice: ModeChoice;
  if (server) {
    const savedToken = saved && sameServer(saved.server, server.value) ? saved.token : undefined;
    choice = {
      mode: 'remote',
      server,
      token: first([
        [flags.token, 'flag', '--token'],
        [env.HUBLET_TOKEN, 'env', 'HUBLET_TOKEN'],
        [savedToken, 'saved', 'saved credentials'],
      ]),
    };
  } else {
    choice = {
      mode: 'local',
      dataDir: first([
        [flags.data, 'flag', '--data'],
        [env.HUBLET_DATA, 'env', 'HUBLET_DATA'],
      ]),
      database: first([
        [flags.database, 'flag', '--database'],
        [env.HUBLET_DATABASE, 'env', 'HUBLET_DATABASE'],
      ]),
      user: first([
        [flags.as, 'flag', '--as'],
        [env.HUBLET_USER, 'env', 'HUBLET_USER'],
      ]) ?? { value: ADMIN_LOGIN, from: 'default', name: 'default' },
      baseUrl: first([
        [flags.baseUrl, 'flag', '--base-url'],
        [env.HUBLET_BASE_URL, 'env', 'HUBLET_BASE_URL'],
      ]),
    };
  }
  refuseOtherModesFlags(choice, flags);
  return choice;
}

/** A flag that only the other mode understands would be silently ignored: refused instead, saying what chose the mode. */
function refuseOtherModesFlags(choice: ModeChoice, flags: ModeFlags): void {
  if (choice.mode === 'remote') {
    if (given(flags.as))
      throw usage(
        `--as works only in local mode; this command would run in ${describeChoice(choice)}, as the token's user. Add --data DIR to act locally as ${flags.as}, or use a token of ${flags.as}`,
      );
    if (given(flags.baseUrl))
      throw usage(
        `--base-url works only in local mode and serve; this command would run in ${describeChoice(choice)}, whose links are the server's own`,
      );
  } else if (given(flags.token)) {
    throw usage(
      `--token works only in remote mode; this command would run in ${describeChoice(choice)}. Add --server URL, or drop --token`,
    );
  }
}
