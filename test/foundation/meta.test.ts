// GET /meta in GitHub Enterprise Server's shape (what GitHub Enterprise Importer and GitHub Desktop read), /zen,
// /octocat and /emojis: no credentials needed, under the /api/v3 prefix too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterpriseVersion } from '../../src/http/meta-routes.js';
import { VERSION } from '../../src/version.js';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;

beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s?.close());

describe('GET /meta', () => {
  it('answers GitHub Enterprise Server’s shape without credentials: installed_version, no password authentication', async () => {
    const r = await s.api('GET', '/meta');
    expect(r.status).toBe(200);
    checkSchema(r, 'GET /meta');
    expect(r.body).toEqual({
      verifiable_password_authentication: false,
      packages: [],
      domains: { website: [], codespaces: [], copilot: [], packages: [], storage: [], actions: [] },
      installed_version: enterpriseVersion(VERSION),
    });
    expect(r.body.installed_version).toMatch(/^3\.\d+\.\d+$/);
  });

  it('answers the same under /api/v3, as GitHub Enterprise Importer asks it (with a token too)', async () => {
    const r = await s.api('GET', '/api/v3/meta', { token: s.adminToken });
    expect(r.status).toBe(200);
    expect(r.body.installed_version).toBe(enterpriseVersion(VERSION));
  });

  it('maps hublet 0.MINOR.PATCH to 3.MINOR.PATCH', () => {
    expect(enterpriseVersion('0.1.0')).toBe('3.1.0');
    expect(enterpriseVersion('0.12.4')).toBe('3.12.4');
    expect(enterpriseVersion('0.2.0-rc.1')).toBe('3.2.0');
  });
});

describe('GET /zen, /octocat, /emojis', () => {
  it('/zen answers one line of GitHub’s design philosophy as text', async () => {
    const r = await s.api('GET', '/zen');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(r.text).toMatch(/^[A-Z][^\n]+\.$/);
    checkSchema({ ...r, text: '' }, 'GET /zen');
  });

  it('/octocat draws the octocat saying ?s=, or a line of zen', async () => {
    const said = await s.api('GET', '/octocat?s=Hello%20hublet');
    expect(said.status).toBe(200);
    expect(said.headers.get('content-type')).toBe('application/octocat-stream');
    expect(said.text).toContain('| Hello hublet |');
    expect(said.text).toContain('MMM.           .MMM');
    // The bubble is closed: its top, sides and bottom are as wide as the text and a space either side.
    const lines = said.text.split('\n');
    const inner = 'Hello hublet'.length + 2;
    const left = lines.findIndex((l) => l.includes('| Hello hublet |'));
    const column = lines[left].indexOf('|');
    expect(lines[left - 2].slice(column + 1)).toBe('_'.repeat(inner));
    expect(lines[left - 1].slice(column)).toBe(`|${' '.repeat(inner)}|`);
    expect(lines[left + 1].slice(column)).toBe(`|_   ${'_'.repeat(inner - 4)}|`);
    const short = await s.api('GET', '/octocat?s=a');
    expect(short.text).toContain('| a  |');
    checkSchema({ ...said, text: '' }, 'GET /octocat');
    const zen = await s.api('GET', '/octocat');
    expect(zen.text).toMatch(/\| [A-Z][^|]+\. \|/);
  });

  it('/emojis maps names to image URLs under the server’s own base', async () => {
    const r = await s.api('GET', '/emojis');
    expect(r.status).toBe(200);
    checkSchema(r, 'GET /emojis');
    expect(r.body['+1']).toBe(`${s.url}/images/icons/emoji/unicode/1f44d.png?v8`);
    expect(Object.keys(r.body).length).toBeGreaterThan(10);
    for (const url of Object.values(r.body)) expect(String(url).startsWith(`${s.url}/`)).toBe(true);
  });
});
