// How `serve` stops on SIGTERM or SIGINT: GET /_health/ready answers 503 at once and no job is claimed any more; requests
// are still accepted for the drain delay (HUBLET_SHUTDOWN_DELAY, 0 by default); then accepting stops, and requests and
// jobs in flight get HUBLET_SHUTDOWN_TIMEOUT seconds to finish. Whatever is left then is cut, and serve returns (exit 0).
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../config.js';

export interface Serving {
  app: FastifyInstance;
  config: Readonly<Pick<Config, 'shutdownDelaySeconds' | 'shutdownTimeoutSeconds'>>;
  /** server/app.ts's closeApp, passed in: the app's modules load only when `serve` runs, not at every CLI start. */
  closeApp(app: FastifyInstance, graceMs: number): Promise<void>;
  /** Closes the database, once the app is closed. */
  closeRuntime(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Stops serving as above; resolves once everything finished or the timeout passed, whichever comes first. */
export async function stopServing(s: Serving, signal: string): Promise<void> {
  const { app } = s;
  const delayMs = s.config.shutdownDelaySeconds * 1000;
  const timeoutMs = s.config.shutdownTimeoutSeconds * 1000;
  app.readiness.stop(signal);
  // Jobs running go on (the close below waits for them); none is claimed from now on.
  const jobsStopped = app.hublet.jobs.stop();
  if (delayMs > 0) {
    app.log.info(
      { signal, delay_s: s.config.shutdownDelaySeconds },
      'stopping: ready answers 503, requests still accepted during the drain delay',
    );
    await sleep(delayMs);
  }
  app.log.info({ signal, timeout_s: s.config.shutdownTimeoutSeconds }, 'stopping: no new requests; finishing in-flight requests and jobs');
  // The cut at the timeout is this function's own (below), so it is logged; closeApp's is only a backstop.
  const closed = (async () => {
    await s.closeApp(app, timeoutMs + 5000);
    await jobsStopped;
    await s.closeRuntime();
    return 'closed' as const;
  })();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    if ((await Promise.race([closed, timedOut])) === 'timeout') {
      app.log.warn(
        { timeout_s: s.config.shutdownTimeoutSeconds },
        'stopping: shutdown timeout reached; exiting with work unfinished (requests in flight cut; running jobs are taken over when their leases end)',
      );
      app.server.closeAllConnections();
      // What is still closing may fail once cut: of no consequence, the process exits.
      closed.catch(() => {});
    }
  } finally {
    clearTimeout(timer);
  }
}
