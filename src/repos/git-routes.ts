// Git over smart HTTP for repositories: /{owner}/{repo}[.git]/info/refs, git-upload-pack, git-receive-pack, behind our own auth.
import { exemptFromRateLimit } from '../http/rate-limit.js';
import type { repoParams } from '../http/route-params.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { PUBLIC } from '../core/grants.js';
import { findAccount, findAccountById } from '../accounts/store.js';
import { gitAvailable, gitOperation, gitRefusal, registerGitBodies, serveGit, type GitEndpoint } from '../git/smart-http.js';
import type { RefUpdate } from '../git/bare.js';
import { atLeast, roleOn, tokenAllowsGit } from './access.js';
import { repositoryAudit } from './audit.js';
import { preparePushes, repositoryDir } from './git-data.js';
import { isLocked, LOCKED_MESSAGE } from './locks.js';
import { preparePush, writePush } from './push.js';
import { findRedirect, findRepository, findRepositoryById } from './store.js';
import type { RepositoryRow } from '../db/tables/repos.js';

const ENDPOINTS: { endpoint: GitEndpoint; method: 'GET' | 'POST' }[] = [
  { endpoint: 'info/refs', method: 'GET' },
  { endpoint: 'git-upload-pack', method: 'POST' },
  { endpoint: 'git-receive-pack', method: 'POST' },
];

/** The path's `{owner}/{repo}`, typed by the shared schema (git's routes declare none: the handler answers as git expects). */
type Params = FromSchema<typeof repoParams>;

/** `name.git` and `name` both name the repository `name`. */
function repoNameFromUrl(segment: string): string {
  return segment.toLowerCase().endsWith('.git') ? segment.slice(0, -4) : segment;
}

/** Anonymous callers are asked for credentials (so git prompts); signed-in ones learn only that it is not there. */
function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (!request.ctx.actor) return gitRefusal(reply, 401, 'Authentication required to access this repository.');
  return gitRefusal(reply, 404, 'Repository not found.');
}

function handler(endpoint: GitEndpoint) {
  return async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
    if (!gitAvailable()) {
      return reply
        .code(503)
        .header('content-type', 'text/plain; charset=utf-8')
        .send('Git hosting is unavailable: no `git` executable on the server\n');
    }
    const ctx = request.ctx;
    const actor = ctx.actor;
    const name = repoNameFromUrl(request.params.repo);
    const owner = await findAccount(ctx.db, request.params.owner);
    if (!owner) return notFound(request, reply);
    const repo: RepositoryRow | undefined = await findRepository(ctx.db, owner.id, name);
    if (!repo) {
      const moved = await findRedirect(ctx.db, owner.id, name);
      // A transferred repository lives under its new owner.
      const movedOwner = moved && moved.owner_id !== owner.id ? await findAccountById(ctx.db, moved.owner_id) : owner;
      if (
        moved &&
        movedOwner &&
        atLeast(await roleOn(ctx.db, actor?.user ?? null, moved, movedOwner), 'read') &&
        tokenAllowsGit(actor, moved, 'read')
      ) {
        // git follows the redirect of its first request and uses the new address from then on.
        const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        return reply.code(301).header('location', `/${movedOwner.login}/${moved.name}.git/${endpoint}${search}`).send();
      }
      return notFound(request, reply);
    }
    const role = await roleOn(ctx.db, actor?.user ?? null, repo, owner);
    if (!atLeast(role, 'read') || !tokenAllowsGit(actor, repo, 'read')) return notFound(request, reply);
    const op = gitOperation(endpoint, request.query as Record<string, unknown>);
    if (op === 'write') {
      if (!actor) return gitRefusal(reply, 401, 'Authentication required to push.');
      if (!atLeast(role, 'write'))
        return gitRefusal(reply, 403, `Permission to ${owner.login}/${repo.name}.git denied to ${actor.user.login}.`);
      if (!tokenAllowsGit(actor, repo, 'write')) return gitRefusal(reply, 403, 'Write access to repository not granted.');
      if (await isLocked(ctx.db, repo.id)) return gitRefusal(reply, 403, LOCKED_MESSAGE);
      if (repo.archived) return gitRefusal(reply, 403, 'This repository was archived so it is read-only.');
      await preparePushes(repositoryDir(ctx.config.dataDir, repo.id));
    }
    const repoId = repo.id;
    const pusher = actor?.user;
    ctx.metrics.gitRequest(endpoint, op, 'repository');
    return serveGit(request, reply, {
      repoDir: repositoryDir(ctx.config.dataDir, repoId),
      endpoint,
      remoteUser: pusher?.login,
      lockDb: ctx.db,
      onPush: async (updates: RefUpdate[]) => {
        if (!pusher) return;
        try {
          const current = (await findRepositoryById(ctx.db, repoId)) ?? repo;
          const prepared = await preparePush(ctx.db, ctx.config.dataDir, { repo: current, owner, pusher, updates });
          const now = ctx.clock.now();
          await ctx.db.transaction().execute(async (trx) => {
            const pushed = await writePush(trx, ctx, prepared, now);
            // GitHub's `git.push` (a git event: `include=git` or `all`), by the pusher, from where the push came.
            if (pushed)
              await ctx.audit.record(trx, ctx, {
                action: 'git.push',
                ...repositoryAudit(pushed, owner),
                fields: {
                  repository: `${owner.login}/${pushed.name}`,
                  repository_public: pushed.visibility === 'public',
                  visibility: pushed.visibility,
                  transport_protocol: 1,
                  transport_protocol_name: 'http',
                  refs: updates.map((u) => u.ref),
                },
              });
          });
        } catch (err) {
          // The refs moved already; the push stands even when recording it failed.
          request.log.error({ reqId: request.id, err, repository: repoId }, 'recording a push failed');
        }
      },
    });
  };
}

/** Git routes in their own plugin, so git's raw request bodies are parsed here only. */
export async function repositoryGitRoutes(app: FastifyInstance): Promise<void> {
  exemptFromRateLimit(app);
  registerGitBodies(app);
  for (const { endpoint, method } of ENDPOINTS) {
    // Anyone may ask: the handler applies git's own rule (role and token, tokenAllowsGit) and answers the way git expects.
    app.route<{ Params: Params }>({ method, url: `/:owner/:repo/${endpoint}`, config: { grant: PUBLIC }, handler: handler(endpoint) });
  }
}
