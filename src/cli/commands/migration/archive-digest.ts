// The digest a server may send with an archive (RFC 9530's Repr-Digest, RFC 3230's Digest, Content-MD5, Google Cloud
// Storage's x-goog-hash), and the same digest of the file on disk, so a download is checked byte for byte when it can be.
// hublet's own archive route sends none (its ETag is the migration's guid and the size); then the size is the check.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';

type Algorithm = 'sha-512' | 'sha-256' | 'md5';

export interface Digest {
  algorithm: Algorithm;
  /** base64 */
  value: string;
  /** The header it came from. */
  header: string;
}

/** Strongest first; each with its length in bytes and its name in node:crypto. */
const ALGORITHMS: Record<Algorithm, { bytes: number; node: string }> = {
  'sha-512': { bytes: 64, node: 'sha512' },
  'sha-256': { bytes: 32, node: 'sha256' },
  md5: { bytes: 16, node: 'md5' },
};

function one(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

/** `alg=value, alg=value` pairs (the value may itself end in `=` padding); `wrap` strips RFC 9530's `:…:`. */
function pairs(header: string | undefined, wrapped: boolean): [string, string][] {
  if (!header) return [];
  return header.split(',').flatMap((item): [string, string][] => {
    const eq = item.indexOf('=');
    if (eq < 0) return [];
    let value = item.slice(eq + 1).trim();
    if (wrapped) {
      const m = /^:([A-Za-z0-9+/=]*):$/.exec(value);
      if (!m) return [];
      value = m[1];
    }
    return [[item.slice(0, eq).trim().toLowerCase(), value]];
  });
}

function valid(algorithm: string, value: string): algorithm is Algorithm {
  const spec = ALGORITHMS[algorithm as Algorithm];
  return spec !== undefined && /^[A-Za-z0-9+/]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === spec.bytes;
}

/**
 * The strongest digest of the whole archive the response's headers give. `whole`: the response carries the whole
 * archive (a 200), so digests of the content (Content-Digest, Content-MD5, x-goog-hash) are the archive's too; in a 206
 * only the representation's (Repr-Digest, Digest) are.
 */
export function digestOf(headers: IncomingHttpHeaders, whole: boolean): Digest | undefined {
  const found: Digest[] = [];
  const add = (header: string, list: [string, string][]) => {
    for (const [alg, value] of list) if (valid(alg, value)) found.push({ algorithm: alg, value, header });
  };
  add('repr-digest', pairs(one(headers, 'repr-digest'), true));
  add('digest', pairs(one(headers, 'digest'), false));
  if (whole) {
    if (!one(headers, 'content-encoding')) add('content-digest', pairs(one(headers, 'content-digest'), true));
    const md5 = one(headers, 'content-md5')?.trim();
    if (md5) add('content-md5', [['md5', md5]]);
    add('x-goog-hash', pairs(one(headers, 'x-goog-hash'), false));
  }
  const order = Object.keys(ALGORITHMS);
  return found.sort((a, b) => order.indexOf(a.algorithm) - order.indexOf(b.algorithm))[0];
}

/** The file's digest with this algorithm, base64. */
export async function fileDigest(file: string, algorithm: Algorithm): Promise<string> {
  const hash = crypto.createHash(ALGORITHMS[algorithm].node);
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('base64');
}
