// A real OpenID provider for the single sign-on tests: the certified `oidc-provider` package over HTTPS on loopback,
// its certificate from a test CA (tls.ts), one confidential client (PKCE required) whose redirect URIs the tests add
// as hublet servers start, people (sub → claims) the tests add, and its built-in development sign-in and consent pages.
// ProviderBrowser plays the person at the provider (trusting the test CA, with its own cookies): it signs in as a
// given `sub` (any password), consents or cancels, and hands back the redirect to hublet's callback.
// singleSignOnHarness: the provider and `hublet serve` processes set up for it, and a person's way through both.
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect } from 'vitest';
import { connect, type Db } from '../../src/db/connect.js';
// @ts-expect-error oidc-provider ships no type declarations (its own types are JSDoc only)
import Provider from 'oidc-provider';
import { serveProcesses } from './serve-process.js';
import { makeTestCertificates, type TestCertificates } from './tls.js';
import { WebClient, type WebResponse } from './web-client.js';

type Handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people who can sign in at the provider: their `sub` and the claims it gives for them. */
  accounts: Map<string, Record<string, unknown>>;
  /** Registers another redirect URI for the client (a hublet server's callback). */
  allowRedirectUri(uri: string): void;
  /** While true, the provider publishes a key of the same id that did not sign its tokens (a forged signature's view). */
  publishWrongKeys: boolean;
  /** While true, every request gets 503 (a provider that is down). */
  down: boolean;
  close(): Promise<void>;
}

function signingKey(kid: string): Record<string, unknown> {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
}

/** The public half of a private JWK. */
function publicJwk(jwk: Record<string, unknown>): Record<string, unknown> {
  const { kty, n, e, kid, alg, use } = jwk;
  return { kty, n, e, kid, alg, use };
}

async function startOidcProvider(certs: TestCertificates): Promise<TestOidcProvider> {
  const key = signingKey('test-key');
  const wrongKeys = JSON.stringify({ keys: [publicJwk(signingKey('test-key'))] });
  let handler: Handler = (_req, res) => res.writeHead(503).end();
  const server = https.createServer({ key: fs.readFileSync(certs.keyFile), cert: fs.readFileSync(certs.certFile) }, (req, res) => {
    if (op.down) return res.writeHead(503).end();
    if (op.publishWrongKeys && req.url === '/jwks') return res.writeHead(200, { 'content-type': 'application/json' }).end(wrongKeys);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const redirectUris: string[] = [];
  const accounts = new Map<string, Record<string, unknown>>();
  const op: TestOidcProvider = {
    issuer,
    clientId: 'hublet-test',
    clientSecret: crypto.randomBytes(24).toString('base64url'),
    accounts,
    publishWrongKeys: false,
    down: false,
    allowRedirectUri(uri) {
      redirectUris.push(uri);
      const provider = new Provider(issuer, {
        clients: [{ client_id: op.clientId, client_secret: op.clientSecret, redirect_uris: [...redirectUris] }],
        async findAccount(_ctx: unknown, sub: string) {
          const claims = accounts.get(sub);
          return claims && { accountId: sub, claims: async () => ({ sub, ...claims }) };
        },
        claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email', 'email_verified'] },
        pkce: { required: () => true },
        jwks: { keys: [key] },
        cookies: { keys: ['hublet test provider cookies'] },
        features: { devInteractions: { enabled: true } },
      });
      handler = provider.callback();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return op;
}

interface ProviderResponse {
  status: number;
  location: string;
  text: string;
}

/** A person's browser at the provider: trusts the test CA, keeps the provider's cookies, follows nothing by itself. */
class ProviderBrowser {
  private readonly cookies = new Map<string, string>();
  private readonly agent: Agent;

  constructor(certs: TestCertificates) {
    this.agent = new Agent({ connect: { ca: fs.readFileSync(certs.caFile) } });
  }

  private async send(url: string, method: 'GET' | 'POST', form?: Record<string, string>): Promise<ProviderResponse> {
    const res = await request(url, {
      method,
      dispatcher: this.agent,
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const setCookie = res.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const location = res.headers.location;
    const absolute = typeof location === 'string' ? new URL(location, url).href : '';
    return { status: res.statusCode, location: absolute, text: await res.body.text() };
  }

  get(url: string): Promise<ProviderResponse> {
    return this.send(url, 'GET');
  }

  post(url: string, form: Record<string, string>): Promise<ProviderResponse> {
    return this.send(url, 'POST', form);
  }

  /**
   * From the authorization URL hublet redirected to: signs in at the provider as `sub` and consents (or cancels at the
   * sign-in page), following the provider's redirects and pages; returns the redirect that leaves the provider.
   */
  async signIn(authorizationUrl: string, sub: string, opts: { cancel?: boolean } = {}): Promise<string> {
    const origin = new URL(authorizationUrl).origin;
    let r = await this.get(authorizationUrl);
    for (let step = 0; step < 12; step++) {
      if (r.location) {
        if (new URL(r.location).origin !== origin) return r.location;
        r = await this.get(r.location);
        continue;
      }
      const action = /<form[^>]*action="([^"]+)"/.exec(r.text)?.[1];
      const prompt = /name="prompt" value="([^"]+)"/.exec(r.text)?.[1];
      if (r.status !== 200 || !action || !prompt) throw new Error(`the provider answered ${r.status}: ${r.text.slice(0, 500)}`);
      const submit = new URL(action.replace(/&amp;/g, '&'), origin).href;
      if (opts.cancel) r = await this.get(`${submit}/abort`);
      else if (prompt === 'login') r = await this.post(submit, { prompt, login: sub, password: 'any password' });
      else r = await this.post(submit, { prompt });
    }
    throw new Error('the provider never sent the browser back');
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** A `hublet serve` set up for the test provider, and what the test reads of it. */
export interface SsoHublet {
  url: string;
  /** Its database, opened by the test (rows are what the tests check). */
  db: Db;
  adminToken: string;
  /** HUBLET_SECRET_KEY (hex): lets a test seal a cookie as the server does. */
  secretKey: string;
}

export interface SsoHarness {
  /** The provider (started in the file's beforeAll). */
  readonly op: TestOidcProvider;
  /** Starts hublet for the provider; it trusts the test CA only through NODE_EXTRA_CA_CERTS, unless told not to. */
  startHublet(name: string, opts: { autoCreate?: boolean; passwordSignIn?: boolean; trustProvider?: boolean }): Promise<SsoHublet>;
  /** The API as the site admin. */
  api(h: SsoHublet, method: string, route: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** GET /login/oidc: hublet's redirect to the provider. */
  startAt(web: WebClient, returnTo?: string): Promise<WebResponse>;
  /** Signs in at the provider as `sub` (a browser of its own there); returns where it sends the person back. */
  throughProvider(authorizationUrl: string, sub: string, opts?: { cancel?: boolean }): Promise<string>;
  /** The whole way: hublet → provider (sign in as `sub`, consent) → hublet's callback, whose response is `callback`. */
  signInAs(
    h: SsoHublet,
    sub: string,
    opts?: { web?: WebClient; returnTo?: string },
  ): Promise<{ web: WebClient; start: WebResponse; back: string; callback: WebResponse }>;
}

/** The provider and hublet servers for one test file (registers its beforeAll and afterAll). */
export function singleSignOnHarness(): SsoHarness {
  const procs = serveProcesses();
  let certs: TestCertificates | undefined;
  let provider: TestOidcProvider | undefined;
  const databases: Db[] = [];
  beforeAll(async () => {
    certs = await makeTestCertificates(path.join(procs.sandbox.root, 'tls'));
    provider = await startOidcProvider(certs);
  }, 60_000);
  afterAll(async () => {
    for (const db of databases) await db.destroy();
    await provider?.close();
  });
  const ready = () => {
    if (!provider || !certs) throw new Error('singleSignOnHarness: the provider starts in beforeAll');
    return { op: provider, certs };
  };

  const harness: SsoHarness = {
    get op() {
      return ready().op;
    },
    async startHublet(name, opts) {
      const { op, certs } = ready();
      const fresh = await procs.freshDataDir(name);
      const adminToken = `hlp_${crypto.randomBytes(18).toString('hex')}`;
      const secretKey = crypto.randomBytes(32).toString('hex');
      const p = await procs.serve(
        [
          ...['--port', '0', '--data', fresh.dir, ...fresh.args, '--log-level', 'silent'],
          ...['--oidc-issuer', op.issuer, '--oidc-client-id', op.clientId, '--oidc-name', 'Team <b>SSO</b>'],
          ...(opts.autoCreate ? ['--oidc-auto-create'] : []),
          ...(opts.passwordSignIn === false ? ['--no-password-signin'] : []),
        ],
        {
          HUBLET_OIDC_CLIENT_SECRET: op.clientSecret,
          HUBLET_ADMIN_TOKEN: adminToken,
          HUBLET_SECRET_KEY: secretKey,
          NODE_EXTRA_CA_CERTS: opts.trustProvider === false ? undefined : certs.caFile,
        },
      );
      op.allowRedirectUri(`${p.url}/login/oidc/callback`);
      const db = connect(fresh.db.url);
      databases.push(db);
      return { url: p.url, db, adminToken, secretKey };
    },
    async api(h, method, route, body) {
      const res = await fetch(`${h.url}${route}`, {
        method,
        headers: { authorization: `Bearer ${h.adminToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async startAt(web, returnTo) {
      const start = await web.get(returnTo === undefined ? '/login/oidc' : `/login/oidc?return_to=${encodeURIComponent(returnTo)}`);
      expect(start.status, start.text).toBe(303);
      expect(start.location.startsWith(`${ready().op.issuer}/`)).toBe(true);
      return start;
    },
    async throughProvider(authorizationUrl, sub, opts = {}) {
      const browser = new ProviderBrowser(ready().certs);
      try {
        return await browser.signIn(authorizationUrl, sub, opts);
      } finally {
        await browser.close();
      }
    },
    async signInAs(h, sub, opts = {}) {
      const web = opts.web ?? new WebClient(h.url);
      const start = await harness.startAt(web, opts.returnTo);
      const back = await harness.throughProvider(start.location, sub);
      expect(back.startsWith(`${h.url}/login/oidc/callback?`), back).toBe(true);
      return { web, start, back, callback: await web.get(back) };
    },
  };
  return harness;
}
