// The `hublet` program: its commands (commander) and how a run ends (exit codes 0, 1, 2, 4), for a given I/O and
// environment. main.ts runs it for the process; tests run it in-process with a fake I/O.
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { VERSION } from '../version.js';
import { registerAdmin } from './commands/admin/index.js';
import { registerApi } from './commands/api/api.js';
import { registerAuth } from './commands/auth/index.js';
import type { Factory } from './commands/factory.js';
import { registerGist } from './commands/gist/index.js';
import { registerHook } from './commands/hook/index.js';
import { registerInit } from './commands/init/init.js';
import { registerMigration } from './commands/migration/index.js';
import { registerRepo } from './commands/repo/index.js';
import { registerServe } from './commands/serve/serve.js';
import { addHelp } from './help.js';
import type { IO } from './io.js';
import { CliExit, EXIT } from './output.js';

function buildProgram(f: Factory): Command {
  const { io } = f;
  const program = new Command('hublet')
    .description('self-hosted GitHub-compatible gists, organization webhooks and migrations: server and client in one')
    .version(VERSION, '-V, --version')
    .option('--data <dir>', 'data directory (HUBLET_DATA)')
    .option('--database <url>', 'database URL: a SQLite file or postgres://… (HUBLET_DATABASE)')
    .option('--as <login>', 'local mode: act as this user (HUBLET_USER; default admin)')
    .option('--server <url>', 'remote mode: the server URL (HUBLET_SERVER)')
    .option('--token <token>', 'remote mode: access token (HUBLET_TOKEN)')
    .option('--base-url <url>', 'local mode and serve: the public URL for links (HUBLET_BASE_URL; local mode: else what serve recorded)')
    .option('--json', 'print JSON for scripts')
    // Help, version and usage errors go to this run's streams (commands made below inherit it).
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // As commander does for the process: the terminal's width, or its default (80) when not a terminal.
      getOutHelpWidth: () => (io.isTTY ? io.columns : undefined) as number,
      getErrHelpWidth: () => (io.stderrIsTTY ? io.columns : undefined) as number,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .exitOverride()
    .showHelpAfterError();
  registerServe(program, f);
  registerInit(program, f);
  registerApi(program, f);
  registerGist(program, f);
  registerAdmin(program, f);
  registerRepo(program, f);
  registerHook(program, f);
  registerMigration(program, f);
  registerAuth(program, f);
  addHelp(program, f);
  program.commands.forEach(function override(c: Command) {
    c.exitOverride();
    c.commands.forEach(override);
  });
  return program;
}

/** Runs the program on `argv` (as process.argv: node, script, arguments…) and returns its exit code. */
export async function run(argv: string[], io: IO, env: NodeJS.ProcessEnv): Promise<number> {
  try {
    await buildProgram({ io, env }).parseAsync(argv);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit through here with code 0.
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (err instanceof CliExit) {
      io.stderr.write(err.message.endsWith('\n') ? err.message : `${err.message}\n`);
      return err.code;
    }
    // migrate.js is loaded only by commands that open a database (it pulls in Kysely); it is in the module cache then.
    const { NewerDatabaseError } = await import('../db/migrate.js');
    if (err instanceof ConfigError || err instanceof NewerDatabaseError) {
      io.stderr.write(`hublet: ${err.message}\n`);
      return EXIT.usage;
    }
    io.stderr.write(`hublet: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT.error;
  }
}
