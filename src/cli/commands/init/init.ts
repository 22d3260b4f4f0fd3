// `hublet init [--data DIR] [--database URL]`: creates a data dir and its database (schema up to date) and the site admin
// with its one-time token, as `serve`'s first start does, without starting a server. Client commands in local mode open
// only a data dir that `init` or `serve` made. On a data dir that already holds a hublet database it changes nothing
// but the schema's version, and says how to make another admin token.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { CliExit, EXIT, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { globals, type Factory } from '../factory.js';

interface InitOptions {
  data?: string;
  database?: string;
  json: boolean;
  /** Where HUBLET_DATA, HUBLET_DATABASE and HUBLET_ADMIN_TOKEN are read. */
  env: NodeJS.ProcessEnv;
}

export async function runInit(opts: InitOptions, io: IO): Promise<void> {
  const [{ openRuntime }, { bootstrapSiteAdmin }, { shownDatabase }] = await Promise.all([
    import('../../runtime.js'),
    import('../../site-admin.js'),
    import('../../../db/urls.js'),
  ]);
  const runtime = await openRuntime({ dataDir: opts.data, databaseUrl: opts.database, logLevel: 'silent' }, opts.env, { create: true });
  try {
    const { token, lines } = await bootstrapSiteAdmin(runtime, new Date());
    const { dataDir, databaseUrl } = runtime.config;
    const database = shownDatabase(databaseUrl);
    if (opts.json) {
      printJson(io.stdout, { data_dir: dataDir, database, created: runtime.created, admin_token: token ?? null });
      return;
    }
    io.stdout.write(
      runtime.created
        ? `created a hublet data dir in ${dataDir} (database ${database})\n`
        : `${dataDir} already holds a hublet database (${database}); its schema is up to date\n`,
    );
    for (const line of lines) io.stdout.write(`${line}\n`);
    if (runtime.created)
      io.stdout.write(`next: hublet serve --data ${dataDir}  (or, without a server: hublet --data ${dataDir} COMMAND)\n`);
  } finally {
    await runtime.close();
  }
}

export function registerInit(program: Command, f: Factory): void {
  withExamples(
    program
      .command('init')
      .description('create a data dir and its database, and the site admin with a one-time token (as serve does on first start)'),
    ['hublet init --data ./data', 'hublet init --data ./data --database postgres://hublet@db/hublet'],
  ).action(async (_flags: unknown, command: Command) => {
    const g = globals(command);
    for (const [given, flag] of [
      [g.server, '--server'],
      [g.token, '--token'],
      [g.as, '--as'],
      [g.baseUrl, '--base-url'],
    ] as const) {
      if (given) throw new CliExit(EXIT.usage, `hublet: init prepares a data dir on this machine; ${flag} has no meaning for it`);
    }
    await runInit({ data: g.data, database: g.database, json: Boolean(g.json), env: f.env }, f.io);
  });
}
