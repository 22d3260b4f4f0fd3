// One typed configuration: flag > environment (HUBLET_*) > default; validated once, every problem listed, then frozen.
import os from 'node:os';
import path from 'node:path';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string;
  baseUrl: string;
  logLevel: string;
  bodyLimitBytes: number;
  rateLimitAuthenticated: number;
  rateLimitAnonymous: number;
  rateLimitWindowSeconds: number;
  adminToken?: string;
  /** Where migration archives are kept: `filesystem` (under archiveDir) or `none` (migrations are refused). */
  archiveStorage: 'filesystem' | 'none';
  archiveDir: string;
  /** Days an exported migration archive is kept before it is deleted automatically. */
  archiveLifetimeDays: number;
  /** Seconds a signed archive download URL stays valid. */
  archiveUrlTtlSeconds: number;
}

export type ConfigInput = Partial<Record<keyof Config, string | number | undefined>>;

const ENV: Record<keyof Config, string> = {
  host: 'HUBLET_HOST',
  port: 'HUBLET_PORT',
  dataDir: 'HUBLET_DATA',
  databaseUrl: 'HUBLET_DATABASE',
  baseUrl: 'HUBLET_BASE_URL',
  logLevel: 'HUBLET_LOG_LEVEL',
  bodyLimitBytes: 'HUBLET_BODY_LIMIT',
  rateLimitAuthenticated: 'HUBLET_RATE_LIMIT',
  rateLimitAnonymous: 'HUBLET_RATE_LIMIT_ANONYMOUS',
  rateLimitWindowSeconds: 'HUBLET_RATE_LIMIT_WINDOW',
  adminToken: 'HUBLET_ADMIN_TOKEN',
  archiveStorage: 'HUBLET_ARCHIVE_STORAGE',
  archiveDir: 'HUBLET_ARCHIVE_DIR',
  archiveLifetimeDays: 'HUBLET_ARCHIVE_LIFETIME_DAYS',
  archiveUrlTtlSeconds: 'HUBLET_ARCHIVE_URL_TTL',
};

/** Environment variable names per setting, for the README and `--help`. */
export const configEnvironment = ENV;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

/** The platform's data directory for hublet (XDG on Linux). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'hublet');
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA ?? os.homedir(), 'hublet');
  return path.join(env.XDG_DATA_HOME ?? path.join(os.homedir(), '.local', 'share'), 'hublet');
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(flags: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const problems: string[] = [];
  const pick = (key: keyof Config): string | undefined => {
    const flag = flags[key];
    if (flag !== undefined && flag !== '') return String(flag);
    const fromEnv = env[ENV[key]];
    return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
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
  let baseUrl = pick('baseUrl') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  try {
    const u = new URL(baseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') problems.push(`baseUrl (${ENV.baseUrl}): must be an http(s) URL`);
    baseUrl = baseUrl.replace(/\/+$/, '');
  } catch {
    problems.push(`baseUrl (${ENV.baseUrl}): not a URL: ${JSON.stringify(baseUrl)}`);
  }
  const config: Config = {
    host,
    port,
    dataDir,
    databaseUrl,
    baseUrl,
    logLevel,
    bodyLimitBytes: integer('bodyLimitBytes', 30 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    rateLimitAuthenticated: integer('rateLimitAuthenticated', 5000, 1, 10_000_000),
    rateLimitAnonymous: integer('rateLimitAnonymous', 60, 1, 10_000_000),
    rateLimitWindowSeconds: integer('rateLimitWindowSeconds', 3600, 1, 86_400),
    adminToken: pick('adminToken'),
    archiveStorage: archiveStorage(pick('archiveStorage'), problems),
    archiveDir: path.resolve(pick('archiveDir') ?? path.join(dataDir, 'archives')),
    archiveLifetimeDays: integer('archiveLifetimeDays', 7, 1, 3650),
    archiveUrlTtlSeconds: integer('archiveUrlTtlSeconds', 300, 10, 7 * 86_400),
  };
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze(config);
}

function archiveStorage(raw: string | undefined, problems: string[]): Config['archiveStorage'] {
  if (raw === undefined || raw === 'filesystem' || raw === 'none') return raw ?? 'filesystem';
  problems.push(`archiveStorage (${ENV.archiveStorage}): expected filesystem or none, got ${JSON.stringify(raw)}`);
  return 'filesystem';
}

/** The base URL once the real port is known (port 0 picks one at listen time). */
export function withListeningPort(config: Readonly<Config>, port: number, flags: ConfigInput, env: NodeJS.ProcessEnv): Readonly<Config> {
  if (flags.baseUrl || env[ENV.baseUrl] || config.port === port) return config;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return Object.freeze({ ...config, port, baseUrl: `http://${host}:${port}` });
}
