// Sign-up invitations (HUBLET_SIGNUP=invite): a site admin makes one (`hublet admin invite create`, POST
// /admin/invitations), a random token shown once in a link `<base>/signup?invitation=TOKEN` and stored as its SHA-256
// hash only; it is good for 7 days unless told otherwise, and for one account, used up in the transaction that makes it.
import crypto from 'node:crypto';
import type { ServiceContext } from '../core/context.js';
import { Forbidden } from '../core/errors.js';
import { requireSiteAdmin } from '../core/grants.js';
import type { Db } from '../db/connect.js';
import type { InvitationRow } from '../db/tables/sign-in.js';
import { textProblem, throwProblems } from './service.js';

const DEFAULT_INVITATION_DAYS = 7;
const MAX_INVITATION_DAYS = 365;
const DAY_MS = 24 * 3600 * 1000;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Why sign-up is refused without a good invitation (none given, unknown, used or expired: the same answer). */
export const INVITATION_NEEDED =
  'Signing up here needs an invitation link from a site administrator. Each invitation works once, for a limited time.';

function hashInvitation(token: string): string {
  return crypto.hash('sha256', token, 'hex');
}

/** The link a person follows to sign up with this invitation. */
function invitationLink(base: string, token: string): string {
  return `${base}/signup?invitation=${encodeURIComponent(token)}`;
}

/** A site admin makes an invitation; its token is returned once (with its link) and never stored. */
export async function createInvitation(
  ctx: ServiceContext,
  input: { note?: string | null; expiresInDays?: number },
): Promise<{ row: InvitationRow; token: string; link: string }> {
  const actor = requireSiteAdmin(ctx.actor);
  const days = input.expiresInDays ?? DEFAULT_INVITATION_DAYS;
  throwProblems([
    textProblem('Invitation', 'note', input.note, 1000),
    Number.isSafeInteger(days) && days >= 1 && days <= MAX_INVITATION_DAYS
      ? null
      : {
          resource: 'Invitation',
          field: 'expires_in_days',
          code: 'invalid',
          message: `expires_in_days must be a whole number of days from 1 to ${MAX_INVITATION_DAYS}`,
        },
  ]);
  const token = crypto.randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const made = await trx
      .insertInto('invitations')
      .values({
        token_hash: hashInvitation(token),
        created_by: actor.user.id,
        note: input.note ?? null,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + days * DAY_MS).toISOString(),
        used_at: null,
        used_by: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // Never the token (nor its link): the invitation's id, note and end.
    await ctx.audit.record(trx, ctx, {
      action: 'business.create_invitation',
      fields: { invitation_id: made.id, note: made.note, expires_at: made.expires_at },
    });
    return made;
  });
  return { row, token, link: invitationLink(ctx.urls.base, token) };
}

/** The invitation a presented token names, when it is still good (not used, not expired); otherwise undefined. */
export async function findUsableInvitation(db: Db, token: string, now: Date): Promise<InvitationRow | undefined> {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const hash = hashInvitation(token);
  const row = await db.selectFrom('invitations').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  // Found by the index; compared again in constant time, as tokens are.
  if (!row || !crypto.timingSafeEqual(Buffer.from(row.token_hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
  if (row.used_at !== null || Date.parse(row.expires_at) <= now.getTime()) return undefined;
  return row;
}

/**
 * Uses an invitation up for the account `userId`, in the transaction that makes the account: of two sign-ups with one
 * invitation, the second finds it used (under the row's lock) and its account is rolled back.
 */
export async function useInvitation(trx: Db, id: number, userId: number, now: Date): Promise<void> {
  const at = now.toISOString();
  const result = await trx
    .updateTable('invitations')
    .set({ used_at: at, used_by: userId })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new Forbidden(INVITATION_NEEDED);
}
