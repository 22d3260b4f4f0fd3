// Migration endpoints under /orgs/{org}/migrations (owners) and /user/migrations (the account owner), and archive serving.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Grant } from '../core/grants.js';
import { absentBodyIsEmpty } from '../http/body.js';
import { parseId } from '../core/ids.js';
import { pagedList, pagingQuery, type Paging } from '../http/pagination.js';
import { pathParams } from '../http/route-params.js';
import { typed } from '../http/typed.js';
import { archiveDownloadRoutes } from './download.js';
import { migrationImportRoutes } from './import/routes.js';
import { migration } from './present.js';
import { presentRepository, type LoadedRepository } from './repositories.js';
import {
  archiveUrl,
  deleteArchive,
  getMigration,
  listMigrationRepositories,
  listMigrations,
  MAX_REPOSITORIES,
  organizationScope,
  repositoriesOf,
  startMigration,
  unlockMigrationRepository,
  userScope,
  type MigrationScope,
} from './service.js';
import type { MigrationRow } from '../db/tables/migrations.js';

/**
 * Migrations refuse fine-grained personal access tokens and GitHub App tokens (installation and user-to-server), as
 * GitHub documents for every migration endpoint. A user migration accepts `repo` or `user`; `user` covers the account's
 * profile only, so such a token exports public repositories only: the service checks each repository with GET /repos's
 * read rule when the migration starts and again before the archive is handed out.
 */
const ORG_GRANT: Grant = { scopes: ['admin:org'], fineGrained: null, apps: false };
const USER_GRANT: Grant = { scopes: ['repo', 'user'], fineGrained: null, apps: false, missingScope: 403 };

const flag = { type: 'boolean' } as const;

const startBody = {
  type: 'object',
  required: ['repositories'],
  properties: {
    repositories: { type: 'array', maxItems: MAX_REPOSITORIES, items: { type: 'string', maxLength: 300 } },
    lock_repositories: flag,
    exclude_metadata: flag,
    exclude_git_data: flag,
    exclude_attachments: flag,
    exclude_releases: flag,
    exclude_owner_projects: flag,
    org_metadata_only: flag,
    exclude: { type: 'array', items: { type: 'string', enum: ['repositories'] } },
  },
} as const;

const pagedQuery = { type: 'object', properties: pagingQuery } as const;
const migrationParams = pathParams('migration_id');
const lockParams = pathParams('migration_id', 'repo_name');

/** `exclude=repositories`, `exclude[]=repositories`, `exclude=repositories,other`, or a body's `exclude` array. */
function excludesRepositories(query: unknown, body?: string[]): boolean {
  const q = (query ?? {}) as Record<string, unknown>;
  const values = [q.exclude, q['exclude[]']]
    .flat()
    .filter((v): v is string => typeof v === 'string')
    .flatMap((v) => v.split(','));
  return [...values.map((v) => v.trim()), ...(body ?? [])].includes('repositories');
}

type ScopeOf = (request: FastifyRequest) => Promise<MigrationScope>;

function routesFor(prefix: string, grant: Grant, scopeOf: ScopeOf) {
  return async (fastify: FastifyInstance): Promise<void> => {
    const app = typed(fastify);
    // The scope is settled before the body is validated: someone who may not start a migration learns nothing from a 422.
    const scopes = new WeakMap<FastifyRequest, MigrationScope>();
    const resolveScope = async (request: FastifyRequest) => {
      scopes.set(request, await scopeOf(request));
    };
    const scope = (request: FastifyRequest) => scopes.get(request)!;
    const config = { grant, resource: 'Migration' };
    const present = (request: FastifyRequest, m: MigrationRow, repos: LoadedRepository[] | undefined) =>
      migration(
        m,
        {
          owner: scope(request).owner,
          repositories: repos?.map((r) => presentRepository(r, request.ctx.urls, request.apiVersion)),
          now: request.ctx.clock.now(),
        },
        request.ctx.urls,
      );

    app.get(prefix, { config, preValidation: resolveScope, schema: { querystring: pagedQuery } }, async (request, reply) => {
      // Each migration's repositories too, loaded for the whole page at once, unless the query excludes them.
      const load = async (paging: Paging) => {
        const { rows, total } = await listMigrations(request.ctx, scope(request), paging);
        const repos = excludesRepositories(request.query) ? undefined : await repositoriesOf(request.ctx, rows);
        return { rows, total, repos };
      };
      return pagedList(request, reply, load, ({ rows, repos }) =>
        rows.map((m) => present(request, m, repos ? (repos.get(m.id) ?? []) : undefined)),
      );
    });

    app.post(prefix, { config, preValidation: [resolveScope, absentBodyIsEmpty], schema: { body: startBody } }, async (request, reply) => {
      const m = await startMigration(request.ctx, scope(request), request.body);
      const exclude = excludesRepositories(request.query, request.body.exclude);
      const repos = exclude ? undefined : (await repositoriesOf(request.ctx, [m])).get(m.id);
      return reply.code(201).send(present(request, m, repos));
    });

    app.get(`${prefix}/:migration_id`, { config, preValidation: resolveScope, schema: { params: migrationParams } }, async (request) => {
      const m = await getMigration(request.ctx, scope(request), parseId(request.params.migration_id));
      const repos = excludesRepositories(request.query) ? undefined : (await repositoriesOf(request.ctx, [m])).get(m.id);
      return present(request, m, repos);
    });

    app.get(
      `${prefix}/:migration_id/archive`,
      { config, preValidation: resolveScope, schema: { params: migrationParams } },
      async (request, reply) => {
        const url = await archiveUrl(request.ctx, scope(request), parseId(request.params.migration_id));
        // GitHub sends the signed URL as the 302's body too (plain text): PyGithub's Migration.get_archive_url() does not
        // follow the redirect and reads the URL from there; other clients follow Location.
        return reply.code(302).header('location', url).type('text/plain; charset=utf-8').send(url);
      },
    );

    app.delete(
      `${prefix}/:migration_id/archive`,
      { config, preValidation: resolveScope, schema: { params: migrationParams } },
      async (request, reply) => {
        await deleteArchive(request.ctx, scope(request), parseId(request.params.migration_id));
        return reply.code(204).send();
      },
    );

    app.delete(
      `${prefix}/:migration_id/repos/:repo_name/lock`,
      { config, preValidation: resolveScope, schema: { params: lockParams } },
      async (request, reply) => {
        await unlockMigrationRepository(request.ctx, scope(request), parseId(request.params.migration_id), request.params.repo_name);
        return reply.code(204).send();
      },
    );

    app.get(
      `${prefix}/:migration_id/repositories`,
      { config, preValidation: resolveScope, schema: { params: migrationParams, querystring: pagedQuery } },
      async (request, reply) =>
        pagedList(
          request,
          reply,
          (paging) => listMigrationRepositories(request.ctx, scope(request), parseId(request.params.migration_id), paging),
          (page) => page.repositories.map((r) => presentRepository(r, request.ctx.urls, request.apiVersion)),
        ),
    );
  };
}

/** Every migration route and the archive route. */
export async function migrationRoutes(app: FastifyInstance): Promise<void> {
  await app.register(
    routesFor('/orgs/:org/migrations', ORG_GRANT, async (request) =>
      organizationScope(request.ctx, (request.params as { org: string }).org),
    ),
  );
  await app.register(routesFor('/user/migrations', USER_GRANT, async (request) => userScope(request.ctx)));
  await app.register(archiveDownloadRoutes);
  await app.register(migrationImportRoutes);
}
