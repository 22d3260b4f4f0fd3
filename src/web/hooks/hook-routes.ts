// The webhook settings pages at GitHub's addresses, for each place hooks live (hook-places.ts): the list
// (GET …/settings/hooks), "Add webhook" (GET …/new, POST …/settings/hooks), a hook's settings (GET and POST …/<id>),
// the delete confirmation and the delete (GET and POST …/<id>/delete) and "Ping" (POST …/<id>/pings). Each acts
// through the webhooks service with the viewer's own authority, as the API's routes do: an anonymous visitor is sent
// to sign in, anyone who may not manage those hooks gets the not-found page; a refused form is answered 422 with each
// problem next to its field and what was typed kept (the secret never).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../../core/context.js';
import { ValidationFailed, type FieldError } from '../../core/errors.js';
import { pathParams } from '../../http/route-params.js';
import { typed } from '../../http/typed.js';
import {
  createScopeHookFrom,
  deleteScopeHook,
  editScopeHookFrom,
  getScopeHook,
  listScopeHooks,
  pingScopeHook,
} from '../../webhooks/service.js';
import { csrfToken } from '../csrf.js';
import { field, formSchema, type FormErrors } from '../forms.js';
import { html, type Html } from '../html.js';
import { htmlPage, paging, queryValue, send, webConfig as config } from '../serve.js';
import { asViewer } from '../viewer.js';
import { createBody, hookEdit, hookFormErrors, hookFormPage, hookValues, newHookValues, postedValues } from './hook-form.js';
import { deleteHookPage, hookListPage, hookTabs, noticeOf } from './hook-pages.js';
import { HOOK_HOMES, type HooksHome, type HooksPlace } from './hook-places.js';

const PAGE_SIZE = 30;
/** `?page=` of the list, and `?notice=` (with `count`, `more`) naming what a change just did. */
const pageQuery = { type: 'object', properties: { page: queryValue, notice: queryValue, count: queryValue, more: queryValue } } as const;

type Params = Record<string, string>;

/** Where to go after a change: a page of these hooks, with its notice. */
function after(reply: FastifyReply, ctx: ServiceContext, path: string, notice: string): FastifyReply {
  return reply.redirect(`${ctx.urls.base}${path}?notice=${notice}`, 303);
}

/** The form again (422), the service's problems next to their fields, what was typed kept. */
function refused(reply: FastifyReply, err: unknown, form: (errors: FormErrors) => Html): FastifyReply {
  if (!(err instanceof ValidationFailed)) throw err;
  return send(reply, htmlPage(form(hookFormErrors(err.extra.errors as FieldError[])), 422));
}

/** "Older" and "Newer" pages of the list, when there are several. */
function listPages(base: string, place: HooksPlace, page: number, total: number): Html | '' {
  const last = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (last === 1) return '';
  const link = (n: number, label: string) => html`<a href="${base}${place.home}?page=${n}">${label}</a>`;
  return html`<nav class="pages" aria-label="Pages">${page > 1 ? link(page - 1, 'Previous') : ''}<span>Page ${page} of ${last}</span>${page < last ? link(page + 1, 'Next') : ''}</nav>`;
}

function placeRoutes(fastify: FastifyInstance, home: HooksHome): void {
  const app = typed(fastify);
  const listParams = pathParams(...home.params);
  const hookParams = pathParams(...home.params, 'hook_id');
  const placeOf = (ctx: ServiceContext, request: FastifyRequest) => home.place(ctx, request.params as Params);
  const hookId = (request: FastifyRequest) => (request.params as Params).hook_id;
  /** A refused POST sends the visitor to sign in, then back to the page the form was on. */
  const back = (request: FastifyRequest, suffix = '') => request.url.replace(/\/(delete|pings)$/, '') + suffix;

  app.get(home.route, { schema: { params: listParams, querystring: pageQuery }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx) => {
      const place = await placeOf(ctx, request);
      const p = paging(request.query.page, PAGE_SIZE);
      const { hooks, last, total } = await listScopeHooks(ctx, place.scope, p);
      const base = ctx.urls.base;
      const pages = listPages(base, place, p.page, total);
      return send(reply, htmlPage(hookListPage({ base, place, hooks, last, notice: noticeOf(request.query), pages })));
    }),
  );

  app.get(`${home.route}/new`, { schema: { params: listParams, querystring: { type: 'object' } }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx) => {
      const place = await placeOf(ctx, request);
      const markup = hookFormPage({ base: ctx.urls.base, csrf: csrfToken(request, reply), place, values: newHookValues(place) });
      return send(reply, htmlPage(markup));
    }),
  );

  // "Add webhook": made (and pinged, when active) as POST …/hooks makes it.
  app.post(home.route, { schema: { ...formSchema, params: listParams }, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        const place = await placeOf(ctx, request);
        const values = postedValues(request.body);
        try {
          await createScopeHookFrom(ctx, place.scope, createBody(values, field(request.body, 'secret')));
        } catch (err) {
          return refused(reply, err, (errors) =>
            hookFormPage({ base: ctx.urls.base, csrf: csrfToken(request, reply), place, values, errors }),
          );
        }
        return after(reply, ctx, place.home, 'created');
      },
      back(request, '/new'),
    ),
  );

  app.get(`${home.route}/:hook_id`, { schema: { params: hookParams, querystring: pageQuery }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx) => {
      const place = await placeOf(ctx, request);
      const { hook } = await getScopeHook(ctx, place.scope, hookId(request));
      const markup = hookFormPage({
        base: ctx.urls.base,
        csrf: csrfToken(request, reply),
        place,
        values: hookValues(hook),
        hook: { id: hook.id, hasSecret: hook.secret !== null },
        tabs: hookTabs(ctx.urls.base, place, hook, 'settings'),
        notice: noticeOf(request.query),
      });
      return send(reply, htmlPage(markup));
    }),
  );

  // "Update webhook": the config patched (a secret left empty stays), the events and Active set.
  app.post(`${home.route}/:hook_id`, { schema: { ...formSchema, params: hookParams }, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        const place = await placeOf(ctx, request);
        const { hook } = await getScopeHook(ctx, place.scope, hookId(request));
        const values = postedValues(request.body);
        try {
          await editScopeHookFrom(ctx, place.scope, hook.id, hookEdit(values, field(request.body, 'secret')));
        } catch (err) {
          return refused(reply, err, (errors) =>
            hookFormPage({
              base: ctx.urls.base,
              csrf: csrfToken(request, reply),
              place,
              values,
              errors,
              hook: { id: hook.id, hasSecret: hook.secret !== null },
              tabs: hookTabs(ctx.urls.base, place, hook, 'settings'),
            }),
          );
        }
        return after(reply, ctx, `${place.home}/${hook.id}`, 'updated');
      },
      back(request),
    ),
  );

  app.get(`${home.route}/:hook_id/delete`, { schema: { params: hookParams }, config }, async (request, reply) =>
    asViewer(request, reply, async (ctx) => {
      const place = await placeOf(ctx, request);
      const { hook } = await getScopeHook(ctx, place.scope, hookId(request));
      return send(reply, htmlPage(deleteHookPage({ base: ctx.urls.base, csrf: csrfToken(request, reply), place, hook })));
    }),
  );

  // "Yes, delete webhook": deleted as DELETE …/hooks/{hook_id} deletes it (an active hook gets its `meta` event).
  app.post(`${home.route}/:hook_id/delete`, { schema: { ...formSchema, params: hookParams }, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        const place = await placeOf(ctx, request);
        await deleteScopeHook(ctx, place.scope, hookId(request));
        return after(reply, ctx, place.home, 'deleted');
      },
      back(request),
    ),
  );

  // "Ping": a ping event to this hook, as POST …/hooks/{hook_id}/pings sends it.
  app.post(`${home.route}/:hook_id/pings`, { schema: { ...formSchema, params: hookParams }, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        const place = await placeOf(ctx, request);
        const id = hookId(request);
        await pingScopeHook(ctx, place.scope, id);
        return after(reply, ctx, `${place.home}/${encodeURIComponent(id)}/deliveries`, 'pinged');
      },
      back(request, '/deliveries'),
    ),
  );
}

/** Every place's hook pages. */
export function hookPageRoutes(app: FastifyInstance): void {
  for (const home of HOOK_HOMES) placeRoutes(app, home);
}
