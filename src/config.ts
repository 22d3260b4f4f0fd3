// One typed configuration: flag > environment (HUBLET_*) > recorded (what `serve` noted in the data dir, for the CLI's
// local mode) > default; validated once, every problem listed, then frozen.
import os from 'node:os';
import path from 'node:path';
import { allowedHostsProblem } from './net/allowed-hosts.js';
import { trustedProxiesProblem } from './net/trusted-proxies.js';
import { parseKey, parseKeyList } from './secrets/secret-box.js';
import { signInSettings, type SignInSettings } from './sign-in-config.js';

export interface Config extends SignInSettings {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string;
  baseUrl: string;
  /** HTTPS: the server's certificate (PEM, chain after it) and its private key (PEM); both or neither, unset: plain HTTP. */
  tlsCert?: string;
  tlsKey?: string;
  logLevel: string;
  bodyLimitBytes: number;
  rateLimitAuthenticated: number;
  rateLimitAnonymous: number;
  rateLimitWindowSeconds: number;
  /** Reverse proxies whose X-Forwarded-For names the client (addresses, CIDRs, comma-separated); empty: none, the socket's peer is the client. */
  trustProxy: string;
  adminToken?: string;
  /** Webhook destinations allowed beyond the fixed refusals (`external`, `private`, `loopback`, CIDRs, host names); empty: all. */
  hookAllowedHosts: string;
  hookLimitPerEvent: number;
  deliveryRetentionDays: number;
  hookTimeoutMs: number;
  hookLeaseMs: number;
  hookConcurrency: number;
  hookRetries: number;
  /** What the first step of the retry schedule (Standard Webhooks' 5 seconds) lasts; every step is scaled alike (deliver.ts). */
  hookRetryBaseMs: number;
  /** How long a hook's previous secret still signs Standard Webhooks deliveries after the secret changes; 0: not at all. */
  hookSecretRotationMinutes: number;
  hookThrottlePerMinute: number;
  hookDisableAfterFailures: number;
  hookDisableWindowMinutes: number;
  /** Deliveries carry GitHub's header names too (`X-GitHub-Event`, `X-GitHub-Delivery`, …) beside the `X-Service-*` ones. */
  hookGithubHeaders: boolean;
  /** Where migration archives are kept: `filesystem` (under archiveDir), `s3` (a bucket) or `none` (migrations are refused). */
  archiveStorage: 'filesystem' | 's3' | 'none';
  archiveDir: string;
  /** The bucket of `archiveStorage: s3` (required then). */
  s3Bucket?: string;
  /** An S3-compatible endpoint (MinIO, Ceph, R2 …); unset: AWS's own for the region. */
  s3Endpoint?: string;
  /** The bucket's region: HUBLET_S3_REGION, else AWS_REGION, else us-east-1. */
  s3Region: string;
  /** Key prefix inside the bucket (segments of letters, digits, `.`, `-`, `_`), without slashes at either end; may be empty. */
  s3Prefix: string;
  /** Path-style addressing (`<endpoint>/<bucket>/<key>`), which most self-hosted stores need. */
  s3ForcePathStyle: boolean;
  /** Credentials for the bucket, both or neither; unset: the AWS SDK's default chain (AWS_ACCESS_KEY_ID, profiles, instance roles …). */
  s3AccessKeyId?: string;
  s3SecretAccessKey?: string;
  /** Days an exported migration archive is kept before it is deleted automatically. */
  archiveLifetimeDays: number;
  /** Seconds a signed archive download URL stays valid. */
  archiveUrlTtlSeconds: number;
  /** Largest migration archive an import accepts (bytes read, and bytes unpacked, each). */
  importMaxBytes: number;
  /** Largest gist file accepted (bytes), through the API or a push. */
  gistMaxFileBytes: number;
  /** Most files one gist may hold. */
  gistMaxFiles: number;
  /** Longest gist description accepted (characters). */
  gistMaxDescription: number;
  /** Largest request body accepted by gist create and update (bytes; larger: 413). */
  gistBodyLimitBytes: number;
  /** Memory for whole responses of hot reads (MiB; 0 turns the response cache off). */
  responseCacheMiB: number;
  /** Where `serve` answers Prometheus scrapes (`HOST:PORT`, a listener of its own); unset: no metrics are kept at all. */
  metricsListen?: string;
  /** `serve` on SIGTERM: seconds it keeps accepting requests while GET /_health/ready answers 503 (load balancers notice). */
  shutdownDelaySeconds: number;
  /** `serve` on SIGTERM, once it stops accepting: seconds in-flight requests and running jobs get to finish before it exits. */
  shutdownTimeoutSeconds: number;
  /** The key that seals hook secrets at rest (32 bytes, base64 or hex); unset: `<data>/secret.key`, created on first start. */
  secretKey?: string;
  /** Earlier keys, comma-separated: values they sealed still open, and are sealed again with secretKey at start. */
  secretKeyPrevious?: string;
  /** Days audit log entries are kept; older ones are pruned hourly (the chain keeps the hash of the last one pruned). */
  auditRetentionDays: number;
  /** The enterprise's slug in `GET /enterprises/{enterprise}/audit-log` (GitHub Enterprise names the site one "business"). */
  enterprise: string;
}

export type ConfigInput = Partial<Record<keyof Config, string | number | undefined>>;

const ENV: Record<keyof Config, string> = {
  host: 'HUBLET_HOST',
  port: 'HUBLET_PORT',
  dataDir: 'HUBLET_DATA',
  databaseUrl: 'HUBLET_DATABASE',
  baseUrl: 'HUBLET_BASE_URL',
  tlsCert: 'HUBLET_TLS_CERT',
  tlsKey: 'HUBLET_TLS_KEY',
  logLevel: 'HUBLET_LOG_LEVEL',
  bodyLimitBytes: 'HUBLET_BODY_LIMIT',
  rateLimitAuthenticated: 'HUBLET_RATE_LIMIT',
  rateLimitAnonymous: 'HUBLET_RATE_LIMIT_ANONYMOUS',
  rateLimitWindowSeconds: 'HUBLET_RATE_LIMIT_WINDOW',
  trustProxy: 'HUBLET_TRUST_PROXY',
  responseCacheMiB: 'HUBLET_RESPONSE_CACHE_MB',
  metricsListen: 'HUBLET_METRICS_LISTEN',
  shutdownDelaySeconds: 'HUBLET_SHUTDOWN_DELAY',
  shutdownTimeoutSeconds: 'HUBLET_SHUTDOWN_TIMEOUT',
  adminToken: 'HUBLET_ADMIN_TOKEN',
  hookAllowedHosts: 'HUBLET_HOOK_ALLOWED_HOSTS',
  hookLimitPerEvent: 'HUBLET_HOOK_LIMIT_PER_EVENT',
  deliveryRetentionDays: 'HUBLET_DELIVERY_RETENTION_DAYS',
  hookTimeoutMs: 'HUBLET_HOOK_TIMEOUT_MS',
  hookLeaseMs: 'HUBLET_HOOK_LEASE_MS',
  hookConcurrency: 'HUBLET_HOOK_CONCURRENCY',
  hookRetries: 'HUBLET_HOOK_RETRIES',
  hookRetryBaseMs: 'HUBLET_HOOK_RETRY_BASE_MS',
  hookSecretRotationMinutes: 'HUBLET_HOOK_SECRET_ROTATION_MINUTES',
  hookThrottlePerMinute: 'HUBLET_HOOK_THROTTLE_PER_MINUTE',
  hookDisableAfterFailures: 'HUBLET_HOOK_DISABLE_AFTER_FAILURES',
  hookDisableWindowMinutes: 'HUBLET_HOOK_DISABLE_WINDOW_MINUTES',
  hookGithubHeaders: 'HUBLET_HOOK_GITHUB_HEADERS',
  archiveStorage: 'HUBLET_ARCHIVE_STORAGE',
  archiveDir: 'HUBLET_ARCHIVE_DIR',
  s3Bucket: 'HUBLET_S3_BUCKET',
  s3Endpoint: 'HUBLET_S3_ENDPOINT',
  s3Region: 'HUBLET_S3_REGION',
  s3Prefix: 'HUBLET_S3_PREFIX',
  s3ForcePathStyle: 'HUBLET_S3_FORCE_PATH_STYLE',
  s3AccessKeyId: 'HUBLET_S3_ACCESS_KEY_ID',
  s3SecretAccessKey: 'HUBLET_S3_SECRET_ACCESS_KEY',
  archiveLifetimeDays: 'HUBLET_ARCHIVE_LIFETIME_DAYS',
  archiveUrlTtlSeconds: 'HUBLET_ARCHIVE_URL_TTL',
  importMaxBytes: 'HUBLET_IMPORT_MAX_SIZE',
  gistMaxFileBytes: 'HUBLET_GIST_MAX_FILE_SIZE',
  gistMaxFiles: 'HUBLET_GIST_MAX_FILES',
  gistMaxDescription: 'HUBLET_GIST_MAX_DESCRIPTION',
  gistBodyLimitBytes: 'HUBLET_GIST_BODY_LIMIT',
  secretKey: 'HUBLET_SECRET_KEY',
  secretKeyPrevious: 'HUBLET_SECRET_KEY_PREVIOUS',
  signup: 'HUBLET_SIGNUP',
  passwordSignIn: 'HUBLET_PASSWORD_SIGNIN',
  oidcIssuer: 'HUBLET_OIDC_ISSUER',
  oidcClientId: 'HUBLET_OIDC_CLIENT_ID',
  oidcClientSecret: 'HUBLET_OIDC_CLIENT_SECRET',
  oidcAutoCreate: 'HUBLET_OIDC_AUTO_CREATE',
  oidcName: 'HUBLET_OIDC_NAME',
  deviceCodeTtlSeconds: 'HUBLET_DEVICE_CODE_TTL',
  passwordCost: 'HUBLET_PASSWORD_COST',
  auditRetentionDays: 'HUBLET_AUDIT_RETENTION_DAYS',
  enterprise: 'HUBLET_ENTERPRISE',
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

/** The platform's data directory for hublet (XDG on Linux). */
function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'hublet');
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA ?? os.homedir(), 'hublet');
  return path.join(env.XDG_DATA_HOME ?? path.join(os.homedir(), '.local', 'share'), 'hublet');
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(flags: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env, recorded: ConfigInput = {}): Readonly<Config> {
  const problems: string[] = [];
  const pick = (key: keyof Config): string | undefined => {
    const flag = flags[key];
    if (flag !== undefined && flag !== '') return String(flag);
    const fromEnv = env[ENV[key]];
    if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
    const noted = recorded[key];
    return noted === undefined || noted === '' ? undefined : String(noted);
  };
  const integer = (key: keyof Config, fallback: number, min: number, max: number): number => {
    const raw = pick(key);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${key} (${ENV[key]}): expected an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
      return fallback;
    }
    return n;
  };

  const host = pick('host') ?? '127.0.0.1';
  const port = integer('port', 3000, 0, 65535);
  const dataDir = path.resolve(pick('dataDir') ?? defaultDataDir(env));
  const databaseUrl = pick('databaseUrl') ?? path.join(dataDir, 'hublet.sqlite');
  const logLevel = pick('logLevel') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`logLevel (${ENV.logLevel}): expected one of ${LOG_LEVELS.join(', ')}`);
  const tls = tlsFiles(pick, problems);
  const trustProxy = pick('trustProxy') ?? '';
  const proxyProblem = trustedProxiesProblem(trustProxy);
  if (proxyProblem) problems.push(`trustProxy (${ENV.trustProxy}): ${proxyProblem}`);
  const baseUrl = siteRoot(pick('baseUrl') ?? origin(tls.tlsCert !== undefined, host, port), problems);
  const config: Config = {
    host,
    port,
    dataDir,
    databaseUrl,
    baseUrl,
    ...tls,
    logLevel,
    bodyLimitBytes: integer('bodyLimitBytes', 30 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    rateLimitAuthenticated: integer('rateLimitAuthenticated', 5000, 1, 10_000_000),
    rateLimitAnonymous: integer('rateLimitAnonymous', 60, 1, 10_000_000),
    rateLimitWindowSeconds: integer('rateLimitWindowSeconds', 3600, 1, 86_400),
    trustProxy,
    adminToken: pick('adminToken'),
    ...hookSettings(pick, integer, problems),
    archiveStorage: archiveStorage(pick('archiveStorage'), problems),
    archiveDir: path.resolve(pick('archiveDir') ?? path.join(dataDir, 'archives')),
    ...s3Settings(pick, env, problems),
    archiveLifetimeDays: integer('archiveLifetimeDays', 7, 1, 3650),
    archiveUrlTtlSeconds: integer('archiveUrlTtlSeconds', 300, 10, 7 * 86_400),
    importMaxBytes: integer('importMaxBytes', 64 * 1024 ** 3, 1024, 2 ** 50),
    gistMaxFileBytes: integer('gistMaxFileBytes', 10 * 1024 * 1024, 1, 1024 * 1024 * 1024),
    gistMaxFiles: integer('gistMaxFiles', 1000, 1, 100_000),
    gistMaxDescription: integer('gistMaxDescription', 1000, 1, 1_000_000),
    gistBodyLimitBytes: integer('gistBodyLimitBytes', 32 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    responseCacheMiB: integer('responseCacheMiB', 32, 0, 65_536),
    metricsListen: metricsListen(pick('metricsListen'), problems),
    shutdownDelaySeconds: integer('shutdownDelaySeconds', 0, 0, 300),
    shutdownTimeoutSeconds: integer('shutdownTimeoutSeconds', 25, 1, 3600),
    ...secretKeys(pick, problems),
    ...signInSettings(pick, integer, ENV, problems),
    auditRetentionDays: integer('auditRetentionDays', 180, 1, 36_500),
    enterprise: enterpriseSlug(pick('enterprise'), problems),
  };
  if (config.archiveStorage === 's3' && config.s3Bucket === undefined)
    problems.push(`s3Bucket (${ENV.s3Bucket}): required with archiveStorage s3`);
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze(config);
}

type HookSettings = Pick<
  Config,
  | 'hookAllowedHosts'
  | 'hookLimitPerEvent'
  | 'deliveryRetentionDays'
  | 'hookTimeoutMs'
  | 'hookLeaseMs'
  | 'hookConcurrency'
  | 'hookRetries'
  | 'hookRetryBaseMs'
  | 'hookSecretRotationMinutes'
  | 'hookThrottlePerMinute'
  | 'hookDisableAfterFailures'
  | 'hookDisableWindowMinutes'
  | 'hookGithubHeaders'
>;

/** Webhook delivery settings (docs/configuration.md); the lease must outlast the delivery timeout. */
function hookSettings(
  pick: (key: keyof Config) => string | undefined,
  integer: (key: keyof Config, fallback: number, min: number, max: number) => number,
  problems: string[],
): HookSettings {
  const hookAllowedHosts = pick('hookAllowedHosts') ?? '';
  const hostProblem = allowedHostsProblem(hookAllowedHosts);
  if (hostProblem) problems.push(`hookAllowedHosts (${ENV.hookAllowedHosts}): ${hostProblem}`);
  const hookTimeoutMs = integer('hookTimeoutMs', 10_000, 100, 600_000);
  const hookLeaseMs = integer('hookLeaseMs', Math.max(30_000, hookTimeoutMs * 3), 200, 3_600_000);
  if (hookLeaseMs <= hookTimeoutMs) problems.push(`hookLeaseMs (${ENV.hookLeaseMs}): must be longer than hookTimeoutMs (${hookTimeoutMs})`);
  const githubHeaders = pick('hookGithubHeaders') ?? '0';
  if (!['0', '1', 'true', 'false'].includes(githubHeaders)) problems.push(`hookGithubHeaders (${ENV.hookGithubHeaders}): expected 1 or 0`);
  return {
    hookAllowedHosts,
    hookLimitPerEvent: integer('hookLimitPerEvent', 20, 1, 10_000),
    deliveryRetentionDays: integer('deliveryRetentionDays', 30, 1, 36_500),
    hookTimeoutMs,
    hookLeaseMs,
    hookConcurrency: integer('hookConcurrency', 100, 1, 1024),
    hookRetries: integer('hookRetries', 0, 0, 20),
    hookRetryBaseMs: integer('hookRetryBaseMs', 5_000, 1, 3_600_000),
    hookSecretRotationMinutes: integer('hookSecretRotationMinutes', 1_440, 0, 525_600),
    hookThrottlePerMinute: integer('hookThrottlePerMinute', 0, 0, 1_000_000),
    hookDisableAfterFailures: integer('hookDisableAfterFailures', 0, 0, 1_000_000),
    hookDisableWindowMinutes: integer('hookDisableWindowMinutes', 0, 0, 525_600),
    hookGithubHeaders: githubHeaders === '1' || githubHeaders === 'true',
  };
}

/** The secret keys, checked but never echoed in a problem (they are credentials). */
function secretKeys(pick: (key: keyof Config) => string | undefined, problems: string[]): Pick<Config, 'secretKey' | 'secretKeyPrevious'> {
  const secretKey = pick('secretKey');
  const secretKeyPrevious = pick('secretKeyPrevious');
  const format = 'expected 32 bytes as base64 or 64 hex digits (e.g. the output of `openssl rand -base64 32`)';
  if (secretKey !== undefined && !parseKey(secretKey)) problems.push(`secretKey (${ENV.secretKey}): ${format}`);
  if (secretKeyPrevious !== undefined && !parseKeyList(secretKeyPrevious))
    problems.push(`secretKeyPrevious (${ENV.secretKeyPrevious}): ${format}, comma-separated`);
  return { secretKey, secretKeyPrevious };
}

/** The certificate and key files for HTTPS (paths resolved; read and checked by `serve` at start): both or neither. */
function tlsFiles(pick: (key: keyof Config) => string | undefined, problems: string[]): Pick<Config, 'tlsCert' | 'tlsKey'> {
  const cert = pick('tlsCert');
  const key = pick('tlsKey');
  if ((cert === undefined) !== (key === undefined)) {
    const [given, missing] = cert === undefined ? (['tlsKey', 'tlsCert'] as const) : (['tlsCert', 'tlsKey'] as const);
    problems.push(`${missing} (${ENV[missing]}): required with ${given} (${ENV[given]}); HTTPS needs both the certificate and its key`);
  }
  return { tlsCert: cert === undefined ? undefined : path.resolve(cert), tlsKey: key === undefined ? undefined : path.resolve(key) };
}

/** The server's own origin, the default base URL: https when it serves TLS. */
/** The default base URL: the scheme's default port (443 with TLS, 80 without) is left out, as clients compare hosts. */
function origin(tls: boolean, host: string, port: number): string {
  const defaultPort = tls ? 443 : 80;
  return `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}${port === defaultPort ? '' : `:${port}`}`;
}

/**
 * A base URL is the site's root, `scheme://host[:port]` (a default port dropped): every link, page, raw and git URL
 * hangs off it at the paths GitHub uses, so a path prefix (GitHub Enterprise's `/api/v3` above all) is refused.
 */
function siteRoot(raw: string, problems: string[]): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    problems.push(`baseUrl (${ENV.baseUrl}): not a URL: ${JSON.stringify(raw)}`);
    return raw;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') problems.push(`baseUrl (${ENV.baseUrl}): must be an http(s) URL`);
  const path = u.pathname.replace(/\/+$/, '');
  if (/^\/api\/v3$/i.test(path)) {
    problems.push(
      `baseUrl (${ENV.baseUrl}): give the site's root (${u.origin}), not its API prefix: hublet serves the API at / and at /api/v3 itself`,
    );
  } else if (path || u.search || u.hash || u.username || u.password) {
    problems.push(
      `baseUrl (${ENV.baseUrl}): give the site's root, scheme://host[:port] (${u.origin}): hublet serves no path prefix, query or credentials, got ${JSON.stringify(raw)}`,
    );
  }
  return u.origin;
}

/** A listen address, `HOST:PORT` or `[IPv6]:PORT` (port 0: a free one); undefined when it is not one. */
export function hostAndPort(value: string): { host: string; port: number } | undefined {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:\s[\]]+)):(\d{1,5})$/.exec(value);
  const port = m ? Number(m[3]) : Number.NaN;
  return m && port <= 65535 ? { host: m[1] ?? m[2], port } : undefined;
}

function metricsListen(raw: string | undefined, problems: string[]): string | undefined {
  if (raw === undefined || hostAndPort(raw)) return raw;
  problems.push(`metricsListen (${ENV.metricsListen}): expected HOST:PORT (e.g. 127.0.0.1:9100, [::1]:9100), got ${JSON.stringify(raw)}`);
  return undefined;
}

/** An enterprise slug as GitHub writes them: lowercase letters, digits and single hyphens inside, at most 60 characters. */
function enterpriseSlug(raw: string | undefined, problems: string[]): string {
  if (raw === undefined) return 'hublet';
  if (/^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,59}$/.test(raw)) return raw;
  problems.push(
    `enterprise (${ENV.enterprise}): expected a slug of lowercase letters, digits and hyphens (e.g. acme-corp), got ${JSON.stringify(raw)}`,
  );
  return 'hublet';
}

function archiveStorage(raw: string | undefined, problems: string[]): Config['archiveStorage'] {
  if (raw === undefined || raw === 'filesystem' || raw === 's3' || raw === 'none') return raw ?? 'filesystem';
  problems.push(`archiveStorage (${ENV.archiveStorage}): expected filesystem, s3 or none, got ${JSON.stringify(raw)}`);
  return 'filesystem';
}

type S3Settings = Pick<
  Config,
  's3Bucket' | 's3Endpoint' | 's3Region' | 's3Prefix' | 's3ForcePathStyle' | 's3AccessKeyId' | 's3SecretAccessKey'
>;

/**
 * The S3 archive store's settings, checked whatever the storage (a typo fails at start, not at the first export); the
 * bucket is required only with `archiveStorage: s3`, checked by the caller. The secret key is never echoed.
 */
function s3Settings(pick: (key: keyof Config) => string | undefined, env: NodeJS.ProcessEnv, problems: string[]): S3Settings {
  const s3Bucket = pick('s3Bucket');
  if (s3Bucket !== undefined && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(s3Bucket)) {
    problems.push(
      `s3Bucket (${ENV.s3Bucket}): expected an S3 bucket name (3 to 63 lowercase letters, digits, dots and hyphens), got ${JSON.stringify(s3Bucket)}`,
    );
  }
  const s3Endpoint = pick('s3Endpoint')?.replace(/\/+$/, '');
  if (s3Endpoint !== undefined) {
    let u: URL | undefined;
    try {
      u = new URL(s3Endpoint);
    } catch {
      // reported below
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || u.search || u.hash) {
      problems.push(
        `s3Endpoint (${ENV.s3Endpoint}): expected an http(s) URL without credentials or query, e.g. https://minio.internal:9000`,
      );
    }
  }
  const s3Prefix = (pick('s3Prefix') ?? '').replace(/^\/+|\/+$/g, '');
  if (s3Prefix !== '' && s3Prefix.split('/').some((p) => !/^[A-Za-z0-9._-]+$/.test(p) || p === '.' || p === '..')) {
    problems.push(
      `s3Prefix (${ENV.s3Prefix}): expected segments of letters, digits, '.', '-' and '_' separated by '/', got ${JSON.stringify(s3Prefix)}`,
    );
  }
  const style = pick('s3ForcePathStyle') ?? '0';
  if (!['0', '1', 'true', 'false'].includes(style)) problems.push(`s3ForcePathStyle (${ENV.s3ForcePathStyle}): expected 1 or 0`);
  const s3AccessKeyId = pick('s3AccessKeyId');
  const s3SecretAccessKey = pick('s3SecretAccessKey');
  if ((s3AccessKeyId === undefined) !== (s3SecretAccessKey === undefined)) {
    problems.push(`s3AccessKeyId (${ENV.s3AccessKeyId}) and s3SecretAccessKey (${ENV.s3SecretAccessKey}): both or neither`);
  }
  return {
    s3Bucket,
    s3Endpoint,
    s3Region: pick('s3Region') ?? env.AWS_REGION ?? 'us-east-1',
    s3Prefix,
    s3ForcePathStyle: style === '1' || style === 'true',
    s3AccessKeyId,
    s3SecretAccessKey,
  };
}

/** The base URL once the real port is known (port 0 picks one at listen time). */
export function withListeningPort(config: Readonly<Config>, port: number, flags: ConfigInput, env: NodeJS.ProcessEnv): Readonly<Config> {
  if (flags.baseUrl || env[ENV.baseUrl] || config.port === port) return config;
  return Object.freeze({ ...config, port, baseUrl: origin(config.tlsCert !== undefined, config.host, port) });
}
