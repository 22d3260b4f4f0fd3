// `hublet serve`: opens the data dir, prints the admin's one-time token on first start, listens (HTTPS with --tls-cert and
// --tls-key), stops cleanly on SIGINT or SIGTERM.
import type { Command } from 'commander';
import { bootstrapAdminToken } from '../../../accounts/service.js';
import { loadConfig, withListeningPort, type ConfigInput } from '../../../config.js';
import { makeUrls } from '../../../server/http/urls.js';
import type { IO } from '../../io.js';
import { globals, type Factory } from '../factory.js';
import { readTlsFiles } from './tls.js';

/** The command line's flags. */
interface ServeFlags {
  host?: string;
  port?: string;
  baseUrl?: string;
  logLevel?: string;
  hookAllowedHosts?: string;
  tlsCert?: string;
  tlsKey?: string;
}

interface ServeOptions {
  config: ConfigInput;
  /** Where HUBLET_* settings are read. */
  env: NodeJS.ProcessEnv;
}

/** Serves until the process is asked to stop; resolves once the server has stopped (requests in flight finished). */
async function runServe(opts: ServeOptions, io: IO): Promise<void> {
  const { config: flags, env } = opts;
  // Loaded here, not at program start, so that other commands start quickly.
  const [{ openRuntime }, { buildApp, closeApp }] = await Promise.all([import('../../runtime.js'), import('../../../server/app.js')]);
  // The certificate and key are checked before the data dir is opened: a bad file stops the start touching nothing.
  const https = readTlsFiles(loadConfig(flags, env));
  const runtime = await openRuntime(flags, env);
  const token = await bootstrapAdminToken(runtime.db, new Date(), runtime.config.adminToken);
  const app = await buildApp({ config: runtime.config, db: runtime.db, https });
  await app.listen({ host: runtime.config.host, port: runtime.config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : runtime.config.port;
  const config = withListeningPort(runtime.config, port, flags, env);
  app.hublet.config = config;
  app.hublet.urls = makeUrls(config.baseUrl);
  app.hublet.jobs.start();
  const host = runtime.config.host.includes(':') ? `[${runtime.config.host}]` : runtime.config.host;
  io.stdout.write(`hublet listening on ${https ? 'https' : 'http'}://${host}:${port}\n`);
  if (token) {
    io.stdout.write(`created site admin "admin"; its token (shown once): ${token}\n`);
  }
  const signal = await io.stopSignal();
  app.log.info({ signal }, 'stopping: finishing in-flight requests');
  // Fastify's close stops accepting, waits for in-flight requests, then runs onClose hooks (workers stop there).
  await closeApp(app);
  await runtime.close();
}

export function registerServe(program: Command, f: Factory): void {
  program
    .command('serve')
    .description('start the API server')
    .option('--host <host>', 'interface to listen on (HUBLET_HOST)', undefined)
    .option('--port <port>', 'port, 0 picks a free one (HUBLET_PORT)')
    .option('--base-url <url>', 'public URL used in every link (HUBLET_BASE_URL)')
    .option('--log-level <level>', 'fatal|error|warn|info|debug|trace|silent (HUBLET_LOG_LEVEL)')
    .option('--hook-allowed-hosts <list>', 'webhook destinations: external, private, loopback, CIDRs, host names (HUBLET_HOOK_ALLOWED_HOSTS)')
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM, chain after it); needs --tls-key (HUBLET_TLS_CERT)')
    .option('--tls-key <file>', "the certificate's private key (PEM, unencrypted); needs --tls-cert (HUBLET_TLS_KEY)")
    .action(async (flags: ServeFlags, command: Command) => {
      const g = globals(command);
      const config: ConfigInput = { host: flags.host, port: flags.port, dataDir: g.data, databaseUrl: g.database, baseUrl: flags.baseUrl, logLevel: flags.logLevel, hookAllowedHosts: flags.hookAllowedHosts, tlsCert: flags.tlsCert, tlsKey: flags.tlsKey };
      await runServe({ config, env: f.env }, f.io);
    });
}
