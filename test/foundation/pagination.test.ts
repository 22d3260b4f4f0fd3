// pagedList, the sequence every paged list's route runs: parse the paging, load the page, set `Link`, present the page.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { pagedList, type Paging } from '../../src/http/pagination.js';

const BASE = 'http://hublet.test';

/** Just what pagedList reads of a request (its query, URL and the API's URLs) and writes to a reply (headers). */
function exchange(url: string) {
  const query = Object.fromEntries(new URL(url, BASE).searchParams);
  const request = { url, query, ctx: { urls: { api: (path: string) => `${BASE}${path}` } } } as unknown as FastifyRequest;
  const headers: Record<string, string> = {};
  const reply = {
    header(name: string, value: string) {
      headers[name] = value;
      return this;
    },
  } as unknown as FastifyReply;
  return { request, reply, headers };
}

describe('pagedList', () => {
  it('loads the requested page, sets Link from its total and answers with the presented page', async () => {
    const { request, reply, headers } = exchange('/things?per_page=2&page=2&sort=name');
    const asked: Paging[] = [];
    const page = { rows: ['c', 'd'], total: 7, owner: 'o' };
    const body = await pagedList(
      request,
      reply,
      async (paging) => {
        asked.push(paging);
        return page;
      },
      (p) => p.rows.map((r) => `${p.owner}/${r}`),
    );
    expect(asked).toEqual([{ page: 2, perPage: 2, offset: 2 }]);
    expect(body).toEqual(['o/c', 'o/d']);
    expect(headers.link).toBe(
      [
        `<${BASE}/things?per_page=2&page=1&sort=name>; rel="prev"`,
        `<${BASE}/things?per_page=2&page=3&sort=name>; rel="next"`,
        `<${BASE}/things?per_page=2&page=4&sort=name>; rel="last"`,
        `<${BASE}/things?per_page=2&page=1&sort=name>; rel="first"`,
      ].join(', '),
    );
  });

  it('takes the list’s own default page size, and sets no Link for a single page', async () => {
    const { request, reply, headers } = exchange('/things');
    const asked: Paging[] = [];
    const body = await pagedList(
      request,
      reply,
      async (paging) => {
        asked.push(paging);
        return { items: [1, 2, 3], total: 3 };
      },
      (p) => p.items,
      100,
    );
    expect(asked).toEqual([{ page: 1, perPage: 100, offset: 0 }]);
    expect(body).toEqual([1, 2, 3]);
    expect(headers).toEqual({});
  });

  it('passes on a failed load: no Link, nothing presented', async () => {
    const { request, reply, headers } = exchange('/things?page=3');
    let presented = false;
    const load = async (): Promise<{ total: number }> => {
      throw new Error('not found');
    };
    await expect(
      pagedList(request, reply, load, () => {
        presented = true;
        return [];
      }),
    ).rejects.toThrow('not found');
    expect(headers).toEqual({});
    expect(presented).toBe(false);
  });
});
