// The page of a user or an organization (the html_url of accounts): its profile, public repositories and, for a user,
// public gists; an organization's owners also get a link to its settings. Cached by the change stamp per viewer, as
// every page (routes.ts).
import type { FastifyInstance } from 'fastify';
import { requireAnyAccount, requireOrgOwner } from '../../accounts/service.js';
import type { ServiceContext } from '../../core/context.js';
import { NotFound } from '../../core/errors.js';
import type { UserRow } from '../../db/schema.js';
import { listForUser } from '../../gists/reads.js';
import { listForOwner } from '../../repos/reads.js';
import { pathParams } from '../../http/route-params.js';
import { typed } from '../../http/typed.js';
import { LIST_PAGE_SIZE } from '../gists/gist-lists.js';
import { profilePage } from './account-page.js';
import { htmlPage, orNotFound, send, webConfig as config, type WebState } from '../serve.js';
import { pageContext } from '../viewer.js';

const ownerParams = pathParams('owner');

/** The settings of an organization the viewer owns (the accounts service's rule for owners), or none. */
async function settingsOf(ctx: ServiceContext, account: UserRow): Promise<string | undefined> {
  if (account.type !== 'Organization' || !ctx.actor) return undefined;
  const owner = await requireOrgOwner(ctx, account.login).then(
    () => true,
    (err: unknown) => {
      if (err instanceof NotFound) return false;
      throw err;
    },
  );
  return owner ? ctx.urls.html(`/organizations/${encodeURIComponent(account.login)}/settings/hooks`) : undefined;
}

export function accountPageRoutes(fastify: FastifyInstance, { cache }: WebState): void {
  const app = typed(fastify);

  app.get('/:owner', { schema: { params: ownerParams }, config }, async (request, reply) => {
    const ctx = pageContext(request);
    const login = request.params.owner;
    return send(
      reply,
      await cache.get(ctx, `profile ${login.toLowerCase()}`, async () => {
        const account = await orNotFound(requireAnyAccount(ctx, login));
        const [repos, gists, settings] = await Promise.all([
          listForOwner(ctx, account, { affiliations: ['owner'], sort: 'pushed', direction: 'desc', offset: 0, limit: LIST_PAGE_SIZE }),
          account.type === 'User' ? listForUser(ctx, account.login, { page: 1, perPage: 10, offset: 0 }) : null,
          settingsOf(ctx, account),
        ]);
        return htmlPage(profilePage({ account, repos, gists, settings }, ctx.urls));
      }),
    );
  });
}
