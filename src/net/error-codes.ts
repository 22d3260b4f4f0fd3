// What an outbound fetch's error says of its cause: the codes and names along its `cause` chain (undici wraps the
// socket's error), which the webhook transport and the image fetcher read to tell a timeout or a TLS failure; and
// the one list of what says "timed out".

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

/** Codes and names of a fetch that ran out of time: undici's timeouts and aborts (the fetchers abort on their budget). */
const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'TimeoutError',
  'AbortError',
  'UND_ERR_ABORTED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
  'RequestAbortedError',
]);

/** Whether any of these codes (errorCodes') says the fetch timed out. */
export function timedOut(codes: readonly string[]): boolean {
  return codes.some((c) => TIMEOUT_CODES.has(c));
}
