// OAuth apps (GitHub's "OAuth apps"): registered by a person at /settings/applications/new or by a site admin
// (`hublet admin app create`), each with a public client id, a client secret shown once and kept only as a SHA-256
// hash (and its last eight characters), and the callback URL codes are sent back to; the built-in public clients
// (builtin-apps.ts) have a row on every database, made when first needed.
import crypto from 'node:crypto';
import type { ServiceContext } from '../core/context.js';
import { NotFound, type FieldError } from '../core/errors.js';
import { requireActor, requireSiteAdmin } from '../core/grants.js';
import type { Db } from '../db/connect.js';
import type { OauthAppRow } from '../db/tables/sign-in.js';
import { BUILTIN_APPS } from './builtin-apps.js';
import { textProblem, throwProblems } from './service.js';

export type { OauthAppRow };

export interface AppInput {
  name: string;
  homepageUrl?: string | null;
  description?: string | null;
  callbackUrl: string;
}

const RESOURCE = 'OauthApplication';

/** An absolute http(s) URL without credentials (and, for a callback, without a fragment: RFC 6749 §3.1.2). */
function urlProblem(field: string, value: string | null | undefined, required: boolean, callback = false): FieldError | null {
  if (value == null || value === '') {
    return required ? { resource: RESOURCE, field, code: 'missing_field', message: `${field} is required` } : null;
  }
  let url: URL | undefined;
  try {
    url = value.length <= 2000 && !/[\s\0]/.test(value) ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || (callback && value.includes('#')))
    return {
      resource: RESOURCE,
      field,
      code: 'invalid',
      message: `${field} must be an http or https URL${callback ? ' without a fragment' : ''}`,
    };
  return null;
}

/** Every problem with an app's fields (a web form shows each beside its field). */
function appProblems(input: AppInput, opts: { homepageRequired: boolean }): FieldError[] {
  const name = input.name.trim();
  const problems = [
    name === ''
      ? { resource: RESOURCE, field: 'name', code: 'missing_field', message: 'name is required' }
      : textProblem(RESOURCE, 'name', name, 100),
    urlProblem('homepage_url', input.homepageUrl, opts.homepageRequired),
    textProblem(RESOURCE, 'description', input.description, 400),
    urlProblem('callback_url', input.callbackUrl, true, true),
  ];
  return problems.filter((p): p is FieldError => p !== null);
}

/** Loopback hosts: a loopback callback accepts any of them on any port (RFC 8252 §7.3; GitHub: any port). */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function parsedUrl(value: string): URL | undefined {
  if (value.length > 2000 || /[\s\0#]/.test(value)) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * Where the web flow may send a person back, per GitHub's rules for `redirect_uri`: none given is the registered
 * callback; one given must have the callback's scheme, host and port (a loopback callback: any loopback host and any
 * port) and a path equal to the callback's or below it. Answers the URI in normal form, or undefined when it may not be used.
 */
/**
 * GitHub: "The redirect_uri's host (excluding sub-domains) and port must exactly match the callback URL": the callback's
 * host or a subdomain of it (never of an IP address), on the same port.
 */
function sameHostOrSubdomain(uri: URL, callback: URL): boolean {
  if (uri.port !== callback.port) return false;
  if (uri.hostname === callback.hostname) return true;
  const ip = /^[\d.]+$|^\[/.test(callback.hostname);
  return !ip && uri.hostname.endsWith(`.${callback.hostname}`);
}

export function acceptedRedirectUri(callbackUrl: string, given: string): string | undefined {
  const callback = parsedUrl(callbackUrl);
  if (!callback) return undefined;
  if (given === '') return callback.href;
  const uri = parsedUrl(given);
  if (!uri || uri.protocol !== callback.protocol || uri.username || uri.password) return undefined;
  if (LOOPBACK.has(callback.hostname) ? !LOOPBACK.has(uri.hostname) : !sameHostOrSubdomain(uri, callback)) return undefined;
  const below = callback.pathname.endsWith('/') ? callback.pathname : `${callback.pathname}/`;
  if (uri.pathname !== callback.pathname && !uri.pathname.startsWith(below)) return undefined;
  return uri.href;
}

/** A redirect URI in the normal form codes are bound to ('' when it is no URL at all). */
export function normalRedirectUri(value: string): string {
  return parsedUrl(value)?.href ?? '';
}

const now = (at: Date) => at.toISOString();

/**
 * Makes the built-in apps' rows where they are missing, and keeps their name and addresses as builtin-apps.ts says
 * (idempotent; several processes may race: the unique index decides, and they write the same values).
 */
export async function ensureBuiltinApps(db: Db, at: Date): Promise<void> {
  const ids = BUILTIN_APPS.map((a) => a.clientId);
  const rows = await db.selectFrom('oauth_apps').selectAll().where('client_id', 'in', ids).execute();
  for (const app of BUILTIN_APPS) {
    const fields = { name: app.name, homepage_url: app.homepageUrl, callback_url: app.callbackUrl, builtin: 1 };
    const row = rows.find((r) => r.client_id === app.clientId);
    if (row) {
      if (row.name !== app.name || row.homepage_url !== app.homepageUrl || row.callback_url !== app.callbackUrl || !row.builtin)
        await db
          .updateTable('oauth_apps')
          .set({ ...fields, updated_at: now(at) })
          .where('id', '=', row.id)
          .execute();
      continue;
    }
    await db
      .insertInto('oauth_apps')
      .values({
        ...fields,
        client_id: app.clientId,
        client_secret_hash: null,
        client_secret_last_eight: null,
        description: null,
        owner_id: null,
        created_at: now(at),
        updated_at: now(at),
      })
      .onConflict((oc) => oc.column('client_id').doNothing())
      .execute();
  }
}

/** The app with this client id (a built-in one is made on first use), or undefined. */
export async function findAppByClientId(db: Db, clientId: string, at: Date): Promise<OauthAppRow | undefined> {
  if (clientId === '' || clientId.length > 100 || clientId.includes('\0')) return undefined;
  const read = () => db.selectFrom('oauth_apps').selectAll().where('client_id', '=', clientId).executeTakeFirst();
  const row = await read();
  if (row || !BUILTIN_APPS.some((a) => a.clientId === clientId)) return row;
  await ensureBuiltinApps(db, at);
  return read();
}

/** A new app's row; its client secret comes with `newClientSecret`. */
async function insertApp(db: Db, input: AppInput, ownerId: number | null, at: Date): Promise<OauthAppRow> {
  return db
    .insertInto('oauth_apps')
    .values({
      // 20 hexadecimal characters, as GitHub's OAuth apps' client ids (gh's: 178c6fc778ccc68e1d6a).
      client_id: crypto.randomBytes(10).toString('hex'),
      client_secret_hash: null,
      client_secret_last_eight: null,
      name: input.name.trim(),
      description: input.description?.trim() || null,
      homepage_url: input.homepageUrl || null,
      callback_url: input.callbackUrl,
      owner_id: ownerId,
      builtin: 0,
      created_at: now(at),
      updated_at: now(at),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

function hashSecret(secret: string): string {
  return crypto.hash('sha256', secret, 'hex');
}

/** Gives the app a new client secret (the old one stops working) and returns it: its only copy. */
async function newClientSecret(db: Db, appId: number, at: Date): Promise<string> {
  const secret = crypto.randomBytes(20).toString('hex');
  await db
    .updateTable('oauth_apps')
    .set({ client_secret_hash: hashSecret(secret), client_secret_last_eight: secret.slice(-8), updated_at: now(at) })
    .where('id', '=', appId)
    .where('builtin', '=', 0)
    .execute();
  return secret;
}

/**
 * Whether a presented client secret is the app's, compared in constant time. A public client (a built-in app, which
 * has no secret) needs none; an app that has not generated its secret yet accepts none.
 */
export function clientSecretMatches(app: OauthAppRow, presented: string): boolean {
  if (app.builtin) return true;
  if (!app.client_secret_hash) return false;
  return crypto.timingSafeEqual(Buffer.from(app.client_secret_hash, 'hex'), Buffer.from(hashSecret(presented), 'hex'));
}

/** The apps a person registered, newest first. */
export function appsOwnedBy(db: Db, userId: number): Promise<OauthAppRow[]> {
  return db.selectFrom('oauth_apps').selectAll().where('owner_id', '=', userId).orderBy('id', 'desc').execute();
}

/** One of the caller's own apps by its id (404 for anyone else's, or none). */
export async function requireOwnApp(ctx: ServiceContext, appId: number): Promise<OauthAppRow> {
  const actor = requireActor(ctx.actor);
  const app = await ctx.db
    .selectFrom('oauth_apps')
    .selectAll()
    .where('id', '=', appId)
    .where('owner_id', '=', actor.user.id)
    .executeTakeFirst();
  if (!app) throw new NotFound();
  return app;
}

/** A person registers an app of their own (its secret comes when they generate one), GitHub's form rules. */
export async function registerOwnApp(ctx: ServiceContext, input: AppInput): Promise<OauthAppRow> {
  const actor = requireActor(ctx.actor);
  throwProblems(appProblems(input, { homepageRequired: true }));
  return insertApp(ctx.db, input, actor.user.id, ctx.clock.now());
}

/** A new client secret for one of the caller's own apps (the old one stops working); returns the app and the secret. */
export async function generateOwnAppSecret(ctx: ServiceContext, appId: number): Promise<{ app: OauthAppRow; secret: string }> {
  const app = await requireOwnApp(ctx, appId);
  const secret = await newClientSecret(ctx.db, app.id, ctx.clock.now());
  return { app: await requireOwnApp(ctx, appId), secret };
}

/** A site admin registers an app owned by no one, with its client secret (`hublet admin app create`, POST /admin/oauth-apps). */
export async function createSiteApp(ctx: ServiceContext, input: AppInput): Promise<{ app: OauthAppRow; secret: string }> {
  requireSiteAdmin(ctx.actor);
  throwProblems(appProblems(input, { homepageRequired: false }));
  const at = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const inserted = await insertApp(trx, input, null, at);
    const secret = await newClientSecret(trx, inserted.id, at);
    const app = await trx.selectFrom('oauth_apps').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
    // The client id is public; the secret never enters the log.
    await ctx.audit.record(trx, ctx, {
      action: 'business.create_oauth_app',
      fields: { oauth_application_id: app.id, oauth_application_name: app.name, client_id: app.client_id },
    });
    return { app, secret };
  });
}
