// `hublet gist search QUERY`: gists matching a query in GitHub's gist search syntax (words, "phrases", user:,
// filename:, extension:, language:, stars:, size:, fork:), through `GET /search/gists`, following its pages up to
// --limit; printed as `gist list` prints (a line a gist, its id first, with the owner), or the items with --json.
// Without a token (remote) it finds public gists; with one, or in local mode, also the user's own secret gists.
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { positiveInteger } from '../option-values.js';
import { printGists } from './list.js';
import type { Gist } from './shared.js';

interface SearchFlags {
  limit: number;
  sort?: string;
  order?: string;
}

interface SearchOptions extends SearchFlags, ClientOptions {
  query: string;
}

/** GitHub's search answer: the matches of one page, and how many there are. */
interface SearchAnswer {
  total_count: number;
  items: Gist[];
}

/** The matches, page after page (per `Link`), until `limit` of them. */
async function collect(client: Client, opts: SearchOptions): Promise<Gist[]> {
  const out: Gist[] = [];
  const perPage = Math.min(100, opts.limit);
  for (let page = 1; out.length < opts.limit; page++) {
    const params = new URLSearchParams({ q: opts.query, per_page: String(perPage), page: String(page) });
    if (opts.sort) params.set('sort', opts.sort);
    if (opts.order) params.set('order', opts.order);
    const res = expectOk(await client.request('GET', `/search/gists?${params}`));
    const answer = res.body as SearchAnswer;
    out.push(...answer.items.slice(0, opts.limit - out.length));
    if (!/rel="next"/.test(res.headers.link ?? '')) break;
  }
  return out;
}

export async function runSearch(opts: SearchOptions, io: IO): Promise<void> {
  const gists = await collect(opts.client, opts);
  if (opts.json) return printJson(io.stdout, gists);
  printGists(io, gists, true);
}

export function registerSearch(gist: Command, f: Factory): void {
  withExamples(
    gist
      .command('search')
      .description('search gists: public ones, and your own secret ones (GitHub’s gist search syntax), best match first')
      .argument('<query>', 'words, "phrases", and qualifiers such as user:LOGIN, language:python, extension:py, stars:>10')
      .option('-L, --limit <n>', 'how many gists at most', positiveInteger, 10)
      .option('--sort <how>', 'stars or updated instead of the best match')
      .option('--order <order>', 'desc (the default) or asc'),
    [
      'hublet gist search quicksort',
      'hublet gist search "language:python user:alice pivot"',
      "hublet gist search 'filename:.bashrc alias' --limit 50",
      'hublet gist search docker --sort stars --json',
    ],
  ).action(async (query: string, flags: SearchFlags, command: Command) => {
    await withClient(command, f, (c) => runSearch({ ...flags, ...c, query }, f.io));
  });
}
