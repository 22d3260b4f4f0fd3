// A person's own public profile: the fields GitHub's "Public profile" settings page and `PATCH /user` change, under one
// set of rules for both (GitHub's lengths, one line of text but for the bio, an email address as the API takes it and no
// other account's), and their uploaded picture (PNG, JPEG, GIF or WebP of at most 1 MB, known by its magic bytes and
// never by what the client says it is), which `/avatars/<login>` serves instead of the identicon.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { ServiceContext } from '../core/context.js';
import { HttpError, NotFound, ValidationFailed, type FieldError } from '../core/errors.js';
import { requireActor } from '../core/grants.js';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import type { AvatarRow } from '../db/tables/profiles.js';
import { requireOwner } from './own-account.js';
import { emailProblem } from './service.js';
import { updateAccount, type AccountProfile } from './store.js';

/** The fields a person changes on their profile, as `PATCH /user` names them; absent: unchanged, '' or null: cleared. */
export interface ProfileChanges {
  name?: string | null;
  email?: string | null;
  blog?: string | null;
  company?: string | null;
  location?: string | null;
  bio?: string | null;
}

type ProfileField = keyof ProfileChanges;

/** GitHub's limits, in characters; every field but the bio is one line. */
const LIMITS: Record<Exclude<ProfileField, 'email'>, number> = { name: 255, blog: 255, company: 255, location: 255, bio: 160 };
const FIELDS: readonly ProfileField[] = ['name', 'email', 'blog', 'company', 'location', 'bio'];

/** Whether text holds a control character other than those `allowed` (a one-line field allows none; the bio tabs and line breaks). */
function hasControlCharacter(text: string, allowed: string): boolean {
  for (const c of text) {
    const code = c.charCodeAt(0);
    if ((code < 0x20 || code === 0x7f) && !allowed.includes(c)) return true;
  }
  return false;
}

function problem(field: ProfileField | 'avatar', message: string, code = 'invalid'): FieldError {
  return { resource: 'User', field, code, message };
}

/** What is wrong with one submitted value (already trimmed), or null. */
function fieldProblem(field: ProfileField, value: string): FieldError | null {
  if (field === 'email') return emailProblem('User', value);
  if (hasControlCharacter(value, field === 'bio' ? '\t\n\r' : ''))
    return problem(field, field === 'bio' ? 'bio can’t contain control characters' : `${field} must be one line of text`);
  const max = LIMITS[field];
  if ([...value].length > max) return problem(field, `${field} is too long (maximum is ${max} characters)`);
  return null;
}

/**
 * The caller changes their own profile (`PATCH /user` with a token carrying `user`, or the settings page): every field
 * is checked before anything is written, all problems reported at once (422, one error per field); a value is kept
 * trimmed and an empty one clears the field. An email address must be one the API takes and no other account's (hublet
 * keeps one address per account: the one shown, and the one people sign in with). Returns the user as they are now.
 */
export async function updateOwnProfile(ctx: ServiceContext, changes: ProfileChanges): Promise<UserRow> {
  const user = requireActor(ctx.actor).user;
  const fields: AccountProfile = {};
  const problems: FieldError[] = [];
  // In the body's order, as GitHub lists a 422's errors.
  for (const field of Object.keys(changes).filter((k): k is ProfileField => FIELDS.includes(k as ProfileField))) {
    const raw = changes[field];
    if (raw === undefined) continue;
    const value = raw?.trim() ?? '';
    const wrong = value === '' ? null : fieldProblem(field, value);
    if (wrong) problems.push(wrong);
    fields[field] = value === '' ? null : value;
  }
  const email = fields.email;
  if (email && email.toLowerCase() !== user.email?.toLowerCase() && !problems.some((p) => p.field === 'email')) {
    if (await emailTaken(ctx.db, email, user.id))
      problems.push(problem('email', 'email is already in use by another account', 'already_exists'));
  }
  if (problems.length) throw new ValidationFailed(problems);
  const row = await updateAccount(ctx.db, user.id, fields, ctx.clock.now());
  if (!row) throw new NotFound();
  return row;
}

async function emailTaken(db: Db, email: string, exceptId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The largest picture kept: 1 MB. A form's parser keeps at most one byte more (the upload is then refused). */
export const AVATAR_MAX_BYTES = 1024 * 1024;

/** The kinds of picture taken, each known by its first bytes (`null`: any byte). */
const PICTURE_KINDS: readonly { type: string; magic: readonly (number | null)[] }[] = [
  { type: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', magic: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', magic: [...Buffer.from('GIF8'), null, 0x61] }, // GIF87a, GIF89a
  { type: 'image/webp', magic: [...Buffer.from('RIFF'), null, null, null, null, ...Buffer.from('WEBP')] },
];

/** The media type of a picture by its magic bytes, or null when it is none of the kinds taken (SVG, HTML, anything). */
function pictureType(bytes: Buffer): string | null {
  const kind = PICTURE_KINDS.find((k) => bytes.length > k.magic.length && k.magic.every((b, i) => b === null || bytes[i] === b));
  return kind?.type ?? null;
}

/** 413: the picture is over AVATAR_MAX_BYTES. */
export class PictureTooLarge extends HttpError {
  constructor() {
    super(413, 'The picture is larger than 1 MB: choose a smaller one.');
  }
}

const WRONG_KIND = 'Upload a PNG, JPEG, GIF or WebP picture: SVG and other files are not accepted.';

/**
 * The signed-in person sets their profile picture: at most AVATAR_MAX_BYTES (413 otherwise), and a PNG, JPEG, GIF or
 * WebP by its first bytes (422 naming `avatar` otherwise), whatever the file's name or declared type. Replaces any
 * picture before; `/avatars/<login>` serves it from the next request on.
 */
export async function setOwnAvatar(ctx: ServiceContext, bytes: Buffer): Promise<void> {
  const user = requireOwner(ctx).user;
  if (bytes.length > AVATAR_MAX_BYTES) throw new PictureTooLarge();
  if (bytes.length === 0) throw new ValidationFailed([problem('avatar', `The file is empty. ${WRONG_KIND}`)]);
  const mediaType = pictureType(bytes);
  if (!mediaType) throw new ValidationFailed([problem('avatar', WRONG_KIND)]);
  const row = {
    content: bytes,
    media_type: mediaType,
    sha: crypto.hash('sha256', bytes, 'hex'),
    updated_at: ctx.clock.now().toISOString(),
  };
  await ctx.db
    .insertInto('avatars')
    .values({ user_id: user.id, ...row })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
}

/** The signed-in person removes their profile picture (their identicon shows again); false when there was none. */
export async function removeOwnAvatar(ctx: ServiceContext): Promise<boolean> {
  const user = requireOwner(ctx).user;
  const r = await ctx.db.deleteFrom('avatars').where('user_id', '=', user.id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** An account's uploaded picture, or undefined (it shows its identicon). */
export async function avatarOf(db: Db, accountId: number): Promise<AvatarRow | undefined> {
  return db.selectFrom('avatars').selectAll().where('user_id', '=', accountId).executeTakeFirst();
}
