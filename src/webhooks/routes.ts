// Organization webhook endpoints (spec 4.2): thin handlers over service.ts, JSON from present.ts.
import type { FastifyInstance } from 'fastify';
import { pagingQuery, parsePaging, requestUrlWith, setPageLinks } from '../server/http/pagination.js';
import { delivery, deliveryItem, hook, hookConfig } from './present.js';
import {
  createOrgHook,
  deleteOrgHook,
  getHookConfig,
  getHookDelivery,
  getOrgHook,
  listHookDeliveries,
  listOrgHooks,
  pingOrgHook,
  redeliverHookDelivery,
  updateHookConfig,
  updateOrgHook,
} from './service.js';

const read = { scopes: ['admin:org_hook'], fineGrained: { permission: 'organization_hooks', level: 'read' } } as const;
const write = { scopes: ['admin:org_hook'], fineGrained: { permission: 'organization_hooks', level: 'write' } } as const;

const orgParams = { type: 'object', properties: { org: { type: 'string' } }, required: ['org'] } as const;
const hookParams = { type: 'object', properties: { org: { type: 'string' }, hook_id: { type: 'string' } }, required: ['org', 'hook_id'] } as const;
const deliveryParams = {
  type: 'object',
  properties: { org: { type: 'string' }, hook_id: { type: 'string' }, delivery_id: { type: 'string' } },
  required: ['org', 'hook_id', 'delivery_id'],
} as const;

type OrgP = { Params: { org: string } };
type HookP = { Params: { org: string; hook_id: string } };
type DeliveryP = { Params: { org: string; hook_id: string; delivery_id: string } };

export async function hookRoutes(app: FastifyInstance): Promise<void> {
  const cfg = (grant: typeof read | typeof write) => ({ grant, resource: 'Hook' });

  app.get<OrgP & { Querystring: Record<string, string> }>(
    '/orgs/:org/hooks',
    { schema: { params: orgParams, querystring: { type: 'object', properties: pagingQuery } }, config: cfg(read) },
    async (request, reply) => {
      const paging = parsePaging(request.query);
      const r = await listOrgHooks(request.ctx, request.params.org, paging);
      setPageLinks(request, reply, paging, r.total);
      return r.hooks.map((h) => hook(h, r.org, request.ctx.urls, r.last.get(h.id)));
    },
  );

  app.post<OrgP>('/orgs/:org/hooks', { schema: { params: orgParams }, config: cfg(write) }, async (request, reply) => {
    const r = await createOrgHook(request.ctx, request.params.org, request.body);
    reply.code(201).header('location', request.ctx.urls.api(`/orgs/${r.org.login}/hooks/${r.hook.id}`));
    return hook(r.hook, r.org, request.ctx.urls, r.last);
  });

  app.get<HookP>('/orgs/:org/hooks/:hook_id', { schema: { params: hookParams }, config: cfg(read) }, async (request) => {
    const r = await getOrgHook(request.ctx, request.params.org, request.params.hook_id);
    return hook(r.hook, r.org, request.ctx.urls, r.last);
  });

  app.patch<HookP>('/orgs/:org/hooks/:hook_id', { schema: { params: hookParams }, config: cfg(write) }, async (request) => {
    const r = await updateOrgHook(request.ctx, request.params.org, request.params.hook_id, request.body);
    return hook(r.hook, r.org, request.ctx.urls, r.last);
  });

  app.delete<HookP>('/orgs/:org/hooks/:hook_id', { schema: { params: hookParams }, config: cfg(write) }, async (request, reply) => {
    await deleteOrgHook(request.ctx, request.params.org, request.params.hook_id);
    return reply.code(204).send();
  });

  app.get<HookP>('/orgs/:org/hooks/:hook_id/config', { schema: { params: hookParams }, config: cfg(read) }, async (request) => {
    return hookConfig(await getHookConfig(request.ctx, request.params.org, request.params.hook_id));
  });

  app.patch<HookP>('/orgs/:org/hooks/:hook_id/config', { schema: { params: hookParams }, config: cfg(write) }, async (request) => {
    return hookConfig(await updateHookConfig(request.ctx, request.params.org, request.params.hook_id, request.body));
  });

  app.get<HookP & { Querystring: Record<string, string> }>(
    '/orgs/:org/hooks/:hook_id/deliveries',
    {
      schema: {
        params: hookParams,
        querystring: { type: 'object', properties: { per_page: { type: 'string' }, cursor: { type: 'string' }, status: { type: 'string' } } },
      },
      config: { ...cfg(read), resource: 'HookDelivery' },
    },
    async (request, reply) => {
      const { perPage } = parsePaging(request.query);
      const r = await listHookDeliveries(request.ctx, request.params.org, request.params.hook_id, { cursor: request.query.cursor, status: request.query.status, perPage });
      const link = (cursor: string, rel: string) => `<${requestUrlWith(request, request.ctx.urls.base, { per_page: String(perPage), cursor })}>; rel="${rel}"`;
      const links = [r.next && link(r.next, 'next'), r.prev && link(r.prev, 'prev')].filter(Boolean);
      if (links.length) reply.header('link', links.join(', '));
      return r.rows.map(deliveryItem);
    },
  );

  app.get<DeliveryP>('/orgs/:org/hooks/:hook_id/deliveries/:delivery_id', { schema: { params: deliveryParams }, config: cfg(read) }, async (request) => {
    const r = await getHookDelivery(request.ctx, request.params.org, request.params.hook_id, request.params.delivery_id);
    return delivery(r.row, r.payload);
  });

  app.post<DeliveryP>(
    '/orgs/:org/hooks/:hook_id/deliveries/:delivery_id/attempts',
    { schema: { params: deliveryParams }, config: cfg(write) },
    async (request, reply) => {
      await redeliverHookDelivery(request.ctx, request.params.org, request.params.hook_id, request.params.delivery_id);
      return reply.code(202).send({});
    },
  );

  app.post<HookP>('/orgs/:org/hooks/:hook_id/pings', { schema: { params: hookParams }, config: cfg(write) }, async (request, reply) => {
    await pingOrgHook(request.ctx, request.params.org, request.params.hook_id);
    return reply.code(204).send();
  });
}
