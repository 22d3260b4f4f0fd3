// Whose word hublet takes on who the client is (`--trust-proxy`): the reverse proxies whose X-Forwarded-For is believed,
// and the one rule by which the router (request.ip), the fast path, the rate limit and the access log name a client.
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** Which peer may vouch for the next address in X-Forwarded-For (`hop` 0 is the socket's peer); proxy-addr's shape. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** The named ranges proxy-addr knows, beside addresses and CIDRs. */
const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** The setting's entries: comma-separated, blanks dropped. */
function entries(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * Why `raw` is no list of trusted proxies (undefined: it is one, or it is empty, which trusts none). A hop count is
 * refused: it trusts whoever connects, so a client reaching hublet directly could name any address (Fastify 5 refuses to
 * believe one for the same reason).
 */
export function trustedProxiesProblem(raw: string): string | undefined {
  const list = entries(raw);
  if (list.length === 1 && /^\d+$/.test(list[0])) {
    return `a hop count trusts whoever connects; name the proxies' addresses or CIDRs instead (e.g. 127.0.0.1,10.0.0.0/8), got ${JSON.stringify(raw)}`;
  }
  for (const entry of list) {
    if (NAMED.has(entry)) continue;
    try {
      proxyAddr.compile(entry);
    } catch {
      return `expected addresses or CIDRs of trusted proxies (or loopback, linklocal, uniquelocal), comma-separated, e.g. 127.0.0.1,10.0.0.0/8; ${JSON.stringify(entry)} is none`;
    }
  }
  return undefined;
}

/** The trust rule of a valid setting (checked by trustedProxiesProblem); undefined when it names no proxy: trust none. */
export function proxyTrust(raw: string): ProxyTrust | undefined {
  const list = entries(raw);
  return list.length ? proxyAddr.compile(list) : undefined;
}

/**
 * The client's address: the socket's peer, or, when that peer is a trusted proxy, the nearest address in X-Forwarded-For
 * that no trusted proxy added (Fastify's request.ip under the same rule: proxy-addr's, the last untrusted hop).
 */
export function clientAddressOf(trust: ProxyTrust | undefined): (req: IncomingMessage) => string {
  if (!trust) return (req) => req.socket.remoteAddress as string;
  return (req) => proxyAddr(req, trust);
}
