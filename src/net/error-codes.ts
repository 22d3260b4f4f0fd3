// What an outbound fetch's error says of its cause: the codes and names along its `cause` chain (undici wraps the
// socket's error), which the webhook transport and the image fetcher read to tell a timeout or a TLS failure.

/** The `code` and `name` of an error and of its causes, five deep at most, outermost first. */
export function errorCodes(err: unknown): string[] {
  const out: string[] = [];
  let e: unknown = err;
  for (let i = 0; e && i < 5; i++) {
    const x = e as { code?: unknown; name?: unknown; cause?: unknown };
    if (typeof x.code === 'string') out.push(x.code);
    if (typeof x.name === 'string') out.push(x.name);
    e = x.cause;
  }
  return out;
}
