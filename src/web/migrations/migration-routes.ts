// The migrations pages: a person's own (GET /settings/migrations) and an organization's, for its owners
// (GET /organizations/<org>/settings/migrations), and each one's archive download (GET …/<id>/archive), which hands
// the viewer the archive's short-lived signed URL with a 302, as the API's GET …/migrations/{id}/archive does (the
// URL is the signature; no token is ever in it). Read through the migrations service with the viewer's own authority:
// an anonymous visitor is sent to sign in, anyone else who may not see them gets the not-found page.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServiceContext } from '../../core/context.js';
import { parseId } from '../../core/ids.js';
import { pathParams } from '../../http/route-params.js';
import { typed } from '../../http/typed.js';
import { archiveUrl, listMigrations, organizationScope, repositoriesOf, userScope, type MigrationScope } from '../../migrations/service.js';
import { html, type Html } from '../html.js';
import { htmlPage, pagedQuery, paging, send, webConfig as config } from '../serve.js';
import { organizationSettingsNav, type SettingsNav } from '../settings/settings-layout.js';
import { asViewer } from '../viewer.js';
import { migrationListPage, type NamedRepository } from './migration-pages.js';

const PAGE_SIZE = 30;

/** Whose migrations a page shows, where the page is, and the navigation around it. */
interface MigrationsPlace {
  scope: MigrationScope;
  path: string;
  nav?: SettingsNav;
}

async function organizationPlace(ctx: ServiceContext, org: string): Promise<MigrationsPlace> {
  const scope = await organizationScope(ctx, org);
  const login = scope.owner.login;
  return { scope, path: `/organizations/${encodeURIComponent(login)}/settings/migrations`, nav: organizationSettingsNav(login) };
}

function personalPlace(ctx: ServiceContext): MigrationsPlace {
  return { scope: userScope(ctx), path: '/settings/migrations' };
}

function pagesOf(base: string, path: string, page: number, total: number): Html | '' {
  const last = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (last === 1) return '';
  const link = (n: number, label: string) => html`<a href="${base}${path}?page=${n}">${label}</a>`;
  return html`<nav class="pages" aria-label="Pages">${page > 1 ? link(page - 1, 'Previous') : ''}<span>Page ${page} of ${last}</span>${page < last ? link(page + 1, 'Next') : ''}</nav>`;
}

async function listPage(reply: FastifyReply, ctx: ServiceContext, place: MigrationsPlace, page?: string | string[]) {
  const p = paging(page, PAGE_SIZE);
  const { rows, total } = await listMigrations(ctx, place.scope, p);
  const loaded = await repositoriesOf(ctx, rows);
  const repositories = new Map<number, NamedRepository[]>();
  for (const [id, repos] of loaded)
    repositories.set(
      id,
      repos.map((r) => ({ owner: r.owner.login, name: r.row.name })),
    );
  const markup = migrationListPage({
    base: ctx.urls.base,
    owner: place.scope.owner,
    path: place.path,
    nav: place.nav,
    migrations: rows,
    repositories,
    now: ctx.clock.now(),
    pages: pagesOf(ctx.urls.base, place.path, p.page, total),
  });
  return send(reply, htmlPage(markup));
}

/** The archive: a 302 to its signed URL (the service's 404 while there is none, or for anyone who may not have it). */
async function download(reply: FastifyReply, ctx: ServiceContext, place: MigrationsPlace, id: string) {
  const url = await archiveUrl(ctx, place.scope, parseId(id));
  return reply.header('cache-control', 'private, no-store').redirect(url, 302);
}

export function migrationPageRoutes(fastify: FastifyInstance): void {
  const app = typed(fastify);
  const orgParams = pathParams('org');
  const orgMigrationParams = pathParams('org', 'migration_id');
  const migrationParams = pathParams('migration_id');

  app.get('/settings/migrations', { schema: { querystring: pagedQuery }, config }, async (request, reply) =>
    asViewer(request, reply, (ctx) => listPage(reply, ctx, personalPlace(ctx), request.query.page)),
  );

  app.get('/settings/migrations/:migration_id/archive', { schema: { params: migrationParams }, config }, async (request, reply) =>
    asViewer(request, reply, (ctx) => download(reply, ctx, personalPlace(ctx), request.params.migration_id)),
  );

  app.get(
    '/organizations/:org/settings/migrations',
    { schema: { params: orgParams, querystring: pagedQuery }, config },
    async (request, reply) =>
      asViewer(request, reply, async (ctx) => listPage(reply, ctx, await organizationPlace(ctx, request.params.org), request.query.page)),
  );

  app.get(
    '/organizations/:org/settings/migrations/:migration_id/archive',
    { schema: { params: orgMigrationParams }, config },
    async (request, reply) =>
      asViewer(request, reply, async (ctx) =>
        download(reply, ctx, await organizationPlace(ctx, request.params.org), request.params.migration_id),
      ),
  );
}
