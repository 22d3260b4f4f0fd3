// A loopback HTTP door into the CLI's in-process app, for what another program fetches by URL (git clones, archive
// downloads): local mode then goes through the same server operations as remote mode. It listens on 127.0.0.1 only
// while its client is open, and only a request carrying its one-time key (as a Bearer token, or as the password of
// Basic auth, the way git sends a token) reaches the app, acting as the client's user; any other request is refused.
import crypto from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { LOCAL_ACTOR_HEADER } from '../http/auth.js';

export interface Gateway {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** The key every request must carry. */
  key: string;
  close(): Promise<void>;
}

function sameKey(given: string, key: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** The key an Authorization header carries: `Bearer KEY` or `Basic base64(ANY:KEY)`. */
function presentedKey(header: string | undefined): string | undefined {
  const m = /^(Bearer|Basic)\s+(\S+)$/i.exec(header ?? '');
  if (!m) return undefined;
  if (m[1].toLowerCase() === 'bearer') return m[2];
  const decoded = Buffer.from(m[2], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

export async function openGateway(app: FastifyInstance, actAs: string): Promise<Gateway> {
  const key = crypto.randomBytes(32).toString('base64url');
  const server = http.createServer((req, res) => {
    const given = presentedKey(req.headers.authorization);
    if (given === undefined || !sameKey(given, key)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('not this hublet command’s request\n');
      return;
    }
    delete req.headers.authorization;
    req.headers[LOCAL_ACTOR_HEADER] = actAs;
    app.routing(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    key,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
