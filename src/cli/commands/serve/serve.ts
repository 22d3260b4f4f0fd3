// `hublet serve`: opens (or creates) the data dir, listens (HTTPS with --tls-cert and --tls-key), then makes the site
// admin and prints its one-time token on first start, records its public URL in the data dir for local mode, and stops
// cleanly on SIGINT or SIGTERM (shutdown.ts). Start problems are one line without a stack: a port in use, a data dir
// that cannot be written (runtime.ts), a database that cannot be opened; nothing is made for the admin before the port
// is bound, so a failed start does not use up the one-time token. With an OTLP endpoint set (OTEL_EXPORTER_OTLP_ENDPOINT),
// traces are started first, before the server's modules load, and their last spans sent when it stops.
import type { Command } from 'commander';
import { loadConfig, withListeningPort, type Config, type ConfigInput } from '../../../config.js';
import { makeUrls } from '../../../core/urls.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT } from '../../output.js';
import { withExamples } from '../examples.js';
import { globals, type Factory } from '../factory.js';
import { stopServing } from './shutdown.js';
import { startMetricsListener } from './metrics-listener.js';
import { readTlsFiles } from './tls.js';
import { tracesWanted } from '../../../tracing/spans.js';

/** The command line's flags. */
interface ServeFlags {
  host?: string;
  port?: string;
  logLevel?: string;
  hookAllowedHosts?: string;
  hookGithubHeaders?: boolean;
  trustProxy?: string;
  tlsCert?: string;
  tlsKey?: string;
  signup?: string;
  passwordSignin?: boolean;
  oidcIssuer?: string;
  oidcClientId?: string;
  oidcName?: string;
  oidcAutoCreate?: boolean;
  metricsListen?: string;
}

interface ServeOptions {
  config: ConfigInput;
  /** Where HUBLET_* settings are read. */
  env: NodeJS.ProcessEnv;
}

/** Why the server cannot listen, in one line (the port in use, a port it may not take, an address not on this machine). */
function listenProblem(err: unknown, config: Readonly<Config>): CliExit | undefined {
  const code = (err as NodeJS.ErrnoException)?.code;
  const where = `port ${config.port} on ${config.host}`;
  if (code === 'EADDRINUSE')
    return new CliExit(EXIT.error, `hublet: ${where} is in use (another server? choose another with --port, or 0 for a free one)`);
  if (code === 'EACCES')
    return new CliExit(
      EXIT.error,
      `hublet: not allowed to listen on ${where} (ports below 1024 need privileges; choose another with --port)`,
    );
  if (code === 'EADDRNOTAVAIL')
    return new CliExit(EXIT.error, `hublet: cannot listen on ${where}: ${config.host} is not an address of this machine (--host)`);
  return undefined;
}

/** Starts traces (src/tracing/sdk.ts, loaded only now); a malformed OTEL_* setting stops the start in one line. */
async function startTraces(env: NodeJS.ProcessEnv) {
  const { startTracing } = await import('../../../tracing/sdk.js');
  try {
    return startTracing(env);
  } catch (err) {
    throw new CliExit(EXIT.usage, `hublet: ${(err as Error).message}`);
  }
}

/** Serves until the process is asked to stop; resolves once the server has stopped (requests in flight finished). */
export async function runServe(opts: ServeOptions, io: IO): Promise<void> {
  const { config: flags, env } = opts;
  // Traces only with an OTLP endpoint (otherwise nothing of OpenTelemetry loads), first: the SDK is in place before the
  // modules it instruments (http, pg) serve anything.
  const traces = tracesWanted(env) ? await startTraces(env) : undefined;
  // Loaded here, not at program start, so that other commands start quickly.
  const [{ openRuntime }, { buildApp, closeApp }, { bootstrapSiteAdmin }, { writeServerRecord }] = await Promise.all([
    import('../../runtime.js'),
    import('../../../server/app.js'),
    import('../../site-admin.js'),
    import('../../server-record.js'),
  ]);
  // The certificate and key are checked before the data dir is opened: a bad file stops the start touching nothing.
  const https = readTlsFiles(loadConfig(flags, env));
  const runtime = await openRuntime(flags, env, { create: true });
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let metrics: Awaited<ReturnType<typeof startMetricsListener>>;
  let adminLines: string[];
  let config: Readonly<Config>;
  let port: number;
  try {
    app = await buildApp({ config: runtime.config, db: runtime.db, https });
    try {
      await app.listen({ host: runtime.config.host, port: runtime.config.port });
    } catch (err) {
      throw listenProblem(err, runtime.config) ?? err;
    }
    metrics = await startMetricsListener(app, runtime.config);
    const address = app.server.address();
    port = typeof address === 'object' && address ? address.port : runtime.config.port;
    config = withListeningPort(runtime.config, port, flags, env);
    app.hublet.config = config;
    app.hublet.urls = makeUrls(config.baseUrl);
    // Only now, with the port bound, is the site admin made (and its one-time token issued).
    adminLines = (await bootstrapSiteAdmin(runtime, new Date())).lines;
  } catch (err) {
    await metrics?.close();
    if (app) await closeApp(app);
    await runtime.close();
    await traces?.shutdown();
    throw err;
  }
  app.hublet.jobs.start();
  try {
    writeServerRecord(config.dataDir, config.baseUrl, port, new Date());
  } catch (err) {
    io.stderr.write(
      `hublet: warning: cannot record this server's URL in ${config.dataDir} (local-mode links will not use it): ${(err as Error).message}\n`,
    );
  }
  const host = runtime.config.host.includes(':') ? `[${runtime.config.host}]` : runtime.config.host;
  if (metrics) io.stdout.write(`hublet metrics listening on ${metrics.url}\n`);
  io.stdout.write(`hublet listening on ${https ? 'https' : 'http'}://${host}:${port}\n`);
  for (const line of adminLines) io.stdout.write(`${line}\n`);
  const signal = await io.stopSignal();
  // Ready fails at once; Fastify's close then stops accepting, waits for in-flight requests, then runs the onClose hooks
  // (the job worker waits for its running jobs there), all within the shutdown timeout.
  await stopServing({ app, config, closeApp, closeRuntime: () => runtime.close() }, signal);
  await metrics?.close();
  // The spans of the last requests and jobs are sent before the process exits.
  await traces?.shutdown();
}

export function registerServe(program: Command, f: Factory): void {
  withExamples(
    program
      .command('serve')
      .description(
        'start the API server over a data dir (created on first start, when the site admin "admin" and its one-time token are made and printed); ' +
          'it records its public URL in the data dir for local-mode links',
      ),
    [
      '# SQLite in ./data, on http://127.0.0.1:3000',
      'hublet serve --data ./data',
      '# every interface, a public URL for links, PostgreSQL',
      'hublet serve --host 0.0.0.0 --port 8080 --base-url https://hublet.example.com --database postgres://hublet@db/hublet',
      '# HTTPS; webhooks may go to public and private addresses only (not loopback)',
      'hublet serve --tls-cert cert.pem --tls-key key.pem --hook-allowed-hosts external,private',
    ],
  )
    .option('--host <host>', 'interface to listen on (HUBLET_HOST)', undefined)
    .option('--port <port>', 'port, 0 picks a free one (HUBLET_PORT)')
    .option('--log-level <level>', 'fatal|error|warn|info|debug|trace|silent (HUBLET_LOG_LEVEL)')
    .option(
      '--metrics-listen <host:port>',
      'serve Prometheus metrics at /metrics on this address, apart from the API (HUBLET_METRICS_LISTEN)',
    )
    .option(
      '--hook-allowed-hosts <list>',
      'webhook destinations: external, private, loopback, CIDRs, host names (HUBLET_HOOK_ALLOWED_HOSTS)',
    )
    .option(
      '--hook-github-headers',
      "deliveries carry GitHub's header names too (X-GitHub-Event, X-GitHub-Delivery, …) for stock receivers (HUBLET_HOOK_GITHUB_HEADERS=1)",
    )
    .option(
      '--trust-proxy <list>',
      'reverse proxies (addresses, CIDRs) whose X-Forwarded-For names the client, e.g. 127.0.0.1 (HUBLET_TRUST_PROXY)',
    )
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM, chain after it); needs --tls-key (HUBLET_TLS_CERT)')
    .option('--tls-key <file>', "the certificate's private key (PEM, unencrypted); needs --tls-cert (HUBLET_TLS_KEY)")
    .option('--signup <mode>', 'off (default), open (anyone at /signup) or invite (invitation links) (HUBLET_SIGNUP)')
    .option('--no-password-signin', 'no password sign-in on the web: single sign-on only (HUBLET_PASSWORD_SIGNIN=0)')
    .option('--oidc-issuer <url>', "OpenID Connect single sign-on: the provider's issuer URL (HUBLET_OIDC_ISSUER)")
    .option('--oidc-client-id <id>', "hublet's client id at the provider (HUBLET_OIDC_CLIENT_ID; the secret: HUBLET_OIDC_CLIENT_SECRET)")
    .option('--oidc-name <name>', 'the provider\'s name on the "Sign in with …" button (HUBLET_OIDC_NAME)')
    .option('--oidc-auto-create', 'create an account at the first single sign-on of someone unknown (HUBLET_OIDC_AUTO_CREATE=1)')
    .action(async (flags: ServeFlags, command: Command) => {
      // --base-url is the program's own option (local mode takes it too): the public URL in every link, recorded in the data dir.
      const g = globals(command);
      for (const [given, flag] of [
        [g.server, '--server'],
        [g.token, '--token'],
        [g.as, '--as'],
      ] as const) {
        if (given)
          throw new CliExit(EXIT.usage, `hublet: serve runs a server over a data dir on this machine; ${flag} has no meaning for it`);
      }
      const config: ConfigInput = {
        host: flags.host,
        port: flags.port,
        dataDir: g.data,
        databaseUrl: g.database,
        baseUrl: g.baseUrl,
        logLevel: flags.logLevel,
        metricsListen: flags.metricsListen,
        hookAllowedHosts: flags.hookAllowedHosts,
        hookGithubHeaders: flags.hookGithubHeaders ? '1' : undefined,
        trustProxy: flags.trustProxy,
        tlsCert: flags.tlsCert,
        tlsKey: flags.tlsKey,
        signup: flags.signup,
        passwordSignIn: flags.passwordSignin === false ? '0' : undefined,
        oidcIssuer: flags.oidcIssuer,
        oidcClientId: flags.oidcClientId,
        oidcName: flags.oidcName,
        oidcAutoCreate: flags.oidcAutoCreate ? '1' : undefined,
      };
      await runServe({ config, env: f.env }, f.io);
    });
}
