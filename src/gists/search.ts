// Gist search, the one interface people (web/search/) and programs (search-routes.ts, `hublet gist search`) use: a
// query in GitHub's syntax (search-query.ts) over the gists the caller may see (public ones, and the caller's own secret
// ones), one page of them in order with the total, and for the web the line that matched each (search-snippet.ts).
// Only the first 1,000 results are reachable, as on GitHub; the best matches (or most starred) are chosen among the
// 1,000 most recently updated matches, so a common word costs no more than a rare one.
import { findAccount } from '../accounts/store.js';
import type { ServiceContext } from '../core/context.js';
import { Unprocessable, ValidationFailed } from '../core/errors.js';
import type { Paging } from '../http/pagination.js';
import { hasCriteria, parseSearchQuery, type GistSearchQuery } from './search-query.js';
import { snippetFor, type Snippet } from './search-snippet.js';
import { extensionWord, languageWord } from './search-document.js';
import { findMatches, searchedTexts, type RowFilter, type SearchOrder } from './search-store.js';
import { type ListView, listViews } from './reads.js';

/**
 * GitHub's search serves the first 1,000 results of any query; hublet also counts no further (`total_count` says 1,000
 * for any more: counting tens of thousands of matches cost more than finding a page of them).
 */
export const MAX_SEARCH_RESULTS = 1000;

const SEARCH_SORTS = ['best-match', 'stars', 'updated'] as const;

export interface SearchInput {
  q?: string;
  sort?: string;
  order?: string;
}

/** A gist found, in list form (reads.ts's ListView), with the line that matched (only when asked for, for the web). */
export interface SearchHit extends ListView {
  snippet: Snippet | null;
}

export interface SearchPage {
  items: SearchHit[];
  /** How many gists match, at most MAX_SEARCH_RESULTS (all of them pages reach). */
  total: number;
}

function invalid(message: string): ValidationFailed {
  return new ValidationFailed([{ resource: 'Search', field: 'q', code: 'invalid', message }]);
}

/** The query parsed, or GitHub's 422: `missing` without one, `invalid` with what is wrong with it. */
export function parseQuery(q: string | undefined): GistSearchQuery {
  if (q === undefined || q.trim() === '') throw new ValidationFailed([{ resource: 'Search', field: 'q', code: 'missing' }]);
  const parsed = parseSearchQuery(q);
  if (!parsed.ok) throw invalid(parsed.problem);
  if (!hasCriteria(parsed.query)) throw invalid('The search has no words or qualifiers to search by (letters and digits are searched).');
  return parsed.query;
}

function parseOrder(input: SearchInput): SearchOrder {
  const sort = input.sort ?? 'best-match';
  if (!(SEARCH_SORTS as readonly string[]).includes(sort))
    throw new ValidationFailed([
      { resource: 'Search', field: 'sort', code: 'invalid', message: `sort must be one of ${SEARCH_SORTS.join(', ')}` },
    ]);
  const order = input.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc')
    throw new ValidationFailed([{ resource: 'Search', field: 'order', code: 'invalid', message: 'order must be asc or desc' }]);
  return { sort: sort as SearchOrder['sort'], direction: order };
}

/** The ids of the `user:` qualifier's accounts; GitHub's 422 when one does not exist. */
async function ownerIds(ctx: ServiceContext, logins: string[]): Promise<number[] | undefined> {
  if (!logins.length) return undefined;
  const accounts = await Promise.all(logins.map((login) => findAccount(ctx.db, login)));
  if (accounts.some((a) => !a))
    throw invalid(
      'The listed users cannot be searched either because the users do not exist or you do not have permission to view the users.',
    );
  return accounts.map((a) => a!.id);
}

function rowFilter(q: GistSearchQuery): RowFilter {
  const file = q.filenames.length || q.size ? { names: q.filenames, size: q.size } : undefined;
  return { fork: q.fork, stars: q.stars, file };
}

/**
 * One page of the gists that match `input.q` and that the caller may see, in the order asked for (best match first by
 * default), with how many match. 422 for a query GitHub would refuse, and for a page past the first 1,000 results.
 * With `snippets`, each hit carries the line of its files (or description) that matched.
 */
export async function searchGists(
  ctx: ServiceContext,
  input: SearchInput,
  paging: Paging,
  opts: { snippets?: boolean } = {},
): Promise<SearchPage> {
  const query = parseQuery(input.q);
  const order = parseOrder(input);
  if (paging.offset >= MAX_SEARCH_RESULTS) throw new Unprocessable(`Only the first ${MAX_SEARCH_RESULTS} search results are available`);
  const match = {
    phrases: query.phrases,
    excluded: query.excluded,
    viewerId: ctx.actor?.user.id ?? null,
    ownerIds: await ownerIds(ctx, query.users),
    languages: query.languages.map(languageWord),
    extensions: query.extensions.map(extensionWord),
  };
  const found = await findMatches(ctx.db, match, rowFilter(query), order, {
    offset: paging.offset,
    limit: Math.min(paging.perPage, MAX_SEARCH_RESULTS - paging.offset),
    rankWindow: MAX_SEARCH_RESULTS,
  });
  const rows = found.rows;
  // The results as GET /gists lists them (reads.ts), with their snippets read beside them when asked.
  const [views, texts] = await Promise.all([
    listViews(ctx, rows),
    opts.snippets
      ? searchedTexts(
          ctx.db,
          rows.map((r) => r.id),
        )
      : undefined,
  ]);
  const words = [...new Set(query.phrases.flat())];
  const items = views.map((view) => ({
    ...view,
    snippet: texts ? snippetFor([...(texts.get(view.gist.id) ?? []), { filename: null, text: view.gist.description }], words) : null,
  }));
  return { items, total: found.total };
}
