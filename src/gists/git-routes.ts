// Clone and push over git's smart HTTP at `<base>/gist/<id>.git` (and `<base>/gist/<id>`): anyone clones, the owner pushes.
import fs from 'node:fs';
import { exemptFromRateLimit } from '../http/rate-limit.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC, requireGrant } from '../core/grants.js';
import { gitOperation, gitRefusal, registerGitBodies, requireGit, serveGit, type GitEndpoint } from '../git/smart-http.js';
import { HttpError } from '../core/errors.js';
import { gistRepoDir, removeLegacyHook, withGistLock } from './git.js';
import { checkedPush } from './push.js';
import { GIST_WRITE } from './routes.js';
import { gistLimits, requireWriter } from './service.js';
import { findGist } from './store.js';
import { syncRef } from './write.js';

type GitRequest = FastifyRequest<{ Params: { gist_id: string }; Querystring: Record<string, unknown> }>;

function handler(endpoint: GitEndpoint) {
  return async (request: GitRequest, reply: FastifyReply) => {
    requireGit();
    const ctx = request.ctx;
    const gist = await findGist(ctx.db, request.params.gist_id);
    if (!gist) return gitRefusal(reply, 404, 'Repository not found.');
    const dir = gistRepoDir(ctx.config, gist.id);
    if (!fs.existsSync(dir)) return gitRefusal(reply, 404, 'Repository not found.');

    if (gitOperation(endpoint, request.query) === 'read') {
      // Under the gist's lock, so a repair never moves the branch back past a write that just committed.
      await withGistLock(ctx.db, gist.id, async () => {
        const current = await findGist(ctx.db, gist.id);
        if (current) await syncRef(dir, current.head_sha);
      });
      ctx.metrics.gitRequest(endpoint, 'read', 'gist');
      return serveGit(request, reply, { repoDir: dir, endpoint });
    }

    const actor = ctx.actor;
    if (!actor) return gitRefusal(reply, 401, 'Authentication is required to push to a gist: use a token as the password.');
    try {
      requireGrant(actor, GIST_WRITE);
      requireWriter(ctx);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      return gitRefusal(reply, 403, 'This token cannot push to gists: it needs the gist scope (or the Gists write permission).');
    }
    if (gist.owner_id !== actor.user.id) return gitRefusal(reply, 403, `Permission to gist ${gist.id} denied to ${actor.user.login}.`);
    ctx.metrics.gitRequest(endpoint, 'write', 'gist');

    return withGistLock(ctx.db, gist.id, async () => {
      const current = await findGist(ctx.db, gist.id);
      if (!current) return gitRefusal(reply, 404, 'Repository not found.');
      await syncRef(dir, current.head_sha);
      removeLegacyHook(dir);
      // The push itself is checked against the API's rules before git sees it and recorded before git's answer is sent
      // (push.ts); the ref advertisement is not a push.
      if (endpoint === 'git-receive-pack')
        return checkedPush(request, reply, { ctx, gist: current, pusher: actor.user, limits: gistLimits(ctx) });
      return serveGit(request, reply, { repoDir: dir, endpoint, remoteUser: actor.user.login });
    });
  };
}

/** Registered as its own plugin: git's request bodies are raw streams here only. */
export async function gistGitRoutes(app: FastifyInstance): Promise<void> {
  exemptFromRateLimit(app);
  registerGitBodies(app);
  for (const prefix of ['/gist/:gist_id.git', '/gist/:gist_id']) {
    // Anyone clones; a push is checked in the handler against GIST_WRITE and the owner, answered the way git expects.
    const config = { grant: PUBLIC };
    app.get(`${prefix}/info/refs`, { config }, handler('info/refs'));
    app.post(`${prefix}/git-upload-pack`, { config }, handler('git-upload-pack'));
    app.post(`${prefix}/git-receive-pack`, { config }, handler('git-receive-pack'));
  }
}
