// Shared by the backup tests: JSON calls to a `serve` process with a token, archive downloads through the 302 (stock git
// comes from test/gists/git-tools.ts), and the `--database` arguments of a data dir on the database under test.
import crypto from 'node:crypto';

export interface Call {
  status: number;
  body: any;
  text: string;
}

/** A JSON call to `base` with a bearer token. */
export async function call(base: string, token: string, method: string, p: string, body?: unknown): Promise<Call> {
  const res = await fetch(base + p, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/vnd.service+json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text, text };
}

/** An archive's bytes: the 302 with the token, then the signed URL without it; their SHA-256. */
export async function archiveDigest(base: string, token: string, p: string): Promise<string> {
  const redirect = await fetch(base + p, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
  if (redirect.status !== 302) throw new Error(`GET ${p}: ${redirect.status} ${await redirect.text()}`);
  const res = await fetch(redirect.headers.get('location')!);
  if (res.status !== 200) throw new Error(`GET archive: ${res.status}`);
  return crypto
    .createHash('sha256')
    .update(Buffer.from(await res.arrayBuffer()))
    .digest('hex');
}

/** Polls `get` until `done` holds (the deadline only bounds a failing run; nothing is timed). */
export async function until<T>(get: () => Promise<T>, done: (v: T) => boolean, what: string, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
