// Raw file bytes at the `raw_url`s: `<base>/gist/<owner>/<id>/raw/<sha>/<file>` (blob or commit SHA), `…/raw/<file>` (latest), `…/raw` (first file).
import { accountsByIds } from '../accounts/store.js';
import type { ServiceContext } from '../core/context.js';
import { PUBLIC } from '../core/grants.js';
import { exemptFromRateLimit } from '../http/rate-limit.js';
import { pathParams } from '../http/route-params.js';
import { typed } from '../http/typed.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { gistRepoDir, readBlob, readTreeEntries } from './git.js';
import { isBinary } from './language.js';
import { byName, filesWithContent, findFile, findGist, findRevision } from './store.js';
import type { GistRow } from '../db/tables/gists.js';

const latestParams = pathParams('owner', 'gist_id');
const fileParams = pathParams('owner', 'gist_id', 'filename');
const revisionFileParams = pathParams('owner', 'gist_id', 'sha', 'filename');

/** The gist named by the URL, when the owner segment names its owner. */
async function gistAt(ctx: ServiceContext, params: { owner: string; gist_id: string }): Promise<GistRow | undefined> {
  const gist = await findGist(ctx.db, params.gist_id);
  if (!gist) return undefined;
  const owner = (await accountsByIds(ctx.db, [gist.owner_id])).get(gist.owner_id);
  return owner && owner.login.toLowerCase() === params.owner.toLowerCase() ? gist : undefined;
}

/** Bytes of a file at a SHA: a blob SHA of the gist's repository, or a revision (commit) SHA and the file's name in it. */
async function bytesAt(ctx: ServiceContext, gist: GistRow, sha: string, filename: string): Promise<Buffer | null> {
  if (!/^[0-9a-f]{40}$/i.test(sha)) return null;
  const lower = sha.toLowerCase();
  const current = await findFile(ctx.db, gist.id, { blobSha: lower });
  if (current) return current.content;
  const dir = gistRepoDir(ctx.config, gist.id);
  const revision = await findRevision(ctx.db, gist.id, lower);
  if (revision) {
    const entry = (await readTreeEntries(dir, revision.version)).find((e) => e.filename === filename);
    return entry ? readBlob(dir, entry.oid) : null;
  }
  return readBlob(dir, lower);
}

function send(reply: FastifyReply, bytes: Buffer | null | undefined) {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  reply.header('access-control-allow-origin', '*');
  if (!bytes) return reply.code(404).type('text/plain; charset=utf-8').send('404: Not Found');
  return reply.type(isBinary(bytes) ? 'application/octet-stream' : 'text/plain; charset=utf-8').send(bytes);
}

export async function gistRawRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  exemptFromRateLimit(app);
  // Raw bytes are for anyone with the URL (GitHub serves them from a host that ignores tokens).
  const config = { grant: PUBLIC };
  app.get('/gist/:owner/:gist_id/raw', { schema: { params: latestParams }, config }, async (request, reply) => {
    const gist = await gistAt(request.ctx, request.params);
    return send(reply, gist ? (await filesWithContent(request.ctx.db, gist.id)).sort(byName)[0]?.content : null);
  });

  app.get('/gist/:owner/:gist_id/raw/:filename', { schema: { params: fileParams }, config }, async (request, reply) => {
    const gist = await gistAt(request.ctx, request.params);
    return send(reply, gist ? (await findFile(request.ctx.db, gist.id, { filename: request.params.filename }))?.content : null);
  });

  app.get('/gist/:owner/:gist_id/raw/:sha/:filename', { schema: { params: revisionFileParams }, config }, async (request, reply) => {
    const gist = await gistAt(request.ctx, request.params);
    return send(reply, gist ? await bytesAt(request.ctx, gist, request.params.sha, request.params.filename) : null);
  });
}
