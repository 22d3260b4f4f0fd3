// Relay connections over offset pages, as GitHub's connections answer: `first`/`after` and `last`/`before` choose a
// window of the list; cursors are opaque strings (base64 of `cursor:<position>`, GitHub's classic form).
import { typedError } from './errors.js';

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/** The cursor of the item at 0-based `index`. */
function cursorOf(index: number): string {
  return Buffer.from(`cursor:${index + 1}`).toString('base64');
}

/** The 1-based position a cursor names; a cursor this server did not hand out is an error, as on GitHub. */
function positionOf(cursor: string): number {
  const m = /^cursor:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (!m) throw typedError('INVALID_CURSOR_ARGUMENTS', `\`${cursor}\` does not appear to be a valid cursor.`);
  return Number(m[1]);
}

/**
 * The window `[offset, offset + limit)` the arguments select from a list of `total` items. Without `first` or `last` it
 * is empty: such a connection may only be asked its totalCount and pageInfo (limits.ts refuses `nodes` or `edges`).
 */
export function windowOf(args: ConnectionArgs, total: number): { offset: number; limit: number } {
  let lo = args.after ? Math.min(positionOf(args.after), total) : 0;
  if (args.first == null && args.last == null) return { offset: lo, limit: 0 };
  let hi = args.before ? Math.max(Math.min(positionOf(args.before) - 1, total), lo) : total;
  if (args.first != null) hi = Math.min(hi, lo + args.first);
  if (args.last != null) lo = Math.max(lo, hi - args.last);
  return { offset: lo, limit: hi - lo };
}

/** A connection object: the window's nodes, their edges with cursors, pageInfo and totalCount. */
export function connection<T>(nodes: readonly T[], offset: number, total: number) {
  const edges = nodes.map((node, i) => ({ cursor: cursorOf(offset + i), node }));
  return {
    nodes,
    edges,
    totalCount: total,
    pageInfo: {
      startCursor: edges.length ? edges[0].cursor : null,
      endCursor: edges.length ? edges[edges.length - 1].cursor : null,
      hasNextPage: offset + nodes.length < total,
      hasPreviousPage: offset > 0,
    },
  };
}

/**
 * A connection over a list a store pages by offset: `load(offset, limit)` answers one page and the list's total. Only a
 * `last` window needs the total before the page, and costs one more call (with limit 0).
 */
export async function offsetConnection<R, T>(
  args: ConnectionArgs,
  load: (offset: number, limit: number) => Promise<{ rows: readonly R[]; total: number }>,
  toNode: (row: R) => T,
) {
  const known = args.last != null ? (await load(0, 0)).total : undefined;
  const { offset, limit } = windowOf(args, known ?? Number.MAX_SAFE_INTEGER);
  const page = known !== undefined && limit === 0 ? { rows: [], total: known } : await load(offset, limit);
  return connection(page.rows.map(toNode), offset, page.total);
}

/** A connection over a list held in memory (topics, an account's organizations). */
export function listConnection<T>(all: readonly T[], args: ConnectionArgs) {
  const { offset, limit } = windowOf(args, all.length);
  return connection(all.slice(offset, offset + limit), offset, all.length);
}
