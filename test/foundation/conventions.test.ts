// API conventions every area shares: error bodies, both prefixes, versioning, media types, 304s and rate-limit headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s?.close());

describe('errors', () => {
  it('answers unknown routes with a GitHub-shaped 404', async () => {
    const r = await s.api('GET', '/no/such/route');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ message: 'Not Found', documentation_url: expect.any(String), status: '404' });
  });

  it('answers malformed JSON with 400 Problems parsing JSON', async () => {
    const r = await s.api('POST', '/admin/users', { token: s.adminToken, body: '{"login": ' });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Problems parsing JSON');
    expect(r.body.status).toBe('400');
  });

  it('answers a JSON body that is not an object with 400', async () => {
    for (const body of ['[1,2]', '"text"', '42', 'null']) {
      const r = await s.api('POST', '/admin/users', { token: s.adminToken, body });
      expect(r.status, body).toBe(400);
      expect(r.body.message).toBe('Body should be a JSON object');
    }
  });

  it('answers a body of the wrong shape with 422 Validation Failed naming the field', async () => {
    const wrongType = await s.api('POST', '/admin/users', { token: s.adminToken, body: { login: 12 } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.message).toBe('Validation Failed');
    expect(wrongType.body.errors).toEqual([expect.objectContaining({ resource: 'User', field: 'login', code: 'invalid' })]);
    const missing = await s.api('POST', '/admin/users', { token: s.adminToken, body: { email: 'x@example.com' } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ resource: 'User', field: 'login', code: 'missing_field' }]);
  });

  it('reads a JSON body sent with a form content type, as curl -d does', async () => {
    const r = await s.api('POST', '/admin/users', {
      token: s.adminToken,
      body: JSON.stringify({ login: 'curl-user' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(201);
    expect(r.body.login).toBe('curl-user');
  });

  it('refuses bodies over the configured limit with 413', async () => {
    const small = await startServer({ config: { bodyLimitBytes: 2048 } });
    try {
      const r = await small.api('POST', '/admin/users', { token: small.adminToken, body: { login: 'big', email: 'x'.repeat(5000) } });
      expect(r.status).toBe(413);
      expect(r.body.status).toBe('413');
      expect(r.body.message).toMatch(/too large/i);
    } finally {
      await small.close();
    }
  });
});

describe('prefixes', () => {
  it('serves the same answer at / and /api/v3/, its API links under the prefix it was asked with', async () => {
    const a = await s.api('GET', '/users/admin');
    const b = await s.api('GET', '/api/v3/users/admin');
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(JSON.parse(b.text.replaceAll(`${s.url}/api/v3/`, `${s.url}/`))).toEqual(a.body);
    expect(a.body.url).toBe(`${s.url}/users/admin`);
    expect(b.body.url).toBe(`${s.url}/api/v3/users/admin`);
    expect(b.body.html_url).toBe(`${s.url}/admin`);
  });
});

describe('versioning and media types', () => {
  it('selects the default version when none is sent', async () => {
    const r = await s.api('GET', '/users/admin');
    expect(r.headers.get('x-service-api-version-selected')).toBe('2022-11-28');
    expect(r.headers.get('x-service-media-type')).toBe('service.v3; format=json');
  });

  it('accepts both supported versions', async () => {
    for (const v of ['2022-11-28', '2026-03-10']) {
      const r = await s.api('GET', '/users/admin', { headers: { 'x-service-api-version': v } });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-service-api-version-selected')).toBe(v);
    }
  });

  it('refuses an unsupported version with 400 naming the supported ones', async () => {
    const r = await s.api('GET', '/users/admin', { headers: { 'x-service-api-version': '2021-01-01' } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('2022-11-28');
    expect(r.body.message).toContain('2026-03-10');
  });

  it('serves any accept value and names the media type it chose', async () => {
    for (const accept of ['application/vnd.github.v3+json', '*/*', 'text/html', 'application/vnd.service.raw+json']) {
      const r = await s.api('GET', '/users/admin', { headers: { accept } });
      expect(r.status, accept).toBe(200);
    }
    const raw = await s.api('GET', '/users/admin', { headers: { accept: 'application/vnd.service.raw+json' } });
    expect(raw.headers.get('x-service-media-type')).toBe('service.v3; param=raw; format=json');
  });

  it('names a preview media type as GitHub does: its own name, no param (Octokit.rb asks for migrations so)', async () => {
    for (const accept of ['application/vnd.github.wyandotte-preview+json', 'application/vnd.service.wyandotte-preview+json']) {
      const r = await s.api('GET', '/users/admin', { headers: { accept } });
      expect(r.status, accept).toBe(200);
      expect(r.headers.get('x-service-media-type'), accept).toBe('service.wyandotte-preview; format=json');
    }
  });
});

describe('conditional requests', () => {
  it('answers If-None-Match with 304 and no body', async () => {
    const first = await s.api('GET', '/users/admin');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await s.api('GET', '/users/admin', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const other = await s.api('GET', '/users/admin', { headers: { 'if-none-match': 'W/"something-else"' } });
    expect(other.status).toBe(200);
  });

  it('answers If-Modified-Since with 304 when nothing changed since', async () => {
    const first = await s.api('GET', '/users/admin');
    const lastModified = first.headers.get('last-modified');
    expect(lastModified).toBeTruthy();
    const again = await s.api('GET', '/users/admin', { headers: { 'if-modified-since': lastModified! } });
    expect(again.status).toBe(304);
    const older = await s.api('GET', '/users/admin', { headers: { 'if-modified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' } });
    expect(older.status).toBe(200);
  });
});

describe('rate limits', () => {
  it('counts requests per caller and refuses past the limit with 403 and Retry-After', async () => {
    const limited = await startServer({ config: { rateLimitAnonymous: 3, rateLimitAuthenticated: 5 } });
    try {
      const r1 = await limited.api('GET', '/users/admin');
      expect(r1.headers.get('x-ratelimit-limit')).toBe('3');
      expect(r1.headers.get('x-ratelimit-remaining')).toBe('2');
      expect(r1.headers.get('x-ratelimit-used')).toBe('1');
      expect(r1.headers.get('x-ratelimit-resource')).toBe('core');
      expect(Number(r1.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      await limited.api('GET', '/users/admin');
      await limited.api('GET', '/users/admin');
      const over = await limited.api('GET', '/users/admin');
      expect(over.status).toBe(403);
      expect(over.body.message).toMatch(/^API rate limit exceeded for 127\.0\.0\.1\./);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
      // An authenticated caller has its own, larger budget.
      const authed = await limited.api('GET', '/user', { token: limited.adminToken });
      expect(authed.status).toBe(200);
      expect(authed.headers.get('x-ratelimit-limit')).toBe('5');
      // GET /rate_limit does not count and reports the budget.
      const rl = await limited.api('GET', '/rate_limit', { token: limited.adminToken });
      expect(rl.status).toBe(200);
      expect(rl.body.resources.core).toEqual({ limit: 5, used: 1, remaining: 4, reset: expect.any(Number) });
      expect(rl.body.rate).toEqual(rl.body.resources.core);
    } finally {
      await limited.close();
    }
  });
});

describe('pagination', () => {
  /** Parses a Link header into {rel: url}. */
  function links(header: string | null): Record<string, string> {
    const out: Record<string, string> = {};
    for (const part of (header ?? '').split(',')) {
      const m = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim());
      if (m) out[m[2]] = m[1];
    }
    return out;
  }

  it('writes first, prev, next and last links as GitHub does, keeping other query parameters', async () => {
    await s.createUser('pager');
    for (let i = 0; i < 7; i++) await s.createToken('pager', { scopes: [] });
    const path = '/admin/users/pager/authorizations';
    const first = await s.api('GET', `${path}?per_page=3`, { token: s.adminToken });
    expect(first.body).toHaveLength(3);
    expect(links(first.headers.get('link'))).toEqual({
      next: `${s.url}${path}?per_page=3&page=2`,
      last: `${s.url}${path}?per_page=3&page=3`,
    });
    const middle = await s.api('GET', `${path}?per_page=3&page=2`, { token: s.adminToken });
    expect(links(middle.headers.get('link'))).toEqual({
      prev: `${s.url}${path}?per_page=3&page=1`,
      next: `${s.url}${path}?per_page=3&page=3`,
      last: `${s.url}${path}?per_page=3&page=3`,
      first: `${s.url}${path}?per_page=3&page=1`,
    });
    const last = await s.api('GET', `${path}?per_page=3&page=3`, { token: s.adminToken });
    expect(last.body).toHaveLength(1);
    expect(Object.keys(links(last.headers.get('link')))).toEqual(['prev', 'first']);
    // Octokit follows the same links to the end.
    const all = await s.octokit(s.adminToken).paginate('GET /admin/users/{username}/authorizations', { username: 'pager', per_page: 2 });
    expect(all).toHaveLength(7);
  });

  it('caps per_page at 100 and falls back to defaults for nonsense values', async () => {
    const capped = await s.api('GET', '/admin/users/pager/authorizations?per_page=1000', { token: s.adminToken });
    expect(capped.status).toBe(200);
    expect(capped.body).toHaveLength(7);
    const nonsense = await s.api('GET', '/admin/users/pager/authorizations?per_page=abc&page=-4', { token: s.adminToken });
    expect(nonsense.status).toBe(200);
    expect(nonsense.body).toHaveLength(7);
  });
});
