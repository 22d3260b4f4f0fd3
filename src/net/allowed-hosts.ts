// Where outbound connections (webhook deliveries) may go: the fixed refusals (link-local, cloud metadata) and the `--hook-allowed-hosts` policy.
import ipaddr from 'ipaddr.js';

type AddressCategory = 'external' | 'private' | 'loopback';

/** Cloud metadata services, refused whatever the policy says (by address and by name). */
const METADATA_ADDRESSES: ReadonlySet<string> = new Set([
  '169.254.169.254',
  '169.254.170.2',
  'fd00:ec2::254',
  '100.100.100.200',
  '192.0.0.192',
  '168.63.129.16',
]);
const METADATA_NAMES: ReadonlySet<string> = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.com',
]);

/** Ranges that never carry a webhook: link-local, multicast, broadcast, unspecified (0.0.0.0 reaches this host). */
const REFUSED_RANGES: ReadonlySet<string> = new Set(['linkLocal', 'multicast', 'broadcast', 'unspecified']);
const REFUSED_LABELS: Record<string, string> = {
  linkLocal: 'a link-local',
  multicast: 'a multicast',
  broadcast: 'a broadcast',
  unspecified: 'an unspecified',
};
const LOOPBACK_RANGES: ReadonlySet<string> = new Set(['loopback']);
const EXTERNAL_RANGES: ReadonlySet<string> = new Set(['unicast']);

interface Rule {
  kind: 'category' | 'cidr' | 'host' | 'suffix';
  category?: AddressCategory;
  cidr?: [ipaddr.IPv4 | ipaddr.IPv6, number];
  host?: string;
}

export interface AllowedHosts {
  /** The policy as configured, for messages. */
  source: string;
  /** No setting: every category allowed (the fixed refusals still apply). */
  open: boolean;
  rules: Rule[];
}

function normalizeHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

function parseRule(token: string): Rule | string {
  const t = token.toLowerCase();
  if (t === 'external' || t === 'private' || t === 'loopback') return { kind: 'category', category: t };
  if (t.includes('/')) {
    try {
      return { kind: 'cidr', cidr: ipaddr.parseCIDR(t) };
    } catch {
      return `${JSON.stringify(token)} is not a valid CIDR range`;
    }
  }
  if (ipaddr.isValid(t)) {
    const addr = ipaddr.parse(t);
    return { kind: 'cidr', cidr: [addr, addr.kind() === 'ipv4' ? 32 : 128] };
  }
  if (t.startsWith('*.') && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(t.slice(2)))
    return { kind: 'suffix', host: t.slice(1) };
  if (/^[a-z0-9_]([a-z0-9_-]*[a-z0-9])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9])?)*$/.test(t)) return { kind: 'host', host: t };
  return `${JSON.stringify(token)} is not external, private, loopback, a CIDR range, an address or a host name`;
}

function tokens(source: string): string[] {
  return source.split(/[\s,]+/).filter(Boolean);
}

/** What is wrong with an allowed-hosts setting, or null when it parses. */
export function allowedHostsProblem(source: string): string | null {
  for (const t of tokens(source)) {
    const r = parseRule(t);
    if (typeof r === 'string') return r;
  }
  return null;
}

export function parseAllowedHosts(source: string): AllowedHosts {
  const rules = tokens(source)
    .map(parseRule)
    .filter((r): r is Rule => typeof r !== 'string');
  return { source, open: rules.length === 0, rules };
}

interface Classified {
  /** Set when the address is refused whatever the policy. */
  refused?: string;
  category: AddressCategory;
  addr: ipaddr.IPv4 | ipaddr.IPv6;
}

/** The IPv4 address an IPv6 address carries (NAT64, 6to4, mapped), if any: it is what the packets finally reach. */
function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = addr.range();
  const b = addr.toByteArray();
  if (range === 'rfc6052' || range === 'rfc6145') return new ipaddr.IPv4(b.slice(12, 16));
  if (range === '6to4') return new ipaddr.IPv4(b.slice(2, 6));
  if (range === 'teredo') return new ipaddr.IPv4(b.slice(12, 16).map((x) => x ^ 0xff));
  return undefined;
}

function classify(address: string): Classified {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(address);
  } catch {
    return { refused: `${address} is not an IP address`, category: 'external', addr: ipaddr.parse('0.0.0.0') };
  }
  if (addr.kind() === 'ipv6') {
    const inner = embeddedIPv4(addr as ipaddr.IPv6);
    if (inner) {
      const c = classify(inner.toString());
      return { ...c, addr };
    }
  }
  const normalized = addr.toNormalizedString();
  if (METADATA_ADDRESSES.has(addr.toString()) || METADATA_ADDRESSES.has(normalized))
    return { refused: `${address} is a cloud metadata address`, category: 'private', addr };
  const range = addr.range();
  if (REFUSED_RANGES.has(range)) return { refused: `${address} is ${REFUSED_LABELS[range]} address`, category: 'private', addr };
  if (LOOPBACK_RANGES.has(range)) return { category: 'loopback', addr };
  if (EXTERNAL_RANGES.has(range)) return { category: 'external', addr };
  return { category: 'private', addr };
}

/** Why a host name is refused before it is even resolved (metadata service names), or null. */
export function refusedHostName(hostname: string): string | null {
  const h = normalizeHost(hostname);
  if (METADATA_NAMES.has(h)) return `${h} is a cloud metadata service`;
  return null;
}

/**
 * Why connecting to `address` (resolved from `hostname`) is refused, or null when it is allowed.
 * Fixed refusals first; then, when a policy is set, the address must match one of its rules.
 */
export function refusedAddress(policy: AllowedHosts, hostname: string, address: string): string | null {
  const byName = refusedHostName(hostname);
  if (byName) return byName;
  const c = classify(address);
  if (c.refused) return c.refused;
  if (policy.open) return null;
  const host = normalizeHost(hostname);
  for (const rule of policy.rules) {
    if (rule.kind === 'category' && rule.category === c.category) return null;
    if (rule.kind === 'host' && rule.host === host) return null;
    if (rule.kind === 'suffix' && host.endsWith(rule.host!)) return null;
    // ipaddr.process turned an IPv4-mapped IPv6 address into IPv4, so an IPv4 rule covers both forms.
    if (rule.kind === 'cidr' && rule.cidr![0].kind() === c.addr.kind() && c.addr.match(rule.cidr!)) return null;
  }
  return `${address} (${c.category}) is not in the allowed hosts (${policy.source})`;
}
