// What the areas tell the app's metrics (ctx.metrics), and the implementation that does nothing, used when metrics are
// off (`--metrics-listen` unset, and always in the CLI's local mode): callers never ask whether metrics are on.

/** A password sign-in's outcome: signed in, refused (wrong password, unknown name, suspended), or refused unheard. */
export type SignInOutcome = 'success' | 'failure' | 'throttled';

/** The smart-HTTP endpoint a git request reached. */
type GitEndpoint = 'info/refs' | 'git-upload-pack' | 'git-receive-pack';

/** The Prometheus text exposition of one scrape. */
export interface Exposition {
  contentType: string;
  body: string;
}

/** The observers on the app's context. Each call is cheap and never throws. */
export interface Metrics {
  /** A webhook delivery attempt ended: `success` is a 2xx or 3xx answer (as its record counts it); `seconds` its duration. */
  webhookDelivery(outcome: 'success' | 'failure', seconds: number): void;
  /** A password sign-in on the web was decided. */
  signIn(outcome: SignInOutcome): void;
  /** A request was refused for being over its rate limit (a token's user, or an anonymous address). */
  rateLimited(caller: 'user' | 'anonymous'): void;
  /**
   * A git request to a gist or a repository was authorized. Counted once per git command: a fetch (clone, fetch,
   * ls-remote) at its ref advertisement (`info/refs` read), a push at the request that carries its updates (receive-pack).
   */
  gitRequest(endpoint: GitEndpoint, operation: 'read' | 'write', kind: 'gist' | 'repository'): void;
  /** Everything measured, as Prometheus scrapes it (`GET /metrics` on the metrics listener). */
  scrape(): Promise<Exposition>;
}

/** Metrics off: every observer does nothing, and a scrape is empty. */
export const noMetrics: Metrics = Object.freeze({
  webhookDelivery() {},
  signIn() {},
  rateLimited() {},
  gitRequest() {},
  scrape: async () => ({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '' }),
});
