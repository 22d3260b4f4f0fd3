// The `hublet` program: one executable that is the server (`serve`) and its command-line client.
import './threadpool.js';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { VERSION } from '../version.js';
import { registerAdmin } from './commands/admin.js';
import { registerApi } from './commands/api.js';
import { registerGist } from './commands/gist/index.js';
import { registerRepo } from './commands/repo.js';
import { registerHook } from './commands/hook.js';
import { registerMigration } from './commands/migration.js';
import { registerAuthCommands } from './commands/auth.js';
import { registerServe } from './commands/serve.js';
import { CliExit, EXIT, keepAlive } from './output.js';

export function buildProgram(): Command {
  const program = new Command('hublet')
    .description('self-hosted GitHub-compatible gists, organization webhooks and migrations: server and client in one')
    .version(VERSION, '-V, --version')
    .option('--data <dir>', 'data directory (HUBLET_DATA)')
    .option('--database <url>', 'database URL: a SQLite file or postgres://… (HUBLET_DATABASE)')
    .option('--as <login>', 'local mode: act as this user (HUBLET_USER; default admin)')
    .option('--server <url>', 'remote mode: the server URL (HUBLET_SERVER)')
    .option('--token <token>', 'remote mode: access token (HUBLET_TOKEN)')
    .option('--json', 'print JSON for scripts')
    .exitOverride()
    .showHelpAfterError();
  registerServe(program);
  registerApi(program);
  registerGist(program);
  registerAdmin(program);
  registerRepo(program);
  registerHook(program);
  registerMigration(program);
  registerAuthCommands(program);
  program.commands.forEach(function override(c: Command) {
    c.exitOverride();
    c.commands.forEach(override);
  });
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit through here with code 0.
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (err instanceof CliExit) {
      process.stderr.write(err.message.endsWith('\n') ? err.message : `${err.message}\n`);
      return err.code;
    }
    // migrate.js is loaded only by commands that open a database (it pulls in Kysely); it is in the module cache then.
    const { NewerDatabaseError } = await import('../db/migrate.js');
    if (err instanceof ConfigError || err instanceof NewerDatabaseError) {
      process.stderr.write(`hublet: ${err.message}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`hublet: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    return EXIT.error;
  }
}

/** Resolves once everything written to stdout and stderr has been handed to the OS (pipes are asynchronous). */
function flushed(): Promise<void> {
  const drain = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()));
  return Promise.all([drain(process.stdout), drain(process.stderr)]).then(() => undefined);
}

// A reader that goes away (`hublet api … | head`) is not an error of ours.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(EXIT.ok);
  throw err;
});

main(process.argv).then(async (code) => {
  // `serve` keeps running until a signal; every other command exits with its code once its output is out.
  if (keepAlive.server && code === EXIT.ok) return;
  await flushed();
  process.exit(code);
});
