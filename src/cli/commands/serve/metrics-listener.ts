// `serve --metrics-listen HOST:PORT`: starts the Prometheus listener beside the API's, on an address of its own. A port
// in use, or one it may not take, is one line without a stack, as for the API's port.
import type { FastifyInstance } from 'fastify';
import { hostAndPort, type Config } from '../../../config.js';
import type { MetricsListener } from '../../../metrics/listener.js';
import { CliExit, EXIT } from '../../output.js';

/** The metrics listener the config asks for, listening; undefined when metrics are off. */
export async function startMetricsListener(
  app: FastifyInstance,
  config: Readonly<Pick<Config, 'metricsListen'>>,
): Promise<MetricsListener | undefined> {
  const address = config.metricsListen === undefined ? undefined : hostAndPort(config.metricsListen);
  if (!address) return undefined;
  const { listenForMetrics } = await import('../../../metrics/listener.js');
  try {
    return await listenForMetrics(app.hublet.metrics, address.host, address.port, app.log);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException)?.code;
    const where = `port ${address.port} on ${address.host}`;
    if (code === 'EADDRINUSE') throw new CliExit(EXIT.error, `hublet: metrics ${where} is in use (choose another with --metrics-listen)`);
    if (code === 'EACCES') throw new CliExit(EXIT.error, `hublet: not allowed to listen for metrics on ${where} (--metrics-listen)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new CliExit(EXIT.error, `hublet: cannot listen for metrics on ${where}: not an address of this machine (--metrics-listen)`);
    throw err;
  }
}
