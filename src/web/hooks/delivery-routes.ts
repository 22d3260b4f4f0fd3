// A hook's "Recent Deliveries" pages, under the hook's page in each place hooks live (hook-places.ts): the list
// (GET …/<id>/deliveries, `?status=failure` for the failed ones, `?cursor=` for older pages, as the API pages them),
// one delivery (GET …/deliveries/<delivery_id>), "Redeliver" (POST …/deliveries/<delivery_id>/attempts, as the API's
// POST …/attempts) and "Redeliver failed since …" (POST …/deliveries/redeliver-failed: at most REDELIVER_LIMIT events,
// the page says how many). The same services and authority as the hook pages (hook-routes.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../../core/context.js';
import { pathParams } from '../../http/route-params.js';
import { typed } from '../../http/typed.js';
import { getHookDelivery, getScopeHook, listHookDeliveries, redeliverFailedSince, redeliverHookDelivery } from '../../webhooks/service.js';
import { csrfToken } from '../csrf.js';
import { field, formSchema } from '../forms.js';
import { htmlPage, orNotFound, queryValue, send, webConfig as config } from '../serve.js';
import { asViewer } from '../viewer.js';
import { deliveryListPage, deliveryPage } from './delivery-pages.js';
import { noticeOf } from './hook-pages.js';
import { HOOK_HOMES, type HooksHome } from './hook-places.js';

const PAGE_SIZE = 30;
/** The most events one "Redeliver failed since …" sends again. */
const REDELIVER_LIMIT = 100;

const deliveriesQuery = {
  type: 'object',
  properties: { status: queryValue, cursor: queryValue, notice: queryValue, count: queryValue, more: queryValue },
} as const;

type Params = Record<string, string>;
const last = (value: string | string[] | undefined) => [value ?? []].flat().at(-1);

/** "Redeliver failed since": a moment the datetime field gives (`2026-11-28T10:00`, seconds optional), read as UTC. */
function sinceOf(text: string): Date | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(?:\.\d{1,3})?)?$/.exec(text.trim());
  const at = m ? new Date(`${m[1]}T${m[2]}${m[3] ?? ':00'}Z`) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : undefined;
}

function placeRoutes(fastify: FastifyInstance, home: HooksHome): void {
  const app = typed(fastify);
  const hookParams = pathParams(...home.params, 'hook_id');
  const deliveryParams = pathParams(...home.params, 'hook_id', 'delivery_id');
  const params = (request: FastifyRequest) => request.params as Params;
  const hookPath = (request: FastifyRequest) => request.url.replace(/\/deliveries(\/.*)?$/, '');

  /** The list page's data: a page of the hook's deliveries (all or the failed ones), its links and its forms' token. */
  const listing = async (
    ctx: ServiceContext,
    request: FastifyRequest,
    reply: FastifyReply,
    query: { status?: string; cursor?: string },
  ) => {
    const place = await home.place(ctx, params(request));
    const { hook } = await getScopeHook(ctx, place.scope, params(request).hook_id);
    const failedOnly = query.status === 'failure';
    // A cursor that is no cursor of ours is no page here.
    const page = await orNotFound(
      listHookDeliveries(ctx, place.scope, hook.id, {
        cursor: query.cursor,
        status: failedOnly ? 'failure' : undefined,
        perPage: PAGE_SIZE,
      }),
    );
    const { next, prev } = page;
    return {
      base: ctx.urls.base,
      csrf: csrfToken(request, reply),
      place,
      hook,
      rows: page.rows,
      failedOnly,
      next: next || undefined,
      prev: prev || undefined,
    };
  };

  app.get(
    `${home.route}/:hook_id/deliveries`,
    { schema: { params: hookParams, querystring: deliveriesQuery }, config },
    async (request, reply) =>
      asViewer(request, reply, async (ctx) => {
        const query = { status: last(request.query.status), cursor: last(request.query.cursor) };
        const markup = deliveryListPage({ ...(await listing(ctx, request, reply, query)), notice: noticeOf(request.query) });
        return send(reply, htmlPage(markup));
      }),
  );

  app.get(`${home.route}/:hook_id/deliveries/:delivery_id`, { schema: { params: deliveryParams }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx) => {
      const place = await home.place(ctx, params(request));
      const { hook } = await getScopeHook(ctx, place.scope, params(request).hook_id);
      const { row, payload } = await getHookDelivery(ctx, place.scope, hook.id, params(request).delivery_id);
      return send(reply, htmlPage(deliveryPage({ base: ctx.urls.base, csrf: csrfToken(request, reply), place, hook, row, payload })));
    }),
  );

  // "Redeliver": the same event (same GUID) again, as a new delivery marked `redelivery`.
  app.post(
    `${home.route}/:hook_id/deliveries/:delivery_id/attempts`,
    { schema: { ...formSchema, params: deliveryParams }, config },
    async (request, reply) =>
      asViewer(
        request,
        reply,
        async (ctx) => {
          const place = await home.place(ctx, params(request));
          const { hook } = await getScopeHook(ctx, place.scope, params(request).hook_id);
          await redeliverHookDelivery(ctx, place.scope, hook.id, params(request).delivery_id);
          return reply.redirect(`${ctx.urls.base}${place.home}/${hook.id}/deliveries?notice=redelivered`, 303);
        },
        request.url.replace(/\/attempts$/, ''),
      ),
  );

  // "Redeliver failed since …": a moment that is none is answered 422 next to its field, on the list it was posted from.
  app.post(
    `${home.route}/:hook_id/deliveries/redeliver-failed`,
    { schema: { ...formSchema, params: hookParams }, config },
    async (request, reply) =>
      asViewer(
        request,
        reply,
        async (ctx) => {
          const text = field(request.body, 'since');
          const since = sinceOf(text);
          if (!since) {
            const error = text.trim() ? 'Since must be a date and a time, such as 2026-11-28T10:00.' : 'Since can’t be blank.';
            const listed = await listing(ctx, request, reply, { status: 'failure' });
            const markup = deliveryListPage({ ...listed, notice: '', since: text, errors: { since: error } });
            return send(reply, htmlPage(markup, 422));
          }
          const place = await home.place(ctx, params(request));
          const { hook } = await getScopeHook(ctx, place.scope, params(request).hook_id);
          const done = await redeliverFailedSince(ctx, place.scope, hook.id, since, REDELIVER_LIMIT);
          const more = done.more ? '&more=1' : '';
          const to = `${ctx.urls.base}${place.home}/${hook.id}/deliveries?status=failure&notice=redelivered_failed&count=${done.redelivered}${more}`;
          return reply.redirect(to, 303);
        },
        `${hookPath(request)}/deliveries`,
      ),
  );
}

/** Every place's delivery pages. */
export function deliveryPageRoutes(app: FastifyInstance): void {
  for (const home of HOOK_HOMES) placeRoutes(app, home);
}
