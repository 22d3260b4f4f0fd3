// A hook's config at rest: the secret (and the one before a rotation, while it overlaps), the password and a URL's
// credentials sealed, the URL shown with them masked.
import type { Opener } from '../secrets/opened-cache.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { HookRow } from '../db/tables/webhooks.js';
import type { HookConfigInput } from './validate.js';

export const MASK = '********';

/** What each sealed value is for (bound into its ciphertext, so a value moved to another column does not open). */
const PURPOSE = { url: 'hook.url', secret: 'hook.secret', previous: 'hook.previous_secret', password: 'hook.password' } as const;

/** The columns that hold a hook's config (the same in `hooks` and `hook_farewells`). */
export type SealedConfig = Pick<
  HookRow,
  | 'url'
  | 'url_sealed'
  | 'content_type'
  | 'insecure_ssl'
  | 'secret'
  | 'username'
  | 'password'
  | 'sealed_with'
  | 'signature_format'
  | 'previous_secret'
  | 'previous_secret_until'
>;

/** A config opened for a delivery: as given, with the secret before the last rotation and when its overlap ends. */
export interface OpenedConfig extends HookConfigInput {
  previousSecret: string | null;
  /** ISO time. */
  previousSecretUntil: string | null;
}

function credentialsIn(url: string): URL | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  return u.username || u.password ? u : undefined;
}

/**
 * The URL as every response, payload and record shows it: the password of its userinfo replaced by `********`
 * (`http://u:********@host/x`), or a user name standing alone (often a token) replaced by it. A URL without
 * credentials is shown exactly as given.
 */
export function shownUrl(url: string): string {
  const u = credentialsIn(url);
  if (!u) return url;
  if (u.password) u.password = MASK;
  else u.username = MASK;
  return u.toString();
}

/** The `url` and `url_sealed` columns of a URL: the URL itself, or its masked form and the sealed URL. */
export function sealUrl(box: SecretBox, url: string): Pick<SealedConfig, 'url' | 'url_sealed'> {
  return credentialsIn(url) ? { url: shownUrl(url), url_sealed: box.seal(url, PURPOSE.url) } : { url, url_sealed: null };
}

function sealSecret(box: SecretBox, secret: string | null): string | null {
  return secret === null ? null : box.seal(secret, PURPOSE.secret);
}

/**
 * The secret columns after `next` replaces the current secret (undefined: not given, nothing changes). A new secret
 * where there was another keeps the old one, sealed, until `overlapMs` from now (its Standard Webhooks signature is sent
 * too until then); removing the secret, or an overlap of 0, drops it.
 */
export function rotatedSecret(
  box: SecretBox,
  current: SealedConfig,
  next: string | null | undefined,
  now: Date,
  overlapMs: number,
): Partial<Pick<SealedConfig, 'secret' | 'previous_secret' | 'previous_secret_until'>> {
  if (next === undefined) return {};
  const was = openConfig(box, current).secret;
  if (was !== null && was === next) return {};
  const kept = was !== null && next !== null && overlapMs > 0 ? box.seal(was, PURPOSE.previous) : null;
  return {
    secret: sealSecret(box, next),
    previous_secret: kept,
    previous_secret_until: kept === null ? null : new Date(now.getTime() + overlapMs).toISOString(),
  };
}

/** The columns of a whole config, sealed with the box's current key (a rotation's previous secret too, when given). */
export function sealConfig(box: SecretBox, c: HookConfigInput & Partial<Omit<OpenedConfig, keyof HookConfigInput>>): SealedConfig {
  const previous = c.previousSecret ?? null;
  return {
    ...sealUrl(box, c.url),
    content_type: c.contentType,
    insecure_ssl: c.insecureSsl,
    secret: sealSecret(box, c.secret),
    username: c.username,
    password: c.password === null ? null : box.seal(c.password, PURPOSE.password),
    sealed_with: box.keyId,
    signature_format: c.signatureFormat,
    previous_secret: previous === null ? null : box.seal(previous, PURPOSE.previous),
    previous_secret_until: previous === null ? null : (c.previousSecretUntil ?? null),
  };
}

/** The config as given, opened (a row from before sealing, `sealed_with` null, is still in the clear). */
export function openConfig(box: Opener, row: SealedConfig): OpenedConfig {
  const clear = row.sealed_with === null;
  const open = (value: string | null, purpose: string) => (value === null || clear ? value : box.open(value, purpose));
  return {
    url: row.url_sealed === null ? row.url : open(row.url_sealed, PURPOSE.url)!,
    contentType: row.content_type,
    insecureSsl: row.insecure_ssl,
    secret: open(row.secret, PURPOSE.secret),
    username: row.username,
    password: open(row.password, PURPOSE.password),
    signatureFormat: row.signature_format,
    previousSecret: open(row.previous_secret, PURPOSE.previous),
    previousSecretUntil: row.previous_secret_until,
  };
}
