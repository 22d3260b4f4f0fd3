// Shared by the `hublet gist …` tests: making and reading gists through the test server's API, and a gist's contents.
import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.js';

type Gist = any;

/** newGist/getGist against the server `server()` returns (a getter: the tests start their server in beforeAll). */
export function gistApi(server: () => TestServer) {
  return {
    async newGist(token: string, contents: Record<string, string>, extra: { public?: boolean; description?: string } = {}): Promise<Gist> {
      const r = await server().api('POST', '/gists', {
        token,
        body: { ...extra, files: Object.fromEntries(Object.entries(contents).map(([k, v]) => [k, { content: v }])) },
      });
      expect(r.status, r.text).toBe(201);
      return r.body;
    },
    async getGist(id: string): Promise<Gist> {
      const r = await server().api('GET', `/gists/${id}`);
      expect(r.status, r.text).toBe(200);
      return r.body;
    },
  };
}

/** filename → content of a gist as the API returned it. */
export const contentsOf = (g: Gist): Record<string, string> =>
  Object.fromEntries(Object.entries(g.files).map(([k, f]: [string, any]) => [k, f.content]));
