// Property-based fuzzing of every registered route with hostile params, queries, headers and bodies: never a 5xx, 4xx in GitHub's shape.
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRoutes, type RouteEntry } from '../helpers/routes.js';
import { seed, type Seeded } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** A fixed seed (reruns are the same run); HUBLET_FUZZ_SEED explores others. fast-check prints seed and counterexample on failure. */
const SEED = Number(process.env.HUBLET_FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.HUBLET_FUZZ_RUNS ?? 400);

let s: TestServer;
let d: Seeded;
let port: number;
let routes: RouteEntry[];
let deliveryId = 1;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 1_000_000, rateLimitAuthenticated: 1_000_000 } });
  port = Number(new URL(s.url).port);
  d = await seed(s);
  routes = listRoutes(s.app);
  // The hook's ping is delivered (and fails: nothing listens on port 9) in the background; wait for its record.
  for (let i = 0; i < 100; i++) {
    const r = await s.api('GET', `/orgs/${d.org}/hooks/${d.hookId}/deliveries`, { token: d.user.token });
    if (Array.isArray(r.body) && r.body.length) {
      deliveryId = r.body[0].id;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
afterAll(async () => {
  agent.destroy();
  await s?.close();
});

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
interface Answer {
  status: number;
  contentType: string;
  body: string;
}

function send(req: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A body always goes with its length: without one, Node sends a GET's or DELETE's body unframed (the next "request").
    const headers: Record<string, string> =
      req.body === undefined ? { ...req.headers } : { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) };
    const r = http.request({ host: '127.0.0.1', port, agent, method: req.method, path: req.path, headers, timeout: 20_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    r.on('timeout', () => r.destroy(new Error('no answer within 20 s')));
    r.on('error', reject);
    r.end(req.body);
  });
}

const GIT_PROTOCOL = /\/(?:info\/refs|git-upload-pack|git-receive-pack)(?:\?|$)/;
/** GitHub's OAuth endpoints for programs answer in OAuth's shape (RFC 6749: `error`, form-encoded or JSON), not the API's. */
const OAUTH_ENDPOINT = /^(?:\/api\/v3)?\/login\/(?:oauth\/access_token|device\/code)(?:\?|$)/;
const NOT_THE_API = new RegExp(
  `${GIT_PROTOCOL.source}|^(?:\\/api\\/v3)?\\/gist\\/[^/?]+\\/[^/?]+\\/raw(?:[/?]|$)|^(?:\\/api\\/v3)?\\/camo\\/`,
);

const cut = (text: string, n: number) => (text.length > n ? `${text.slice(0, n)}…(${text.length} chars)` : text);

/** A request as a failure report shows it: long values cut. */
function describeRequest(req: Sent): string {
  const headers = Object.entries(req.headers).map(([k, v]) => `${k}: ${cut(v, 80)}`);
  return `${req.method} ${cut(req.path, 300)} [${headers.join(' | ')}] body=${req.body === undefined ? '(none)' : cut(JSON.stringify(req.body), 200)}`;
}

/** The properties every answer has, whatever was asked. */
/** A request header by name in any case ('' when not sent). */
function headerOf(req: Sent, name: string): string {
  return Object.entries(req.headers).find(([k]) => k.toLowerCase() === name)?.[1] ?? '';
}

function check(req: Sent, res: Answer): void {
  const what = `${describeRequest(req)} → ${res.status} ${cut(res.body, 300)}`;
  expect(res.status, what).toBeGreaterThanOrEqual(200);
  expect(res.status, what).toBeLessThan(500);
  // Git's smart HTTP answers git clients in text as GitHub does (git prints "Repository not found."), and raw file URLs
  // answer `404: Not Found` as GitHub's raw host does, and the image proxy (`/camo/…`) refuses in text as GitHub's Camo
  // does: there, only no 5xx. A browser's request (Accept: text/html) to
  // a web page's path gets an HTML error page (src/web), checked below for what it says. Every API answer is JSON in
  // GitHub's shape.
  const htmlPage = /text\/html/.test(headerOf(req, 'accept')) && res.contentType.startsWith('text/html');
  if (htmlPage && res.status >= 400 && req.method !== 'HEAD') expect(res.body, what).toMatch(/<!doctype html>/i);
  if (res.status >= 400 && req.method !== 'HEAD' && OAUTH_ENDPOINT.test(req.path)) {
    const fields = res.contentType.includes('json') ? JSON.parse(res.body) : Object.fromEntries(new URLSearchParams(res.body));
    expect(typeof fields.error === 'string' || typeof fields.message === 'string', what).toBe(true);
  } else if (res.status >= 400 && req.method !== 'HEAD' && !NOT_THE_API.test(req.path) && !htmlPage) {
    expect(res.contentType, what).toMatch(/^application\/json/);
    const body = JSON.parse(res.body) as Record<string, unknown>;
    expect(typeof body.message, what).toBe('string');
    expect(body.documentation_url, what).toEqual(expect.stringMatching(/^https:\/\/docs\.github\.com\//));
    expect(body.status, what).toBe(String(res.status));
  }
  // The server runs in this process: a `__proto__` key in a body must not have reached Object.prototype.
  expect(Object.prototype, what).not.toHaveProperty('polluted');
  expect(Object.prototype, what).not.toHaveProperty('admin');
}

// ---- Generators.

const printable = (max: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: max });

/** Values that break parsers: numbers past every bound, signs, exponents, traversal, NUL, encodings, unicode, length. */
const hostileText = fc
  .oneof(
    fc.constantFrom(
      '99999999999999999999',
      '307445734561825861',
      '9007199254740993',
      '2147483648',
      '2147483647',
      '-1',
      '0',
      '00',
      '-0',
      '1e3',
      '1e400',
      '1.5',
      '0x10',
      'NaN',
      'Infinity',
      'null',
      'undefined',
      'true',
      '[]',
      '{}',
      '.',
      '..',
      '...',
      '.git',
      '.git.git',
      '../../etc/passwd',
      ' ',
      '',
      'v1_1',
      'v1_99999999999999999999',
      'v1_-1',
      '2020-01-01T00:00:00Z',
      '+275760-09-13T00:00:00Z',
      '-271821-04-20T00:00:00Z',
      '9999-12-31T23:59:59Z',
      '0000-00-00',
      '2020-13-45T99:99:99Z',
      'é',
      '☃',
      '😀',
      '\u202e',
      '\u0000',
      'a\nb',
      '<script>',
      "'; drop table users; --",
    ),
    fc.integer().map(String),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
    fc.double().map(String),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.constant('9'.repeat(400)),
    fc.constant('a'.repeat(3000)),
  )
  .chain((t) => (t.length > 2048 ? fc.constantFrom(t, t.slice(0, 300)) : fc.constant(t))); // over the router's segment limit half as often

/** A path segment: encoded text, or raw bytes a client could send as they are (pre-encoded, traversal, bad escapes). */
const hostileSegment = fc.oneof(
  { weight: 4, arbitrary: hostileText.map((t) => encodeURIComponent(t)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '..',
      '../..',
      '%00',
      '%zz',
      '%',
      '%2e%2e',
      '%2F',
      '%5C',
      '%c0%ae',
      '%ff',
      '%E2%80%AE',
      ';',
      ':x',
      '*',
      '~',
      '$',
    ),
  },
);

const QUERY_KEYS = [
  'page',
  'per_page',
  'since',
  'before',
  'cursor',
  'status',
  'sort',
  'direction',
  'visibility',
  'affiliation',
  'type',
  'exclude',
  'exclude[]',
  'expires',
  'signature',
  'redelivery',
  'page[]',
  'per_page[]',
  '__proto__',
  'constructor',
  'service',
  'q',
];

const query = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), hostileText), { maxLength: 6 })
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` : ''));

/** A header that is mostly absent: a bad value in each of them on every request would stop most at the first check. */
const optional = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: a });

function headersArb(tokens: { user: string; admin: string }) {
  const auth = fc.oneof(
    { weight: 6, arbitrary: fc.constant(`Bearer ${tokens.user}`) },
    { weight: 2, arbitrary: fc.constant(`token ${tokens.admin}`) },
    { weight: 2, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'token',
          'Basic',
          'Basic !!!',
          'Basic Og==',
          `Basic ${Buffer.from(`x:${tokens.user}`).toString('base64')}`,
          `Bearer ${'a'.repeat(5000)}`,
          'Digest x',
          `Bearer ${tokens.user}x`,
        ),
        printable(80).map((t) => `Bearer hlp_${t}`),
        printable(80),
      ),
    },
  );
  return fc.record({
    accept: optional(
      fc.oneof(
        fc.constantFrom(
          'application/vnd.service+json',
          'application/vnd.service.raw+json',
          'application/vnd.service.base64+json',
          'application/vnd.github.v3.full+json',
          '*/*',
          'text/html',
          '',
        ),
        printable(60),
      ),
    ),
    'x-service-api-version': optional(
      fc.oneof({ weight: 2, arbitrary: fc.constantFrom('2022-11-28', '2026-03-10') }, fc.constantFrom('1999-01-01', ''), printable(40)),
    ),
    'if-none-match': optional(fc.oneof(fc.constantFrom('*', 'W/"abc"', '"', '""', 'W/', 'x'.repeat(5000)), printable(60))),
    'if-modified-since': optional(
      fc.oneof(fc.constantFrom('Thu, 01 Jan 1970 00:00:00 GMT', 'Sat, 13 Sep 275760 00:00:00 GMT', 'yesterday'), printable(40)),
    ),
    authorization: auth,
    // The web's session cookie and form checks: junk, planted and oversized cookies, cross-site markers.
    cookie: optional(
      fc.oneof(
        fc.constantFrom(
          `hublet_session=${'A'.repeat(43)}`,
          'hublet_session=',
          'hublet_csrf=x; hublet_session=../../',
          '=;;=',
          `hublet_session=${'x'.repeat(5000)}`,
        ),
        printable(80).map((t) => `hublet_session=${t}`),
      ),
    ),
    'sec-fetch-site': optional(fc.constantFrom('same-origin', 'cross-site', 'same-site', 'none', '')),
    origin: optional(fc.constantFrom('http://127.0.0.1', 'null', 'https://evil.example', '')),
    'content-type': optional(
      fc.oneof(
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          ';;;',
          'application/json; charset=utf-16',
          'application/x-git-receive-pack-request',
        ),
        printable(60),
      ),
    ),
  });
}

const FIELDS = [
  'name',
  'files',
  'description',
  'public',
  'config',
  'url',
  'content_type',
  'secret',
  'insecure_ssl',
  'events',
  'active',
  'add_events',
  'remove_events',
  'repositories',
  'lock_repositories',
  'exclude_metadata',
  'exclude_git_data',
  'exclude_attachments',
  'exclude_releases',
  'exclude_owner_projects',
  'org_metadata_only',
  'exclude',
  'body',
  'login',
  'email',
  'site_admin',
  'admin',
  'scopes',
  'kind',
  'permissions',
  'app_id',
  'expires_at',
  'note',
  'private',
  'visibility',
  'auto_init',
  'homepage',
  'has_issues',
  'default_branch',
  'archived',
  'owner',
  'path',
  'role',
  'content',
  'filename',
];

const leaf = fc.oneof(hostileText, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(1e308), fc.constant(-0));
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(hostileText, tie('v'), { maxKeys: 4 }),
  ),
})).v;

const files = fc.dictionary(
  fc.oneof(hostileText, fc.constantFrom('a.txt', 'A.TXT', 'dir/x', '.git/config', '')),
  fc.oneof(
    fc.constant(null),
    fc.record({ content: fc.oneof(hostileText, value), filename: fc.oneof(hostileText, value) }, { requiredKeys: [] }),
    value,
  ),
  { maxKeys: 4 },
);
const hookConfig = fc.record(
  {
    url: fc.oneof(
      hostileText,
      fc.constantFrom('http://127.0.0.1:9/x', 'http://169.254.169.254/', 'ftp://x', 'http://[::1]:9/', 'http://a:b@127.0.0.1:9/'),
    ),
    content_type: hostileText,
    secret: hostileText,
    insecure_ssl: fc.oneof(hostileText, value),
  },
  { requiredKeys: [] },
);

const objectBody = fc
  .dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 })
  .chain((o) => fc.record({ o: fc.constant(o), files: optional(files), config: optional(hookConfig) }))
  .map(({ o, files: f, config }) => JSON.stringify({ ...o, ...(f ? { files: f } : {}), ...(config ? { config } : {}) }));

/** Forms as browsers and OAuth clients post them: the sign-in, token, OAuth and device fields, repeated, empty or junk. */
const FORM_FIELDS = [
  'authenticity_token',
  'login',
  'password',
  'return_to',
  'client_id',
  'client_secret',
  'code',
  'device_code',
  'user_code',
  'grant_type',
  'redirect_uri',
  'state',
  'scope',
  'note',
  'scopes',
  'email',
  'invitation',
];
const formBody = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...FORM_FIELDS), hostileText), hostileText), { maxLength: 6 })
  .map((pairs) => new URLSearchParams(pairs).toString());

const body = fc.oneof(
  { weight: 5, arbitrary: objectBody },
  { weight: 2, arbitrary: formBody },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '{',
      '{"a":',
      '[',
      'nul',
      '\u0000',
      '{"a":1}garbage',
      '\xff\xfe',
      '{"a":1,"a":2}',
      '[]',
      '"x"',
      '1',
      'null',
      'true',
      '',
      '{"__proto__":{"polluted":1,"admin":true},"name":"x"}',
      '{"constructor":{"prototype":{"polluted":1}}}',
      '{"files":{"__proto__":{"content":"x"}}}',
      '{"config":{"__proto__":{"url":"http://127.0.0.1:9/"}}}',
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 100, max: 200_000 })
      .chain((n) =>
        fc.constantFrom(
          '['.repeat(n) + ']'.repeat(n),
          `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`,
          `{"files":${'{"a":'.repeat(n)}1${'}'.repeat(n + 1)}`,
        ),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      JSON.stringify({ description: 'x'.repeat(1 << 20) }),
      JSON.stringify({ name: 'y'.repeat(200_000), body: 'z'.repeat(70_000) }),
      JSON.stringify({ files: { 'big.txt': { content: 'c'.repeat(1 << 20) } } }),
      JSON.stringify({ repositories: Array.from({ length: 5000 }, (_, i) => `r${i}`) }),
      JSON.stringify({ events: Array.from({ length: 5000 }, () => 'push') }),
    ),
  },
);

const hook = { url: 'http://127.0.0.1:9/h', content_type: 'json', secret: 's3cret', insecure_ssl: '0' };

/** A valid body of each write, by path template: mutated below so requests get past the first check and deeper. */
const TEMPLATES: [RegExp, Record<string, unknown>][] = [
  [/^\/gists(\/:gist_id)?$/, { description: 'd', public: true, files: { 'a.txt': { content: 'x' }, 'b.md': { content: '# b' } } }],
  [/^\/gists\/:gist_id\/comments/, { body: 'a comment' }],
  [/^\/(user|orgs\/:org)\/repos$/, { name: 'fresh', description: 'd', homepage: 'https://example.com', private: false, auto_init: true }],
  [
    /^\/repos\/:owner\/:repo$/,
    { name: 'renamed', description: 'd', homepage: 'h', private: false, default_branch: 'main', archived: false, has_issues: true },
  ],
  [/^\/orgs\/:org\/hooks$/, { name: 'web', config: hook, events: ['push', 'repository'], active: true }],
  [/^\/orgs\/:org\/hooks\/:hook_id$/, { config: hook, events: ['*'], add_events: ['meta'], remove_events: ['push'], active: false }],
  [/^\/orgs\/:org\/hooks\/:hook_id\/config$/, hook],
  [
    /migrations$/,
    {
      repositories: ['hello'],
      lock_repositories: false,
      exclude_metadata: false,
      exclude_git_data: true,
      exclude_attachments: false,
      exclude_releases: false,
      exclude_owner_projects: false,
      org_metadata_only: false,
      exclude: ['repositories'],
    },
  ],
  [/memberships/, { role: 'member' }],
  [/^\/admin\/users$/, { login: 'someone', email: 'someone@example.com', site_admin: false }],
  [
    /authorizations$/,
    {
      scopes: ['gist', 'repo'],
      kind: 'classic',
      note: 'n',
      expires_at: '2030-01-01T00:00:00Z',
      permissions: { gists: 'write' },
      app_id: 1,
    },
  ],
  [/^\/admin\/organizations$/, { login: 'another-org', admin: 'mona', profile_name: 'Another' }],
  [/^\/admin\/repos\/import$/, { owner: 'mona', name: 'imported', path: '/nonexistent', private: false, description: null }],
];

/** A route's valid body with some fields replaced by hostile values, or dropped. */
function nearValidBody(route: RouteEntry): fc.Arbitrary<string> | undefined {
  const template = TEMPLATES.find(([re]) => re.test(route.url))?.[1];
  if (!template) return undefined;
  const keys = [...Object.keys(template), 'files', 'config'];
  const replacement = (key: string) => (key === 'files' ? files : key === 'config' ? hookConfig : value);
  return fc
    .array(fc.constantFrom(...keys), { minLength: 1, maxLength: 3 })
    .chain((chosen) =>
      fc.tuple(fc.constant(chosen), fc.tuple(...chosen.map((k) => fc.option(replacement(k), { nil: undefined, freq: 5 })))),
    )
    .map(([chosen, values]) => {
      const out: Record<string, unknown> = { ...template };
      for (const [i, k] of chosen.entries()) {
        if (values[i] === undefined) delete out[k];
        else out[k] = values[i];
      }
      return JSON.stringify(out);
    });
}

/** The value a seeded resource has for a path parameter of this name, so requests also reach past the lookups. */
function seededValue(name: string): string {
  const values: Record<string, string> = {
    owner: d.user.login,
    repo: d.repo,
    repo_name: d.repo,
    username: d.user.login,
    org: d.org,
    gist_id: d.gistId,
    sha: d.gistVersion,
    filename: 'a.txt',
    comment_id: String(d.commentId),
    hook_id: String(d.hookId),
    delivery_id: String(deliveryId),
    migration_id: String(d.userMigrationId),
    id: String(d.repoId),
    file: 'x.tar.gz',
  };
  return values[name] ?? 'x';
}

const PARAM = /:([A-Za-z_]\w*(?:\|:[A-Za-z_]\w*)*)/g;

/** One request to one of the routes: each parameter a seeded value or a hostile one, a hostile query, headers and body. */
function requestArb(pick: (r: RouteEntry) => boolean, withBody: boolean): fc.Arbitrary<Sent> {
  const chosen = routes.filter(pick);
  const bodyFor = (route: RouteEntry) => {
    if (!withBody) return fc.constant(undefined);
    const near = nearValidBody(route);
    return near ? fc.oneof({ weight: 3, arbitrary: near }, { weight: 2, arbitrary: body }) : body;
  };
  return fc
    .constantFrom(...chosen)
    .chain((route) =>
      fc.record({
        route: fc.constant(route),
        segments: fc.array(fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: hostileSegment }), {
          minLength: 6,
          maxLength: 6,
        }),
        choice: fc.nat(),
        query,
        headers: headersArb({ user: d.user.token, admin: s.adminToken }),
        body: bodyFor(route),
        prefix: fc.constantFrom('', '', '', '/api/v3'),
      }),
    )
    .map(({ route, segments, choice, query: q, headers, body: b, prefix }) => {
      let i = 0;
      const path = route.url.replace(PARAM, (_, names: string) => {
        const options = names.split('|:');
        const segment = segments[i++ % segments.length];
        return segment ?? encodeURIComponent(seededValue(options[choice % options.length]));
      });
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) if (v !== undefined) h[k] = v;
      const sent: Sent = { method: route.method, path: `${prefix}${path}${q}`, headers: h, body: b };
      return Object.assign(sent, { [fc.toStringMethod]: () => describeRequest(sent) });
    });
}

const params = (runs: number) => ({ numRuns: runs, seed: SEED, interruptAfterTimeLimit: 40_000, markInterruptAsFailure: false });

describe('every route under hostile input', () => {
  it('reads (GET, HEAD): never a 5xx, every 4xx in GitHub shape', async () => {
    await fc.assert(
      fc.asyncProperty(
        requestArb((r) => r.method === 'GET' || r.method === 'HEAD', false),
        async (req) => check(req, await send(req)),
      ),
      params(RUNS),
    );
  }, 120_000);

  it('writes (POST, PATCH, PUT) with hostile bodies: never a 5xx, every 4xx in GitHub shape', async () => {
    await fc.assert(
      fc.asyncProperty(
        requestArb((r) => ['POST', 'PATCH', 'PUT'].includes(r.method), true),
        async (req) => check(req, await send(req)),
      ),
      params(RUNS),
    );
  }, 120_000);

  it('deletes: never a 5xx, every 4xx in GitHub shape', async () => {
    await fc.assert(
      fc.asyncProperty(
        requestArb((r) => r.method === 'DELETE', true),
        async (req) => check(req, await send(req)),
      ),
      params(Math.ceil(RUNS / 4)),
    );
  }, 120_000);

  it('is still serving afterwards', async () => {
    const r = await s.api('GET', '/');
    expect(r.status).toBe(200);
    expect(r.body.current_user_url).toBe(`${s.url}/user`);
  });
});
