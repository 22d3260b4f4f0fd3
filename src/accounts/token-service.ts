// Personal access tokens as services: issued by a site admin for any user (`hublet admin token create`, POST
// /admin/users/{username}/authorizations) or by a signed-in person for themself (the web's /settings/tokens), both
// through one validation and one creation (issueToken); listed and revoked by either.
import type { AuditEntry } from '../core/contributions.js';
import type { ServiceContext } from '../core/context.js';
import { NotFound, ValidationFailed, type FieldError } from '../core/errors.js';
import { requireSiteAdmin, type TokenKind } from '../core/grants.js';
import type { Db } from '../db/connect.js';
import { FINE_GRAINED_PERMISSIONS, isKnownScope, isPermissionLevel, KNOWN_SCOPES } from '../core/scopes.js';
import { parseTimestamp } from '../core/timestamps.js';
import type { TokenRow, UserRow } from '../db/schema.js';
import { requireOwner } from './own-account.js';
import { requireUser, textProblem } from './service.js';
import { createToken, isTokenKind, listLiveTokens, revokeUserTokens, TOKEN_KINDS } from './tokens.js';

export interface TokenRequest {
  scopes?: string[];
  kind?: string;
  permissions?: Record<string, string>;
  appId?: number | null;
  note?: string | null;
  expiresAt?: string | null;
}

/** What a person may make for themself: personal access tokens, never a token of an app. */
const PERSONAL_TOKEN_KINDS: readonly TokenKind[] = ['classic', 'fine_grained'];

/** Who asks for a token: a site admin for anyone (any kind), or its owner (personal kinds only, a note required). */
type Issuer = 'site admin' | 'owner';

function invalid(field: string, message: string, code = 'invalid'): FieldError {
  return { resource: 'OauthAccess', field, code, message };
}

/** Checks a token request; every problem is reported at once. */
function tokenProblems(input: TokenRequest, now: Date, issuer: Issuer): { kind: TokenKind; errors: ValidationFailed | null } {
  const errors: FieldError[] = [];
  const kind = (input.kind ?? 'classic') as TokenKind;
  const kinds = issuer === 'owner' ? PERSONAL_TOKEN_KINDS : (Object.keys(TOKEN_KINDS) as TokenKind[]);
  if (!isTokenKind(kind) || !kinds.includes(kind)) errors.push(invalid('kind', `kind must be one of ${kinds.join(', ')}`));
  for (const s of input.scopes ?? []) {
    if (!isKnownScope(s)) errors.push(invalid('scopes', `unknown scope ${s}; known: ${KNOWN_SCOPES.join(', ')}`));
  }
  for (const [p, level] of Object.entries(input.permissions ?? {})) {
    if (!(FINE_GRAINED_PERMISSIONS as readonly string[]).includes(p) || !isPermissionLevel(level)) {
      errors.push(invalid('permissions', `${p}: ${level} is not a known permission and level (read, write, admin)`));
    }
  }
  if (input.expiresAt != null) {
    const at = parseTimestamp(input.expiresAt);
    if (at === undefined) errors.push(invalid('expires_at', 'expires_at must be an ISO 8601 time'));
    else if (at <= now.getTime()) errors.push(invalid('expires_at', 'expires_at must be in the future'));
  }
  const note = textProblem('OauthAccess', 'note', input.note, 1000);
  if (note) errors.push(note);
  // GitHub's token pages ask what a token is for: a person's own token is named.
  else if (issuer === 'owner' && !input.note?.trim()) errors.push(invalid('note', "note can't be blank", 'missing_field'));
  if (input.appId != null && !(Number.isSafeInteger(input.appId) && input.appId > 0 && input.appId <= 2_147_483_647)) {
    errors.push(invalid('app_id', 'app_id must be a positive 32-bit integer'));
  } else if (input.appId != null && issuer === 'owner') {
    errors.push(invalid('app_id', 'a personal access token belongs to no app'));
  }
  if (kind === 'oauth' && input.appId == null) errors.push(invalid('app_id', 'oauth tokens name the app they belong to', 'missing_field'));
  return { kind, errors: errors.length ? new ValidationFailed(errors) : null };
}

/** GitHub's name for each kind of token in the audit log (`programmatic_access_type`). */
const ACCESS_TYPES: Record<string, string> = {
  classic: 'Personal access token (classic)',
  fine_grained: 'Fine-grained personal access token',
  oauth: 'OAuth access token',
  app_user: 'GitHub App user-to-server token',
  installation: 'GitHub App server-to-server token',
};

/**
 * A token's audit entry: `personal_access_token.*` for personal ones (classic and fine-grained, whoever made them),
 * `oauth_access.*` for an app's token a site admin made. Its id, kind, note, scopes or permissions and end; never the
 * token (its hash and last characters neither).
 */
function tokenEntry(verb: 'create' | 'destroy', row: TokenRow, owner: UserRow): AuditEntry {
  const personal = (PERSONAL_TOKEN_KINDS as readonly string[]).includes(row.kind);
  const fields: Record<string, unknown> = {
    token_id: row.id,
    programmatic_access_type: ACCESS_TYPES[row.kind] ?? row.kind,
    note: row.note,
    expires_at: row.expires_at,
  };
  if (row.kind === 'fine_grained') fields.permissions = JSON.parse(row.permissions) as Record<string, string>;
  else fields.token_scopes = (JSON.parse(row.scopes) as string[]).join(',');
  if (row.app_id !== null) fields.oauth_application_id = row.app_id;
  return { action: `${personal ? 'personal_access_token' : 'oauth_access'}.${verb}`, user: owner, fields };
}

/** Records each revoked token's audit entry in the revoking transaction. */
async function recordRevoked(trx: Db, ctx: ServiceContext, rows: readonly TokenRow[], owner: UserRow): Promise<void> {
  for (const row of rows) await ctx.audit.record(trx, ctx, tokenEntry('destroy', row, owner));
}

/** The one way a token is issued: checked, then stored (its hash); the token itself is returned once and never kept. */
async function issueToken(
  ctx: ServiceContext,
  user: UserRow,
  input: TokenRequest,
  issuer: Issuer,
): Promise<{ row: TokenRow; token: string }> {
  const now = ctx.clock.now();
  const { kind, errors } = tokenProblems(input, now, issuer);
  if (errors) throw errors;
  return ctx.db.transaction().execute(async (trx) => {
    const made = await createToken(trx, {
      userId: user.id,
      kind,
      scopes: input.scopes ?? [],
      permissions: input.permissions ?? {},
      appId: input.appId ?? null,
      note: input.note ?? null,
      expiresAt: input.expiresAt ? new Date(parseTimestamp(input.expiresAt)!).toISOString() : null,
      now,
    });
    await ctx.audit.record(trx, ctx, tokenEntry('create', made.row, user));
    return made;
  });
}

/** Issues a token for a user (site admins only). */
export async function createUserToken(
  ctx: ServiceContext,
  login: string,
  input: TokenRequest,
): Promise<{ row: TokenRow; token: string; user: UserRow }> {
  requireSiteAdmin(ctx.actor);
  const user = await requireUser(ctx, login);
  return { ...(await issueToken(ctx, user, input, 'site admin')), user };
}

/** A user's live (not revoked) tokens, for site admins; the secrets themselves are never stored, so never shown. */
export async function listUserTokens(
  ctx: ServiceContext,
  login: string,
  page: { offset: number; perPage: number },
): Promise<{ user: UserRow; tokens: TokenRow[]; total: number }> {
  requireSiteAdmin(ctx.actor);
  const user = await requireUser(ctx, login);
  const { rows, total } = await listLiveTokens(ctx.db, user.id, page);
  return { user, tokens: rows, total };
}

/** Revokes every token of a user: each is refused with 401 Bad credentials from then on. */
export async function revokeTokens(ctx: ServiceContext, login: string): Promise<void> {
  requireSiteAdmin(ctx.actor);
  const user = await requireUser(ctx, login);
  await ctx.db.transaction().execute(async (trx) => {
    const revoked = await revokeUserTokens(trx, user.id, ctx.clock.now());
    await recordRevoked(trx, ctx, revoked, user);
  });
}

/** A person makes a personal access token (classic or fine-grained) for themself, by the same rules as a site admin's. */
export async function createOwnToken(ctx: ServiceContext, input: TokenRequest): Promise<{ row: TokenRow; token: string }> {
  const owner = requireOwner(ctx);
  return issueToken(ctx, owner.user, input, 'owner');
}

/** The person's own live personal access tokens (expired ones too, so they can see and delete them), newest first. */
export async function listOwnTokens(ctx: ServiceContext): Promise<TokenRow[]> {
  const owner = requireOwner(ctx);
  return ctx.db
    .selectFrom('tokens')
    .selectAll()
    .where('user_id', '=', owner.user.id)
    .where('revoked_at', 'is', null)
    .where('kind', 'in', PERSONAL_TOKEN_KINDS)
    .orderBy('id', 'desc')
    .execute();
}

/** Revokes one of the person's own personal access tokens; anyone else's, or an unknown id, is 404 and nothing changes. */
export async function revokeOwnToken(ctx: ServiceContext, id: number): Promise<TokenRow> {
  const owner = requireOwner(ctx);
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) throw new NotFound();
  return ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('tokens')
      .set({ revoked_at: ctx.clock.now().toISOString() })
      .where('id', '=', id)
      .where('user_id', '=', owner.user.id)
      .where('revoked_at', 'is', null)
      .where('kind', 'in', PERSONAL_TOKEN_KINDS)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NotFound();
    await recordRevoked(trx, ctx, [row], owner.user);
    return row;
  });
}
