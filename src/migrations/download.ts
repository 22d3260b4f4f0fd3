// Serves archives at their signed URLs (no Authorization needed): Content-Length, HEAD, Range for resumed downloads.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC } from '../core/grants.js';
import { archiveStore } from '../blob/index.js';
import type { ByteRange } from '../blob/store.js';
import { Forbidden, HttpError, NotFound } from '../core/errors.js';
import { archiveAvailable } from './present.js';
import { ARCHIVE_ROUTE, signatureValid } from './signing.js';
import { findMigrationByGuid } from './store.js';

/**
 * The byte range a `Range` header asks for. `null`: send the whole object (no header, or one this server does not
 * honour, such as several ranges); `unsatisfiable`: the range lies beyond the end.
 */
function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

async function serveArchive(
  request: FastifyRequest<{ Params: { file: string }; Querystring: Record<string, unknown> }>,
  reply: FastifyReply,
) {
  const ctx = request.ctx;
  const file = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.tar\.gz$/.exec(request.params.file);
  const m = file ? await findMigrationByGuid(ctx.db, file[1]) : undefined;
  if (!m) throw new NotFound();
  const expires =
    typeof request.query.expires === 'string' && /^\d{1,12}$/.test(request.query.expires) ? Number(request.query.expires) : NaN;
  const presented = typeof request.query.signature === 'string' ? request.query.signature : '';
  const now = ctx.clock.now();
  if (Number.isNaN(expires) || !signatureValid(m.archive_secret, m.guid, expires, presented)) {
    // A URL issued before the archive was deleted fails here too: deleting rotates the signing key.
    if (m.archive_deleted_at !== null) throw new NotFound();
    throw new Forbidden('Request signature does not match');
  }
  if (expires * 1000 < now.getTime()) throw new Forbidden('Request has expired');
  const store = archiveStore(ctx.config);
  const stat = store && archiveAvailable(m, now) ? await store.stat(m.archive_key!) : null;
  if (!store || !stat) throw new NotFound();

  const etag = `"${m.guid}-${stat.size}"`;
  reply.header('content-type', 'application/gzip');
  reply.header('accept-ranges', 'bytes');
  reply.header('etag', etag);
  reply.header('last-modified', (m.exported_at ? new Date(m.exported_at) : stat.modifiedAt).toUTCString());
  reply.header('content-disposition', `attachment; filename="${m.guid}.tar.gz"`);
  reply.header('cache-control', 'private, no-transform');
  const ifRange = request.headers['if-range'];
  const rangeAllowed = !ifRange || ifRange === etag;
  const range = rangeAllowed ? parseRange(request.headers.range, stat.size) : null;
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${stat.size}`);
    throw new HttpError(416, 'Requested range not satisfiable', {}, { 'content-range': `bytes */${stat.size}` });
  }
  if (range) {
    reply.code(206);
    reply.header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`);
  }
  const length = range ? range.end - range.start + 1 : stat.size;
  reply.header('content-length', String(length));
  if (request.method === 'HEAD') return reply.send();
  const body = await store.get(m.archive_key!, range ?? undefined);
  if (!body) throw new NotFound();
  return reply.send(body);
}

/** The archive route: outside the API's paths, like a blob store's pre-signed URL on the same host. */
export async function archiveDownloadRoutes(app: FastifyInstance): Promise<void> {
  // Anyone holding a valid signed URL: the signature is the credential.
  app.route({ method: ['GET', 'HEAD'], url: ARCHIVE_ROUTE, exposeHeadRoute: false, config: { grant: PUBLIC }, handler: serveArchive });
}
