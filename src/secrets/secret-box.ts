// Sealing secrets at rest: AES-256-GCM with a 32-byte key; every ciphertext names the key that sealed it (rotation).
import crypto from 'node:crypto';

/** `hsb1:<key id>:<base64url of nonce ‖ ciphertext ‖ tag>`; the version says how the rest is laid out. */
const VERSION = 'hsb1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;
const SEALED = /^hsb1:([0-9a-f]{16}):([A-Za-z0-9_-]+)$/;

/** A key that cannot open a value, a value that is not a sealed one, or one that was altered. Never holds key material. */
export class SecretKeyError extends Error {}

/**
 * A key as written in HUBLET_SECRET_KEY or the key file: 32 bytes as 64 hex digits or as base64 (standard or URL-safe,
 * padding optional); surrounding whitespace is ignored. Undefined when the text is not such a key.
 */
export function parseKey(text: string): Buffer | undefined {
  const s = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(s)) return undefined;
  const key = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === KEY_BYTES ? key : undefined;
}

/** A comma- or whitespace-separated list of keys (HUBLET_SECRET_KEY_PREVIOUS); undefined when any entry is not a key. */
export function parseKeyList(text: string): Buffer[] | undefined {
  const keys = text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(parseKey);
  return keys.every((k): k is Buffer => k !== undefined) ? keys : undefined;
}

/** The public name of a key: 16 hex digits of a hash of it (reveals nothing usable about the key). */
export function keyIdOf(key: Buffer): string {
  return crypto.createHash('sha256').update('hublet secret key id\0').update(key).digest('hex').slice(0, 16);
}

/**
 * Seals with the current key and opens with any known key. `context` binds a value to its purpose (e.g. `hook.secret`):
 * a sealed value copied to another column does not open there.
 */
export class SecretBox {
  readonly keyId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    if (current.length !== KEY_BYTES) throw new SecretKeyError(`a secret key must be ${KEY_BYTES} bytes`);
    this.keyId = keyIdOf(current);
    for (const key of [current, ...previous]) {
      if (key.length !== KEY_BYTES) throw new SecretKeyError(`a secret key must be ${KEY_BYTES} bytes`);
      if (!this.keys.has(keyIdOf(key))) this.keys.set(keyIdOf(key), key);
    }
  }

  /** Whether this box can open values sealed with the key `id`. */
  knows(id: string): boolean {
    return this.keys.has(id);
  }

  /**
   * A 32-byte key for another use (an HMAC) from each key this box knows, the current one first: HKDF-SHA256 with
   * `purpose` as its info, so a derived key differs per purpose and reveals nothing of the sealing key.
   */
  derivedKeys(purpose: string): Buffer[] {
    return [...this.keys.values()].map((key) =>
      Buffer.from(crypto.hkdfSync('sha256', key, Buffer.alloc(0), `hublet derived key\0${purpose}`, KEY_BYTES)),
    );
  }

  seal(plaintext: string, context: string): string {
    const nonce = crypto.randomBytes(NONCE_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.keys.get(this.keyId)!, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}:${this.keyId}:${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  open(sealed: string, context: string): string {
    const m = SEALED.exec(sealed);
    if (!m) throw new SecretKeyError(`the ${context} value is not a sealed secret`);
    const key = this.keys.get(m[1]);
    if (!key)
      throw new SecretKeyError(
        `the ${context} value was sealed with secret key ${m[1]}, which this server does not have (its key is ${this.keyId}; older keys go in HUBLET_SECRET_KEY_PREVIOUS)`,
      );
    const raw = Buffer.from(m[2], 'base64url');
    if (raw.length < NONCE_BYTES + TAG_BYTES) throw new SecretKeyError(`the ${context} value is cut short`);
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretKeyError(
        `the ${context} value sealed with key ${m[1]} does not authenticate (altered, or moved from another column)`,
      );
    }
  }
}
