// hublet's addition to the site admin API: POST /admin/invitations makes a sign-up invitation (HUBLET_SIGNUP=invite),
// answering its link and token once (only the token's hash is kept). Site admins only, as the rest of /admin.
import type { FastifyInstance } from 'fastify';
import type { Urls } from '../core/urls.js';
import { requireActor, SITE_ADMIN } from '../core/grants.js';
import { isoUtc } from '../core/timestamps.js';
import type { UserRow } from '../db/schema.js';
import type { InvitationRow } from '../db/tables/sign-in.js';
import { absentBodyIsEmpty } from '../http/body.js';
import { typed } from '../http/typed.js';
import { createInvitation } from './invitations.js';
import { simpleUser } from './present.js';

/** An invitation as the API shows it; `token` and `invitation_url` only in the answer that made it. */
function invitation(row: InvitationRow, inviter: UserRow, urls: Urls, made: { token: string; link: string }) {
  return {
    id: row.id,
    token: made.token,
    invitation_url: made.link,
    note: row.note,
    inviter: simpleUser(inviter, urls),
    created_at: isoUtc(row.created_at),
    expires_at: isoUtc(row.expires_at),
  };
}

export async function invitationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  app.post(
    '/admin/invitations',
    {
      schema: {
        body: {
          type: 'object',
          properties: { note: { type: 'string' }, expires_in_days: { type: 'integer' } },
        },
      },
      config: { grant: SITE_ADMIN, resource: 'Invitation' },
      preValidation: absentBodyIsEmpty,
    },
    async (request, reply) => {
      const made = await createInvitation(request.ctx, { note: request.body.note, expiresInDays: request.body.expires_in_days });
      const inviter = requireActor(request.ctx.actor).user;
      return reply.code(201).send(invitation(made.row, inviter, request.ctx.urls, made));
    },
  );
}
