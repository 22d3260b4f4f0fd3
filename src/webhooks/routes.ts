// Organization webhook endpoints (spec 4.2): thin handlers over service.ts, JSON from present.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { absentBodyIsEmpty } from '../server/http/body.js';
import { pagingQuery, parsePaging, requestUrlWith, setPageLinks } from '../server/http/pagination.js';
import { typed } from '../server/http/typed.js';
import { delivery, deliveryItem, hook, hookConfig } from './present.js';
import { configPatchBody, createHookBody, updateHookBody } from './schemas.js';
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
import type { Received } from './validate.js';

const read = { scopes: ['admin:org_hook'], fineGrained: { permission: 'organization_hooks', level: 'read' } } as const;
const write = { scopes: ['admin:org_hook'], fineGrained: { permission: 'organization_hooks', level: 'write' } } as const;

const orgParams = { type: 'object', properties: { org: { type: 'string' } }, required: ['org'] } as const;
const hookParams = { type: 'object', properties: { org: { type: 'string' }, hook_id: { type: 'string' } }, required: ['org', 'hook_id'] } as const;
const deliveryParams = {
  type: 'object',
  properties: { org: { type: 'string' }, hook_id: { type: 'string' }, delivery_id: { type: 'string' } },
  required: ['org', 'hook_id', 'delivery_id'],
} as const;

/**
 * A hook body is judged after the owner check (the service's): its schema's failures are kept, not thrown, and answered
 * with the checks a schema cannot say in one 422 (validate.ts). A request without a body is `{}`.
 */
const judgedLater = { attachValidation: true, preValidation: absentBodyIsEmpty } as const;

function received<T>(request: FastifyRequest & { body: T }): Received<T> {
  return { body: request.body, schemaErrors: request.validationError?.validation };
}

export async function hookRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const cfg = (grant: typeof read | typeof write) => ({ grant, resource: 'Hook' });

  app.get(
    '/orgs/:org/hooks',
    { schema: { params: orgParams, querystring: { type: 'object', properties: pagingQuery } }, config: cfg(read) },
    async (request, reply) => {
      const paging = parsePaging(request.query);
      const r = await listOrgHooks(request.ctx, request.params.org, paging);
      setPageLinks(request, reply, paging, r.total);
      return r.hooks.map((h) => hook(h, r.org, request.ctx.urls, r.last.get(h.id)));
    },
  );

  app.post('/orgs/:org/hooks', { schema: { params: orgParams, body: createHookBody }, ...judgedLater, config: cfg(write) }, async (request, reply) => {
    const r = await createOrgHook(request.ctx, request.params.org, received(request));
    reply.code(201).header('location', request.ctx.urls.api(`/orgs/${r.org.login}/hooks/${r.hook.id}`));
    return hook(r.hook, r.org, request.ctx.urls, r.last);
  });

  app.get('/orgs/:org/hooks/:hook_id', { schema: { params: hookParams }, config: cfg(read) }, async (request) => {
    const r = await getOrgHook(request.ctx, request.params.org, request.params.hook_id);
    return hook(r.hook, r.org, request.ctx.urls, r.last);
  });

  app.patch('/orgs/:org/hooks/:hook_id', { schema: { params: hookParams, body: updateHookBody }, ...judgedLater, config: cfg(write) }, async (request) => {
    const r = await updateOrgHook(request.ctx, request.params.org, request.params.hook_id, received(request));
    return hook(r.hook, r.org, request.ctx.urls, r.last);
  });

  app.delete('/orgs/:org/hooks/:hook_id', { schema: { params: hookParams }, config: cfg(write) }, async (request, reply) => {
    await deleteOrgHook(request.ctx, request.params.org, request.params.hook_id);
    return reply.code(204).send();
  });

  app.get('/orgs/:org/hooks/:hook_id/config', { schema: { params: hookParams }, config: cfg(read) }, async (request) => {
    return hookConfig(await getHookConfig(request.ctx, request.params.org, request.params.hook_id));
  });

  app.patch('/orgs/:org/hooks/:hook_id/config', { schema: { params: hookParams, body: configPatchBody }, ...judgedLater, config: cfg(write) }, async (request) => {
    return hookConfig(await updateHookConfig(request.ctx, request.params.org, request.params.hook_id, received(request)));
  });

  app.get(
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
      const link = (cursor: string, rel: string) => `<${requestUrlWith(request, { per_page: String(perPage), cursor })}>; rel="${rel}"`;
      const links = [r.next && link(r.next, 'next'), r.prev && link(r.prev, 'prev')].filter(Boolean);
      if (links.length) reply.header('link', links.join(', '));
      return r.rows.map(deliveryItem);
    },
  );

  app.get('/orgs/:org/hooks/:hook_id/deliveries/:delivery_id', { schema: { params: deliveryParams }, config: cfg(read) }, async (request) => {
    const r = await getHookDelivery(request.ctx, request.params.org, request.params.hook_id, request.params.delivery_id);
    return delivery(r.row, r.payload);
  });

  app.post(
    '/orgs/:org/hooks/:hook_id/deliveries/:delivery_id/attempts',
    { schema: { params: deliveryParams }, config: cfg(write) },
    async (request, reply) => {
      await redeliverHookDelivery(request.ctx, request.params.org, request.params.hook_id, request.params.delivery_id);
      return reply.code(202).send({});
    },
  );

  app.post('/orgs/:org/hooks/:hook_id/pings', { schema: { params: hookParams }, config: cfg(write) }, async (request, reply) => {
    await pingOrgHook(request.ctx, request.params.org, request.params.hook_id);
    return reply.code(204).send();
  });
}
