// undici's connector behind the allowed-hosts policy, shared by every outbound fetch (webhook deliveries, the image
// proxy): names are resolved, every address is checked, and the socket connects to a checked address (no DNS rebinding).
import dns from 'node:dns';
import net from 'node:net';
import { buildConnector } from 'undici';
import { refusedAddress, refusedHostName, type AllowedHosts } from './allowed-hosts.js';

const REFUSED = 'HUBLET_DESTINATION_REFUSED';

/** A destination the policy refuses (the message says why); thrown at connect time, so it reaches the caller as the cause. */
class DestinationRefused extends Error {
  readonly code = REFUSED;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** dns.lookup, keeping only the addresses the policy allows: the socket connects to an address that was checked. */
function checkedLookup(policy: AllowedHosts) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    const byName = refusedHostName(hostname);
    if (byName) return callback(new DestinationRefused(byName), '');
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const reasons: string[] = [];
      const allowed = addresses.filter((a) => {
        const reason = refusedAddress(policy, hostname, a.address);
        if (reason) reasons.push(reason);
        return !reason;
      });
      if (allowed.length === 0) return callback(new DestinationRefused(reasons[0] ?? `${hostname} has no address`), '');
      if (options.all) return callback(null, allowed);
      callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

/** undici's connector behind the policy: literal addresses are checked here, names in the lookup above. */
export function guardedConnector(policy: AllowedHosts, rejectUnauthorized: boolean, timeoutMs: number): buildConnector.connector {
  const base = buildConnector({ rejectUnauthorized, timeout: timeoutMs, lookup: checkedLookup(policy) } as buildConnector.BuildOptions);
  return (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '');
    const reason = net.isIP(host) ? refusedAddress(policy, host, host) : refusedHostName(host);
    if (reason) {
      callback(new DestinationRefused(reason), null);
      return;
    }
    base(options, callback);
  };
}

/** Why the policy refused the destination, when that is what an error (or one of its causes) is; else undefined. */
export function refusedReason(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; e && i < 5; i++) {
    if (e instanceof DestinationRefused || (e as { code?: unknown }).code === REFUSED) return (e as Error).message;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
