// Delivery signatures: HMAC hex digests of the exact body bytes, keyed by the hook's secret.
import crypto from 'node:crypto';

/** The signature headers of a body, or none when the hook has no secret. */
export function signatureHeaders(secret: string | null, body: Buffer): Record<string, string> {
  if (!secret) return {};
  return {
    'X-Hub-Signature': `sha1=${crypto.createHmac('sha1', secret).update(body).digest('hex')}`,
    'X-Hub-Signature-256': `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`,
  };
}
