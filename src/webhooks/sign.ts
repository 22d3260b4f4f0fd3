// Delivery signatures, by the hook's `signature_format`: GitHub's (`github`, the default: X-Hub-Signature and
// X-Hub-Signature-256, HMAC hex digests of the exact body bytes keyed by the secret as given) and Standard Webhooks'
// (`standard`: webhook-id, webhook-timestamp and webhook-signature, `v1,<base64 HMAC-SHA256 of id.timestamp.body>`
// keyed by the secret's bytes, one signature per secret while a rotation overlaps), or both (`github,standard`).
import crypto from 'node:crypto';
import type { SignatureFormat } from '../db/tables/webhooks.js';

/** Standard Webhooks' serialization of a secret: `whsec_` and its bytes in base64. */
const STANDARD_PREFIX = 'whsec_';

/** Whether a `whsec_` secret is the prefix and canonical base64 of at least one byte (what the spec's libraries decode). */
export function validStandardSecret(secret: string): boolean {
  if (!secret.startsWith(STANDARD_PREFIX)) return true;
  const encoded = secret.slice(STANDARD_PREFIX.length);
  const bytes = Buffer.from(encoded, 'base64');
  return bytes.length > 0 && bytes.toString('base64') === encoded;
}

/** The HMAC key of Standard Webhooks signatures: a `whsec_` secret's base64-decoded bytes, any other secret's UTF-8 bytes. */
function standardKey(secret: string): Buffer {
  return secret.startsWith(STANDARD_PREFIX) ? Buffer.from(secret.slice(STANDARD_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** GitHub's signature headers of a body, or none when the hook has no secret. */
function signatureHeaders(secret: string | null, body: Buffer): Record<string, string> {
  if (!secret) return {};
  return {
    'X-Hub-Signature': `sha1=${crypto.createHmac('sha1', secret).update(body).digest('hex')}`,
    'X-Hub-Signature-256': `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`,
  };
}

/** What a delivery is signed with: the hook's format and secrets, the delivery's id (its GUID) and the attempt's time. */
export interface Signing {
  format: SignatureFormat;
  secret: string | null;
  /** The secret before the last rotation, while its overlap lasts (undefined or null: none). */
  previousSecret?: string | null;
  id: string;
  at: Date;
  body: Buffer;
}

/**
 * Standard Webhooks' headers: the id (stable across redeliveries and retries), the attempt's Unix time in seconds, and
 * the signature of `id.timestamp.body` under each secret, current first, space-separated (none without a secret).
 */
function standardHeaders(s: Signing): Record<string, string> {
  const timestamp = String(Math.floor(s.at.getTime() / 1000));
  const secrets = [s.secret, s.previousSecret].filter((k): k is string => Boolean(k));
  const signed = Buffer.concat([Buffer.from(`${s.id}.${timestamp}.`, 'utf8'), s.body]);
  const signatures = secrets.map((k) => `v1,${crypto.createHmac('sha256', standardKey(k)).update(signed).digest('base64')}`);
  return {
    'webhook-id': s.id,
    'webhook-timestamp': timestamp,
    ...(signatures.length ? { 'webhook-signature': signatures.join(' ') } : {}),
  };
}

/** The signature headers of a delivery in the hook's format (`standard` alone leaves GitHub's out: docs/webhooks.md). */
export function deliverySignatures(s: Signing): Record<string, string> {
  return {
    ...(s.format !== 'standard' ? signatureHeaders(s.secret, s.body) : {}),
    ...(s.format !== 'github' ? standardHeaders(s) : {}),
  };
}
