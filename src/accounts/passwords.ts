// Passwords: hashed with scrypt (Node's built-in `crypto.scrypt`, memory-hard, with OWASP's parameters N=2^17, r=8,
// p=1 and a salt of its own per password), verified in constant time; and what a new password must be, as NIST SP
// 800-63B-4 asks: a minimum length and not one of the most common passwords (zxcvbn-ts's list, bundled), nothing else.
import crypto from 'node:crypto';

/** OWASP's scrypt parameters (Password Storage Cheat Sheet): 2^17 × 8 × 128 bytes = 128 MiB of memory per hash. */
const COST = { r: 8, p: 1 };
type Cost = typeof COST & { ln: number };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Node's default (32 MiB) is below what N=2^17, r=8 needs. */
const MAX_MEMORY = 256 * 1024 * 1024;
/** NIST SP 800-63B-4 3.1.1.2: at least 15 characters for a password that is the only factor; at least 64 allowed. */
export const MIN_PASSWORD_LENGTH = 15;
const MAX_PASSWORD_LENGTH = 256;

function scrypt(password: string, salt: Buffer, cost: Cost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(password.normalize('NFKC'), salt, KEY_BYTES, { N: 2 ** cost.ln, r: cost.r, p: cost.p, maxmem: MAX_MEMORY }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/**
 * The stored form: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` (base64 without padding), the parameters kept with it; `ln`
 * is log2 N, the configured cost (HUBLET_PASSWORD_COST, 17 by default).
 */
export async function hashPassword(password: string, ln: number): Promise<string> {
  const salt = crypto.randomBytes(SALT_BYTES);
  const cost = { ...COST, ln };
  const key = await scrypt(password, salt, cost);
  return `$scrypt$ln=${cost.ln},r=${cost.r},p=${cost.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const STORED = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Whether `password` is the one `stored` was made from (false for a stored form this code cannot read). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = STORED.exec(stored);
  if (!m) return false;
  const cost = { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  const expected = Buffer.from(m[5], 'base64url');
  if (cost.ln > 20 || expected.length !== KEY_BYTES) return false;
  const key = await scrypt(password, Buffer.from(m[4], 'base64url'), cost);
  return crypto.timingSafeEqual(key, expected);
}

let common: ReadonlySet<string> | undefined;

/** The most common passwords (about 30,000, lower-cased), loaded on first use. */
async function commonPasswords(): Promise<ReadonlySet<string>> {
  if (!common) {
    const { dictionary } = await import('@zxcvbn-ts/language-common');
    common = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  }
  return common;
}

/** Why a new password is refused, or null: too short, too long, one of the most common, or the login itself. */
export async function passwordProblem(password: string, login: string): Promise<string | null> {
  const length = [...password.normalize('NFKC')].length;
  if (length < MIN_PASSWORD_LENGTH) return `Password is too short (minimum is ${MIN_PASSWORD_LENGTH} characters)`;
  if (length > MAX_PASSWORD_LENGTH) return `Password is too long (maximum is ${MAX_PASSWORD_LENGTH} characters)`;
  const lower = password.toLowerCase();
  if (lower === login.toLowerCase() || (await commonPasswords()).has(lower))
    return 'Password is in a list of passwords commonly used on other websites';
  return null;
}
