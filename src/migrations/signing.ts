// Signed archive URLs: like a pre-signed blob URL, they need no Authorization header and stop working when they expire.
import crypto from 'node:crypto';
import type { Urls } from '../core/urls.js';

/** Where archives are served: `<base>/storage/migrations/<guid>.tar.gz?expires=…&signature=…`. */
export const ARCHIVE_ROUTE = '/storage/migrations/:file';

export function newArchiveSecret(): string {
  return crypto.randomBytes(32).toString('hex');
}

function signature(secret: string, guid: string, expires: number): string {
  return crypto.createHmac('sha256', secret).update(`${guid}\n${expires}`).digest('hex');
}

/** A URL for the archive of a migration, valid until `expires` (seconds since the epoch). */
export function signedArchiveUrl(urls: Urls, guid: string, secret: string, expires: number): string {
  return urls.api(`/storage/migrations/${guid}.tar.gz?expires=${expires}&signature=${signature(secret, guid, expires)}`);
}

/** Whether a presented signature is the right one for this guid and expiry (compared in constant time). */
export function signatureValid(secret: string, guid: string, expires: number, presented: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(presented)) return false;
  return crypto.timingSafeEqual(Buffer.from(signature(secret, guid, expires), 'hex'), Buffer.from(presented, 'hex'));
}
