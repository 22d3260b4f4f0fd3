// Gist imports: a gist made as the copy of a gist of another server, recorded with its source in the same transaction
// (so the next `hublet gist import` finds it and adds only new revisions), and the caller's recorded imports.
//
// The gist is created with the files the importer sends (its placeholder revision); the importer then pushes the
// source's history over it with git, which keeps every commit's SHA. The record keeps the placeholder's SHA: a gist
// still at it has not received its history yet (an import cut short), and the importer may replace it.
import type { FromSchema } from 'json-schema-to-ts';
import { isUniqueViolation } from '../db/dialect.js';
import type { ServiceContext } from '../core/context.js';
import { requireActor } from '../core/grants.js';
import { ValidationFailed } from '../core/errors.js';
import type { Paging } from '../http/pagination.js';
import { findImport, insertImport, listImports, type ImportEntry } from './import-store.js';
import type { Received } from './parse.js';
import { createBody } from './schemas.js';
import { createGist, requireWriter } from './service.js';

export const importBody = {
  type: 'object',
  properties: { ...createBody.properties, source: { type: 'string' } },
  required: ['source', 'files'],
} as const;

type ImportBody = FromSchema<typeof importBody>;

/** The longest source URL kept (a URL, as hook URLs are bounded). */
const MAX_SOURCE_LENGTH = 2048;

/** The source gist's URL: absolute http(s), without credentials, at most 2,048 characters; else GitHub's 422. */
function parseSource(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const fine =
    url && (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && value.length <= MAX_SOURCE_LENGTH;
  if (!fine) {
    throw new ValidationFailed([
      {
        resource: 'GistImport',
        field: 'source',
        code: 'invalid',
        message: 'source must be the http(s) URL of the gist copied, without credentials, at most 2048 characters',
      },
    ]);
  }
  return value;
}

interface RecordedImport {
  entry: ImportEntry;
  /** False when the caller had already imported this source (the existing record is returned). */
  created: boolean;
}

/**
 * Creates the caller's copy of `source`: a gist with the body's description, visibility and files, and its import
 * record, in one transaction. A source the caller imported before is not created twice: its record comes back (also
 * when two imports of it meet, through the unique index). The body's schema failures past its shape are answered as
 * a create's, after the source (parse.ts).
 */
export async function recordImport(ctx: ServiceContext, { body, schemaErrors }: Received<ImportBody>): Promise<RecordedImport> {
  const actor = requireWriter(ctx);
  const source = parseSource(body.source);
  const existing = await findImport(ctx.db, actor.user.id, source);
  if (existing) return { entry: existing, created: false };
  const { source: _source, ...create } = body;
  const at = ctx.clock.now().toISOString();
  try {
    const gist = await createGist(ctx, { body: create, schemaErrors }, async (trx, row) => {
      await insertImport(trx, { gist_id: row.id, user_id: actor.user.id, source, placeholder_sha: row.head_sha, created_at: at });
    });
    return {
      entry: { gist_id: gist.id, user_id: actor.user.id, source, placeholder_sha: gist.head_sha, created_at: at, head_sha: gist.head_sha },
      created: true,
    };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const won = await findImport(ctx.db, actor.user.id, source);
    if (!won) throw err;
    return { entry: won, created: false };
  }
}

/** One page of the caller's recorded imports, oldest first. */
export async function callerImports(ctx: ServiceContext, paging: Paging): Promise<{ items: ImportEntry[]; total: number }> {
  const actor = requireActor(ctx.actor);
  return listImports(ctx.db, actor.user.id, { offset: paging.offset, limit: paging.perPage });
}
