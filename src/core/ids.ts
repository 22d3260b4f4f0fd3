// Numeric ids in paths (hooks, deliveries, migrations, repositories, comments): one parser, GitHub's 404 for anything else.
import { NotFound } from './errors.js';

/** The largest id a row can have: ids are 32-bit serials on PostgreSQL (and so bind as integers everywhere). */
const MAX_ID = 2_147_483_647;

/** A positive 32-bit integer written plainly, or undefined (non-numeric, zero, negative, signed, padded, overflowing). */
export function idFrom(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isInteger(raw) && raw >= 1 && raw <= MAX_ID ? raw : undefined;
  if (typeof raw !== 'string' || !/^[1-9]\d{0,9}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n <= MAX_ID ? n : undefined;
}

/** A path id, or 404 Not Found as GitHub answers for an id that names nothing. */
export function parseId(raw: unknown): number {
  const id = idFrom(raw);
  if (id === undefined) throw new NotFound();
  return id;
}
