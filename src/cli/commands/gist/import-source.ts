// The gists of the server `hublet gist import --from URL` copies from: any server that answers GitHub's gist endpoints
// (GitHub, GitHub Enterprise, another hublet). Its answers are untrusted input: every gist is checked before use, pages
// are followed only on the same origin (the token goes nowhere else), and a loop of `next` links ends.
import { RemoteClient, type ApiResponse } from '../../client.js';
import { CliExit, EXIT } from '../../output.js';

/** A gist of the source, as the import uses it. */
export interface SourceGist {
  id: string;
  /** Its API URL: what the import records as the copy's source. */
  url: string;
  gitPullUrl: string;
  description: string | null;
  public: boolean;
}

/** A list item the import cannot use, with why. */
interface UnusableGist {
  url: string;
  problem: string;
}

/** The most pages one import reads (100 gists each): a bound against a source whose `next` links never end. */
const MAX_PAGES = 10_000;

/** An http(s) URL, or undefined. */
function httpUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The API base URL `--from` names: as given (`https://ghe.example.com/api/v3`, `http://127.0.0.1:3000`), except
 * GitHub's web hosts, which mean its API. Not an http(s) URL: a usage error.
 */
export function sourceBase(from: string): URL {
  const url = httpUrl(from.trim());
  if (!url || url.username || url.password || url.search || url.hash) {
    throw new CliExit(
      EXIT.usage,
      `hublet: --from must be the http(s) URL of a server's API (e.g. https://api.github.com), without credentials; got ${JSON.stringify(from)}`,
    );
  }
  if (url.hostname === 'github.com' || url.hostname === 'gist.github.com') return new URL('https://api.github.com');
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

/** `rel="next"` of a Link header. */
function nextLink(link: string | undefined): string | undefined {
  for (const part of (link ?? '').split(',')) {
    const m = /<([^>]*)>\s*;\s*rel="?next"?/.exec(part);
    if (m) return m[1];
  }
  return undefined;
}

/** A list item as the import uses it, or why it cannot. */
function sourceGist(item: unknown): SourceGist | UnusableGist {
  const g = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
  const url = httpUrl(g.url);
  const pull = httpUrl(g.git_pull_url);
  const where = url?.toString() ?? (typeof g.id === 'string' ? g.id : '(a gist without a URL)');
  if (!url || typeof g.id !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(g.id))
    return { url: where, problem: 'the source lists it without a usable id and API URL' };
  if (!pull) return { url: where, problem: 'the source gives no http(s) git_pull_url to clone it from' };
  if (typeof g.public !== 'boolean') return { url: where, problem: 'the source does not say whether it is public' };
  return {
    id: g.id,
    url: url.toString(),
    gitPullUrl: pull.toString(),
    description: typeof g.description === 'string' ? g.description : null,
    public: g.public,
  };
}

/** The source server's API, read with the token (if any). */
export class GistSource {
  private readonly client: RemoteClient;
  /** The base URL as people write it: no trailing slash (`http://host`, `https://host/api/v3`). */
  readonly root: string;

  constructor(
    private readonly base: URL,
    readonly token: string | undefined,
  ) {
    this.client = new RemoteClient(base.origin, token);
    this.root = base.toString().replace(/\/+$/, '');
  }

  /** What a failed answer means to the person running the import. */
  private refusal(res: ApiResponse, what: string): CliExit {
    const said =
      typeof res.body === 'object' && res.body && 'message' in res.body ? String((res.body as { message: unknown }).message) : '';
    const detail = `HTTP ${res.status}${said ? `: ${said}` : ''}`;
    if (res.status === 401) {
      const hint = this.token
        ? 'check --from-token (or HUBLET_FROM_TOKEN)'
        : 'pass a token of that server with --from-token (or HUBLET_FROM_TOKEN)';
      return new CliExit(EXIT.auth, `hublet: ${this.root} refused the token (${detail})\nhint: ${hint}`);
    }
    return new CliExit(EXIT.error, `hublet: ${this.root} could not list ${what} (${detail})`);
  }

  /** A GET of a URL the source handed out: only on its own origin, so the token never leaves it. */
  private async get(url: URL): Promise<ApiResponse> {
    if (url.origin !== this.base.origin)
      throw new CliExit(EXIT.error, `hublet: ${this.root} sent a link to another server (${url.origin}); not followed`);
    return this.client.request('GET', `${url.pathname}${url.search}`, { headers: { accept: 'application/json' } });
  }

  /**
   * Every gist of `user` (GET /users/{user}/gists), or of the token's own user (GET /gists), page by page as the
   * `Link` header says; items it cannot use come back apart, with the reason.
   */
  async list(user: string | undefined): Promise<{ gists: SourceGist[]; unusable: UnusableGist[] }> {
    const what = user ? `the gists of ${user}` : 'your gists';
    let url: URL | undefined = new URL(`${this.root}${user ? `/users/${encodeURIComponent(user)}/gists` : '/gists'}?per_page=100`);
    const seen = new Set<string>();
    const gists: SourceGist[] = [];
    const unusable: UnusableGist[] = [];
    while (url && !seen.has(url.toString()) && seen.size < MAX_PAGES) {
      seen.add(url.toString());
      const res = await this.get(url);
      if (res.status === 404 && user) throw new CliExit(EXIT.error, `hublet: ${this.root} has no user ${user} (HTTP 404)`);
      if (res.status >= 400) throw this.refusal(res, what);
      if (!Array.isArray(res.body)) {
        throw new CliExit(
          EXIT.error,
          `hublet: ${this.root} did not answer with a list of gists: is --from the API's URL (https://api.github.com, https://HOST/api/v3 for GitHub Enterprise, a hublet server's URL)?`,
        );
      }
      for (const item of res.body) {
        const g = sourceGist(item);
        if ('problem' in g) unusable.push(g);
        else if (!gists.some((x) => x.url === g.url)) gists.push(g);
      }
      const next = nextLink(res.headers.link);
      url = next ? httpUrl(new URL(next, url).toString()) : undefined;
    }
    return { gists, unusable };
  }

  /** The source gist's newest revision (`history[0].version`), when its API says; undefined otherwise. */
  async head(gist: SourceGist): Promise<string | undefined> {
    const res = await this.get(new URL(gist.url));
    if (res.status >= 400) return undefined;
    const history = (res.body as { history?: unknown } | null)?.history;
    const version = Array.isArray(history) ? (history[0] as { version?: unknown } | undefined)?.version : undefined;
    return typeof version === 'string' && /^[0-9a-f]{40}$/.test(version) ? version : undefined;
  }

  /** The token for git at `url`: only on the API's own origin (a single-host server such as hublet or GitHub Enterprise). */
  gitToken(url: string): string | undefined {
    return new URL(url).origin === this.base.origin ? this.token : undefined;
  }
}
