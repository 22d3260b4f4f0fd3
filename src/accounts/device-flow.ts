// The OAuth device flow (RFC 8628, as GitHub runs it): a program asks for a device code and a user code, the person
// enters the user code at /login/device and approves or cancels, and the program polls for its token. Device codes
// are 40 hexadecimal characters stored hashed; user codes eight letters of RFC 8628's base-20 set (no vowels, nothing
// easily confused), shown as `WDJB-MJHT`; wrong user codes are throttled per person and per client address.
import crypto from 'node:crypto';
import type { Db } from '../db/connect.js';
import { isUniqueViolation } from '../db/dialect.js';
import type { DeviceCodeRow, OauthAppRow } from '../db/tables/sign-in.js';
import { issueAppTokenIn, recordGrantIn, type OnGrant } from './oauth-grants.js';
import { isThrottled, recordFailure, type ThrottleRule } from './throttle.js';

/** Seconds a program waits between polls (GitHub's 5); each `slow_down` adds 5 (RFC 8628 §3.5). */
const POLL_INTERVAL_SECONDS = 5;
const SLOW_DOWN_STEP_SECONDS = 5;
/**
 * A poll counts as too early when it arrives more than this before the interval is over, measured from the previous
 * poll's arrival: network and scheduling jitter never turn a program that waits the interval into a `slow_down`.
 */
const POLL_TOLERANCE_MS = 1000;
/** Wrong user codes allowed in an hour per signed-in person and per client address (GitHub's figure: 50 an hour). */
const WRONG_CODE_RULE: ThrottleRule = { limit: 50, windowMs: 3600 * 1000 };

const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{8}$/;

function hashDeviceCode(code: string): string {
  return crypto.hash('sha256', code, 'hex');
}

function newUserCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += USER_CODE_ALPHABET[crypto.randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** A user code as people read it: `WDJB-MJHT`. */
export function displayUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** What a person typed as a stored user code (case, spaces and dashes ignored), or undefined when it cannot be one. */
function normalizeUserCode(typed: string): string | undefined {
  const code = typed.length > 40 ? '' : typed.toUpperCase().replace(/[\s-]/g, '');
  return USER_CODE.test(code) ? code : undefined;
}

export interface DeviceAuthorization {
  deviceCode: string;
  userCode: string;
  expiresIn: number;
  interval: number;
}

/** Starts a device authorization for an app and the scopes it asks for; the codes are returned once. */
export async function startDeviceAuthorization(
  db: Db,
  input: { app: OauthAppRow; scopes: readonly string[]; ttlSeconds: number },
  at: Date,
): Promise<DeviceAuthorization> {
  // Long-expired codes are of no use (a poll of one is answered `incorrect_device_code`, as an unknown one).
  await db
    .deleteFrom('device_codes')
    .where('expires_at', '<', new Date(at.getTime() - 24 * 3600 * 1000).toISOString())
    .execute();
  const deviceCode = crypto.randomBytes(20).toString('hex');
  for (let attempt = 0; ; attempt++) {
    const userCode = newUserCode();
    try {
      await db
        .insertInto('device_codes')
        .values({
          device_code_hash: hashDeviceCode(deviceCode),
          user_code: userCode,
          app_id: input.app.id,
          scopes: JSON.stringify(input.scopes),
          state: 'pending',
          user_id: null,
          interval_seconds: POLL_INTERVAL_SECONDS,
          last_polled_at: null,
          created_at: at.toISOString(),
          expires_at: new Date(at.getTime() + input.ttlSeconds * 1000).toISOString(),
        })
        .execute();
      return { deviceCode, userCode: displayUserCode(userCode), expiresIn: input.ttlSeconds, interval: POLL_INTERVAL_SECONDS };
    } catch (err) {
      // Two live codes drew the same eight letters (1 in 20^8): draw again.
      if (!isUniqueViolation(err) || attempt >= 4) throw err;
    }
  }
}

export interface PendingDevice {
  device: DeviceCodeRow;
  app: OauthAppRow;
}

export type UserCodeLookup = { ok: true; pending: PendingDevice } | { ok: false; reason: 'invalid' | 'throttled' };

/**
 * The pending authorization a person's typed code names. A code that names none (wrong, expired, already decided)
 * counts against the person and their address; past WRONG_CODE_RULE every code is refused until the hour is over.
 */
export async function lookUpUserCode(db: Db, input: { typed: string; userId: number; address: string }, at: Date): Promise<UserCodeLookup> {
  const keys = [
    { key: `device:user:${input.userId}`, rule: WRONG_CODE_RULE },
    { key: `device:ip:${input.address}`, rule: WRONG_CODE_RULE },
  ];
  if (await isThrottled(db, keys, at)) return { ok: false, reason: 'throttled' };
  const code = normalizeUserCode(input.typed);
  const row = code
    ? await db
        .selectFrom('device_codes as d')
        .innerJoin('oauth_apps as a', 'a.id', 'd.app_id')
        .selectAll('a')
        .select(['d.id as d_id', 'd.device_code_hash', 'd.user_code', 'd.scopes', 'd.state', 'd.user_id', 'd.interval_seconds'])
        .select(['d.last_polled_at', 'd.created_at as d_created_at', 'd.expires_at'])
        .where('d.user_code', '=', code)
        .executeTakeFirst()
    : undefined;
  if (row?.state !== 'pending' || Date.parse(row.expires_at) <= at.getTime()) {
    await recordFailure(db, keys, at);
    return { ok: false, reason: 'invalid' };
  }
  const { d_id, device_code_hash, user_code, scopes, state, user_id, interval_seconds, last_polled_at, d_created_at, expires_at, ...app } =
    row;
  const device: DeviceCodeRow = {
    id: d_id,
    device_code_hash,
    user_code,
    app_id: app.id,
    scopes,
    state,
    user_id,
    interval_seconds,
    last_polled_at,
    created_at: d_created_at,
    expires_at,
  };
  return { ok: true, pending: { device, app } };
}

/**
 * The person approves (or cancels) a pending authorization; approving records the grant (the app is listed as
 * authorized from then on; `onGrant` hears of a new or grown one). False when it was no longer pending (decided, expired).
 */
export async function decideDevice(
  db: Db,
  input: { deviceId: number; userId: number; approve: boolean },
  at: Date,
  onGrant?: OnGrant,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const decided = await trx
      .updateTable('device_codes')
      .set({ state: input.approve ? 'approved' : 'denied', user_id: input.userId })
      .where('id', '=', input.deviceId)
      .where('state', '=', 'pending')
      .where('expires_at', '>', at.toISOString())
      .returning(['app_id', 'scopes'])
      .executeTakeFirst();
    if (decided && input.approve)
      await recordGrantIn(
        trx,
        { userId: input.userId, appId: decided.app_id, scopes: JSON.parse(decided.scopes) as string[] },
        at,
        onGrant,
      );
    return decided !== undefined;
  });
}

export type PollResult =
  | { error: 'incorrect_device_code' | 'expired_token' | 'access_denied' | 'authorization_pending' }
  | { error: 'slow_down'; interval: number }
  | { token: string; scopes: string[] };

/**
 * A program's poll for its token (GitHub's order: too early first, then the code's state). A poll that comes before
 * the interval since the previous poll's arrival (less POLL_TOLERANCE_MS) is `slow_down`, and the interval grows by 5
 * seconds for every later poll. Once approved, the token is issued to the first poll; the device code is then used up.
 */
export async function pollDevice(db: Db, input: { app: OauthAppRow; deviceCode: string }, at: Date): Promise<PollResult> {
  if (!/^[0-9a-f]{40}$/.test(input.deviceCode)) return { error: 'incorrect_device_code' };
  const row = await db
    .selectFrom('device_codes')
    .selectAll()
    .where('device_code_hash', '=', hashDeviceCode(input.deviceCode))
    .executeTakeFirst();
  if (!row || row.app_id !== input.app.id || row.state === 'used') return { error: 'incorrect_device_code' };

  const previous = row.last_polled_at;
  const early = previous !== null && at.getTime() - Date.parse(previous) < row.interval_seconds * 1000 - POLL_TOLERANCE_MS;
  // Whoever records this poll first, against the previous poll read above, polled in time; a poll at the same moment is early.
  const recorded = early
    ? undefined
    : await db
        .updateTable('device_codes')
        .set({ last_polled_at: at.toISOString() })
        .where('id', '=', row.id)
        .where('last_polled_at', previous === null ? 'is' : '=', previous)
        .executeTakeFirst();
  if (!recorded || Number(recorded.numUpdatedRows) !== 1) {
    const interval = row.interval_seconds + SLOW_DOWN_STEP_SECONDS;
    await db
      .updateTable('device_codes')
      .set({ interval_seconds: interval, last_polled_at: at.toISOString() })
      .where('id', '=', row.id)
      .execute();
    return { error: 'slow_down', interval };
  }

  if (Date.parse(row.expires_at) <= at.getTime()) return { error: 'expired_token' };
  if (row.state === 'pending') return { error: 'authorization_pending' };
  if (row.state === 'denied' || row.user_id === null) return { error: 'access_denied' };
  const userId = row.user_id;
  const scopes = JSON.parse(row.scopes) as string[];
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('device_codes')
      .set({ state: 'used' })
      .where('id', '=', row.id)
      .where('state', '=', 'approved')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return { error: 'incorrect_device_code' } as const;
    const { token } = await issueAppTokenIn(trx, { userId, appId: row.app_id, scopes }, at);
    return { token, scopes };
  });
}
