// POST /admin/migrations/import: a site admin streams a migration archive (tar.gz) to be imported, or planned (`dry_run`).
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { SITE_ADMIN } from '../../core/grants.js';
import { ValidationFailed } from '../../core/errors.js';
import { typed } from '../../http/typed.js';
import { IMPORT_MAP_HEADER, mapRowsFromJson, type MapRow } from './csv.js';
import { importArchive } from './service.js';

/** Largest single records file (they are parsed whole). */
const IMPORT_MAX_JSON_BYTES = 32 * 1024 ** 2;

const ARCHIVE_TYPES = ['application/gzip', 'application/x-gzip', 'application/x-tar', 'application/octet-stream'];

const importQuery = { type: 'object', properties: { dry_run: { type: 'boolean' } } } as const;

function mapFrom(header: string | string[] | undefined): MapRow[] {
  if (header === undefined) return [];
  try {
    return mapRowsFromJson(
      JSON.parse(gunzipSync(Buffer.from(String(header), 'base64url'), { maxOutputLength: 16 * 1024 ** 2 }).toString('utf8')),
    );
  } catch (err) {
    const message = `${IMPORT_MAP_HEADER} must be a migration map (JSON rows, gzipped, base64url): ${err instanceof Error ? err.message : String(err)}`;
    throw new ValidationFailed([{ resource: 'Migration', field: 'map', code: 'invalid', message }]);
  }
}

export async function migrationImportRoutes(fastify: FastifyInstance): Promise<void> {
  // The archive is handed to the importer as a stream (never buffered): its size is bounded where it is read.
  const maxBytes = fastify.hublet.config.importMaxBytes;
  fastify.addContentTypeParser(ARCHIVE_TYPES, { bodyLimit: maxBytes }, (_request, payload, done) => done(null, payload));
  typed(fastify).post(
    '/admin/migrations/import',
    {
      schema: { querystring: importQuery },
      bodyLimit: maxBytes,
      // Site admins only, decided before anything is read.
      config: { grant: SITE_ADMIN, resource: 'Migration' },
    },
    async (request, reply) => {
      const body = request.body as Readable | undefined;
      if (!body || typeof (body as Readable).pipe !== 'function') {
        throw new ValidationFailed([
          {
            resource: 'Migration',
            field: 'archive',
            code: 'missing',
            message: `send the archive as the body, Content-Type: ${ARCHIVE_TYPES[0]}`,
          },
        ]);
      }
      const edits = mapFrom(request.headers[IMPORT_MAP_HEADER]);
      const dryRun = Boolean(request.query.dry_run);
      const report = await importArchive(request.ctx, body, {
        dryRun,
        edits,
        limits: { maxBytes: request.ctx.config.importMaxBytes, maxJsonBytes: IMPORT_MAX_JSON_BYTES },
      });
      return reply.code(dryRun ? 200 : 201).send(report);
    },
  );
}
