// The CLI's API client: local mode injects into the in-process app over the data dir, remote mode speaks HTTP with undici.
// Commands see one interface and never ask which mode they have: what differs (who runs background jobs, how another
// program reaches a URL the API handed out, whose file system a path names) is a method here.
// The server, the database drivers and undici are imported when a client opens, not when the program starts: `--help`,
// usage errors and remote commands stay quick to start.
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { LOCAL_ACTOR_HEADER } from '../http/auth.js';
import type { Gateway } from './local-gateway.js';
import { chooseMode, type LocalChoice, type ModeFlags } from './mode.js';
import { CliExit, EXIT } from './output.js';
import type { Runtime } from './runtime.js';

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  text: string;
}

interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** A body streamed as it is (a file upload), instead of `body`; its Content-Type goes in `headers`. */
  upload?: Readable;
}

/** Where a URL the API handed out can be fetched from this process, and the token to send there (if any). */
interface Reached {
  url: string;
  token?: string;
}

export interface Client {
  /** For what a command tells the user (hints, how often it polls); what a command does goes through the methods. */
  readonly mode: 'local' | 'remote';
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /**
   * Runs the due jobs of these queues (webhook deliveries, exports) before returning. Locally this process is the only
   * worker there may be; a remote server runs its jobs on its own, so remotely there is nothing to do.
   */
  settle(queues: readonly string[]): Promise<void>;
  /**
   * How another program (git) or a download reaches an absolute URL the API handed out (a git_pull_url, a signed archive
   * URL): remotely the URL itself, with the client's token when `withToken`; locally the same path on a loopback gateway
   * into the in-process app (so the same server operation answers), with the gateway's key.
   */
  reach(url: string, opts?: { withToken?: boolean }): Promise<Reached>;
  /** A path on the server's machine: locally this machine (relative to the current directory); remotely as given. */
  serverPath(p: string): string;
  close(): Promise<void>;
}

/** Options every command understands (set on the root program). */
export interface GlobalOptions extends ModeFlags {
  json?: boolean;
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (!text) return null;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function flatHeaders(h: Record<string, string | string[] | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

class LocalClient implements Client {
  readonly mode = 'local' as const;
  private gateway: Promise<Gateway> | undefined;
  private constructor(
    private readonly runtime: Runtime,
    private readonly app: FastifyInstance,
    private readonly as: string,
  ) {}

  static async open(choice: LocalChoice, env: NodeJS.ProcessEnv): Promise<LocalClient> {
    const [{ openRuntime }, { buildApp }] = await Promise.all([import('./runtime.js'), import('../server/app.js')]);
    const flags = {
      dataDir: choice.dataDir?.value,
      databaseUrl: choice.database?.value,
      baseUrl: choice.baseUrl?.value,
      logLevel: 'silent',
    };
    const runtime = await openRuntime(flags, env, {
      named: { dataDir: choice.dataDir?.name ?? 'default', database: choice.database?.name ?? 'default' },
    });
    let app: FastifyInstance;
    try {
      app = await buildApp({ config: runtime.config, db: runtime.db, local: true });
      await app.ready();
    } catch (err) {
      await runtime.close();
      throw err;
    }
    return new LocalClient(runtime, app, choice.user.value);
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const res = await this.app.inject({
      method: method as 'GET',
      url: path,
      headers: {
        [LOCAL_ACTOR_HEADER]: this.as,
        accept: 'application/vnd.service+json',
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      payload:
        options.upload ??
        (options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body)),
    });
    const headers = flatHeaders(res.headers);
    return { status: res.statusCode, headers, text: res.body, body: parseBody(res.body, headers['content-type']) };
  }

  async settle(queues: readonly string[]): Promise<void> {
    await this.app.hublet.jobs.drain([...queues]);
  }

  async reach(url: string): Promise<Reached> {
    this.gateway ??= import('./local-gateway.js').then(({ openGateway }) => openGateway(this.app, this.as));
    const gateway = await this.gateway;
    // The app's URLs start with the configured base URL, the site's root: its path and query are the app's.
    const target = new URL(url);
    // A URL of another origin (an S3 store's pre-signed archive URL) is reached directly, with no credential of ours.
    if (target.origin !== new URL(this.runtime.config.baseUrl).origin) return { url, token: undefined };
    return { url: gateway.origin + target.pathname + target.search, token: gateway.key };
  }

  serverPath(p: string): string {
    return path.resolve(p);
  }

  async close(): Promise<void> {
    const gateway = this.gateway;
    this.gateway = undefined;
    if (gateway)
      await gateway.then(
        (g) => g.close(),
        () => undefined,
      );
    await this.app.close();
    await this.runtime.close();
  }
}

export class RemoteClient implements Client {
  readonly mode = 'remote' as const;
  constructor(
    private readonly server: string,
    private readonly token: string | undefined,
  ) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { accept: 'application/vnd.service+json', 'user-agent': 'hublet-cli', ...options.headers };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let payload: string | undefined;
    if (options.body !== undefined) {
      payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    let url: URL;
    try {
      url = new URL(this.server.replace(/\/+$/, '') + path);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    } catch {
      throw new CliExit(EXIT.usage, `hublet: --server must be an http(s) URL, got ${JSON.stringify(this.server)}`);
    }
    const { request: httpRequest } = await import('undici');
    let res: Awaited<ReturnType<typeof httpRequest>>;
    try {
      res = await httpRequest(url, { method: method as 'GET', headers, body: options.upload ?? payload });
    } catch (err) {
      throw new CliExit(EXIT.error, `hublet: cannot reach ${this.server}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await res.body.text();
    const flat = flatHeaders(res.headers as Record<string, string | string[]>);
    return { status: res.statusCode, headers: flat, text, body: parseBody(text, flat['content-type']) };
  }

  async settle(): Promise<void> {}

  async reach(url: string, opts: { withToken?: boolean } = {}): Promise<Reached> {
    return { url, token: opts.withToken ? this.token : undefined };
  }

  serverPath(p: string): string {
    return p;
  }

  async close(): Promise<void> {}
}

/** The client of the mode mode.ts chooses (flag > environment > saved credentials); a usage error for contradicting options. */
export async function openClient(opts: GlobalOptions, env: NodeJS.ProcessEnv): Promise<Client> {
  const choice = chooseMode(opts, env);
  if (choice.mode === 'remote') return new RemoteClient(choice.server.value, choice.token?.value);
  return LocalClient.open(choice, env);
}
