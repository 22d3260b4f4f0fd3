// Webhook endpoints (spec 4.2, and GitHub's repository hooks and GitHub Enterprise's global hooks): one set of thin
// handlers over service.ts, registered per scope with the scope's paths, grants and who-may check (scope.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../core/context.js';
import { absentBodyIsEmpty } from '../http/body.js';
import { SITE_ADMIN, type Grant } from '../core/grants.js';
import { pagedList, pagingQuery, parsePaging, requestUrlWith } from '../http/pagination.js';
import { respondForCaller } from '../http/response-cache.js';
import { pathParams } from '../http/route-params.js';
import { delivery, deliveryItem, hook, hookConfig } from './present.js';
import {
  configPatchBody,
  createHookBody,
  createRepoHookBody,
  updateHookBody,
  updateRepoHookBody,
  type ConfigPatchBody,
  type CreateHookBody,
  type UpdateHookBody,
} from './schemas.js';
import { globalScope, organizationScope, repositoryScope, type HookScope } from './scope.js';
import {
  createScopeHook,
  deleteScopeHook,
  getHookConfig,
  getHookDelivery,
  getScopeHook,
  listHookDeliveries,
  listScopeHooks,
  pingScopeHook,
  redeliverHookDelivery,
  testRepositoryHook,
  updateHookConfig,
  updateScopeHook,
} from './service.js';
import type { Received } from './validate.js';
import { created } from '../http/replies.js';

type Level = 'read' | 'write' | 'admin';
type Params = Record<string, string>;

/** One scope's routes: where its hooks live, what each level of operation needs of a token, and who may manage them. */
interface ScopeRoutes {
  /** The collection's route path: `/orgs/:org/hooks`. */
  base: string;
  /** Its path parameters (besides `hook_id` and `delivery_id`). */
  params: readonly string[];
  grants: Record<Level, Grant>;
  resolve(ctx: ServiceContext, params: Params, level: Level): Promise<HookScope> | HookScope;
  /** Whether the scope has GitHub's delivery log endpoints and the config endpoints (global hooks have neither). */
  full: boolean;
  /** The bodies of POST and PATCH (a repository hook's `name` is optional, and its PATCH may add and remove events). */
  bodies: { create: typeof createHookBody | typeof createRepoHookBody; update: typeof updateHookBody | typeof updateRepoHookBody };
}

const scopeBodies = { create: createHookBody, update: updateHookBody };

const orgGrant = (level: 'read' | 'write'): Grant => ({
  scopes: ['admin:org_hook'],
  fineGrained: { permission: 'organization_hooks', level },
});
/** `repo` and `public_repo` grant repository hooks too (scope.ts keeps `public_repo` to public repositories). */
const repoGrant = (level: Level): Grant => ({
  scopes: ['repo', 'public_repo', `${level}:repo_hook`],
  fineGrained: { permission: 'repository_hooks', level: level === 'read' ? 'read' : 'write' },
});

const SCOPES: ScopeRoutes[] = [
  {
    base: '/orgs/:org/hooks',
    params: ['org'],
    grants: { read: orgGrant('read'), write: orgGrant('write'), admin: orgGrant('write') },
    resolve: (ctx, p) => organizationScope(ctx, p.org),
    full: true,
    bodies: scopeBodies,
  },
  {
    base: '/repos/:owner/:repo/hooks',
    params: ['owner', 'repo'],
    grants: { read: repoGrant('read'), write: repoGrant('write'), admin: repoGrant('admin') },
    resolve: (ctx, p, level) => repositoryScope(ctx, p.owner, p.repo, level),
    full: true,
    bodies: { create: createRepoHookBody, update: updateRepoHookBody },
  },
  {
    base: '/admin/hooks',
    params: [],
    grants: { read: SITE_ADMIN, write: SITE_ADMIN, admin: SITE_ADMIN },
    resolve: (ctx) => globalScope(ctx),
    full: false,
    bodies: scopeBodies,
  },
];

/**
 * The reads answered per credential from the response cache (respondForCaller): every scope's hook list and hook, and
 * the deliveries of the scopes that have them. The area declares them cached reads.
 */
export const HOOK_CACHED_READS: readonly string[] = SCOPES.flatMap((sr) => [
  sr.base,
  `${sr.base}/:hook_id`,
  ...(sr.full ? [`${sr.base}/:hook_id/deliveries`] : []),
]);

/**
 * A hook body is judged after the scope's who-may check (the resolver's): its schema's failures are kept, not thrown,
 * and answered with the checks a schema cannot say in one 422 (validate.ts). A request without a body is `{}`.
 */
const judgedLater = { attachValidation: true, preValidation: absentBodyIsEmpty } as const;

function received<T>(request: FastifyRequest): Received<T> {
  return { body: request.body as T, schemaErrors: request.validationError?.validation };
}

const deliveriesQuery = {
  type: 'object',
  properties: { per_page: { type: 'string' }, cursor: { type: 'string' }, status: { type: 'string' } },
} as const;

function scopeRoutes(app: FastifyInstance, sr: ScopeRoutes): void {
  const collection = pathParams(...sr.params);
  const one = pathParams(...sr.params, 'hook_id');
  const oneDelivery = pathParams(...sr.params, 'hook_id', 'delivery_id');
  const cfg = (level: Level, resource = 'Hook') => ({ grant: sr.grants[level], resource });
  const scope = (request: FastifyRequest, level: Level) => sr.resolve(request.ctx, request.params as Params, level);
  const id = (request: FastifyRequest, name = 'hook_id') => (request.params as Params)[name];

  app.get(
    sr.base,
    { schema: { params: collection, querystring: { type: 'object', properties: pagingQuery } }, config: cfg('read') },
    async (request, reply) =>
      respondForCaller(request, reply, async () => {
        const s = await scope(request, 'read');
        return pagedList(
          request,
          reply,
          (paging) => listScopeHooks(request.ctx, s, paging),
          (page) => page.hooks.map((h) => hook(h, s, request.ctx.urls, page.last.get(h.id))),
        );
      }),
  );

  app.post(
    sr.base,
    { schema: { params: collection, body: sr.bodies.create }, ...judgedLater, config: cfg('write') },
    async (request, reply) => {
      const s = await scope(request, 'write');
      const r = await createScopeHook(request.ctx, s, received<CreateHookBody>(request));
      return created(reply, request.ctx.urls.api(`${s.path}/${r.hook.id}`), hook(r.hook, s, request.ctx.urls, r.last));
    },
  );

  app.get(`${sr.base}/:hook_id`, { schema: { params: one }, config: cfg('read') }, async (request, reply) =>
    respondForCaller(request, reply, async () => {
      const s = await scope(request, 'read');
      const r = await getScopeHook(request.ctx, s, id(request));
      return hook(r.hook, s, request.ctx.urls, r.last);
    }),
  );

  app.patch(
    `${sr.base}/:hook_id`,
    { schema: { params: one, body: sr.bodies.update }, ...judgedLater, config: cfg('write') },
    async (request) => {
      const s = await scope(request, 'write');
      const r = await updateScopeHook(request.ctx, s, id(request), received<UpdateHookBody>(request));
      return hook(r.hook, s, request.ctx.urls, r.last);
    },
  );

  app.delete(`${sr.base}/:hook_id`, { schema: { params: one }, config: cfg('admin') }, async (request, reply) => {
    await deleteScopeHook(request.ctx, await scope(request, 'admin'), id(request));
    return reply.code(204).send();
  });

  app.post(`${sr.base}/:hook_id/pings`, { schema: { params: one }, config: cfg('write') }, async (request, reply) => {
    await pingScopeHook(request.ctx, await scope(request, 'write'), id(request));
    return reply.code(204).send();
  });

  if (!sr.full) return;

  app.get(`${sr.base}/:hook_id/config`, { schema: { params: one }, config: cfg('read') }, async (request) => {
    return hookConfig(await getHookConfig(request.ctx, await scope(request, 'read'), id(request)));
  });

  app.patch(
    `${sr.base}/:hook_id/config`,
    { schema: { params: one, body: configPatchBody }, ...judgedLater, config: cfg('write') },
    async (request) => {
      return hookConfig(
        await updateHookConfig(request.ctx, await scope(request, 'write'), id(request), received<ConfigPatchBody>(request)),
      );
    },
  );

  app.get(
    `${sr.base}/:hook_id/deliveries`,
    { schema: { params: one, querystring: deliveriesQuery }, config: cfg('read', 'HookDelivery') },
    async (request, reply) =>
      respondForCaller(request, reply, async () => {
        const s = await scope(request, 'read');
        const query = request.query as { cursor?: string; status?: string };
        const { perPage } = parsePaging(request.query);
        const r = await listHookDeliveries(request.ctx, s, id(request), { cursor: query.cursor, status: query.status, perPage });
        const link = (cursor: string, rel: string) => `<${requestUrlWith(request, { per_page: String(perPage), cursor })}>; rel="${rel}"`;
        const links = [r.next && link(r.next, 'next'), r.prev && link(r.prev, 'prev')].filter(Boolean);
        if (links.length) reply.header('link', links.join(', '));
        return r.rows.map(deliveryItem);
      }),
  );

  app.get(`${sr.base}/:hook_id/deliveries/:delivery_id`, { schema: { params: oneDelivery }, config: cfg('read') }, async (request) => {
    const r = await getHookDelivery(request.ctx, await scope(request, 'read'), id(request), id(request, 'delivery_id'));
    return delivery(r.row, r.payload);
  });

  app.post(
    `${sr.base}/:hook_id/deliveries/:delivery_id/attempts`,
    { schema: { params: oneDelivery }, config: cfg('write') },
    async (request, reply) => {
      await redeliverHookDelivery(request.ctx, await scope(request, 'write'), id(request), id(request, 'delivery_id'));
      return reply.code(202).send({});
    },
  );
}

/** Every scope's hook routes, and the repository hooks' `tests` (the latest push again). */
export async function hookRoutes(app: FastifyInstance): Promise<void> {
  for (const sr of SCOPES) scopeRoutes(app, sr);
  const repo = SCOPES[1];
  app.post(
    `${repo.base}/:hook_id/tests`,
    { schema: { params: pathParams(...repo.params, 'hook_id') }, config: { grant: repo.grants.write, resource: 'Hook' } },
    async (request, reply) => {
      const p = request.params as Params;
      await testRepositoryHook(request.ctx, await repositoryScope(request.ctx, p.owner, p.repo, 'write'), p.hook_id);
      return reply.code(204).send();
    },
  );
}
