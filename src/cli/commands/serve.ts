// `hublet serve`: opens the data dir, prints the admin's one-time token on first start, listens, stops cleanly on signals.
import type { Command } from 'commander';
import { bootstrapAdminToken } from '../../accounts/service.js';
import { withListeningPort, type ConfigInput } from '../../config.js';
import { makeUrls } from '../../server/http/urls.js';
import { keepAlive } from '../output.js';

interface ServeOptions {
  host?: string;
  port?: string;
  data?: string;
  database?: string;
  baseUrl?: string;
  logLevel?: string;
  hookAllowedHosts?: string;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('start the API server')
    .option('--host <host>', 'interface to listen on (HUBLET_HOST)', undefined)
    .option('--port <port>', 'port, 0 picks a free one (HUBLET_PORT)')
    .option('--base-url <url>', 'public URL used in every link (HUBLET_BASE_URL)')
    .option('--log-level <level>', 'fatal|error|warn|info|debug|trace|silent (HUBLET_LOG_LEVEL)')
    .option('--hook-allowed-hosts <list>', 'webhook destinations: external, private, loopback, CIDRs, host names (HUBLET_HOOK_ALLOWED_HOSTS)')
    .action(async (opts: ServeOptions, command: Command) => {
      const globals = command.optsWithGlobals<ServeOptions>();
      await serve({ host: opts.host, port: opts.port, dataDir: globals.data, databaseUrl: globals.database, baseUrl: opts.baseUrl, logLevel: opts.logLevel, hookAllowedHosts: opts.hookAllowedHosts });
    });
}

export async function serve(flags: ConfigInput, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  // Loaded here, not at program start, so that other commands start quickly.
  const [{ openRuntime }, { buildApp, closeApp }] = await Promise.all([import('../runtime.js'), import('../../server/app.js')]);
  const runtime = await openRuntime(flags, env);
  const token = await bootstrapAdminToken(runtime.db, new Date(), runtime.config.adminToken);
  const app = await buildApp({ config: runtime.config, db: runtime.db });
  await app.listen({ host: runtime.config.host, port: runtime.config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : runtime.config.port;
  const config = withListeningPort(runtime.config, port, flags, env);
  app.hublet.config = config;
  app.hublet.urls = makeUrls(config.baseUrl);
  app.hublet.jobs.start();
  const host = runtime.config.host.includes(':') ? `[${runtime.config.host}]` : runtime.config.host;
  process.stdout.write(`hublet listening on http://${host}:${port}\n`);
  if (token) {
    process.stdout.write(`created site admin "admin"; its token (shown once): ${token}\n`);
  }
  keepAlive.server = true;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing in-flight requests');
    // Fastify's close stops accepting, waits for in-flight requests, then runs onClose hooks (workers stop there).
    await closeApp(app);
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
