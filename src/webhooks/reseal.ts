// At start: hook configs still in the clear (written before sealing) or sealed with a previous key are sealed with the
// current key, and what earlier versions left in the clear (event payloads, free pages) is scrubbed once.
import { ConfigError } from '../config.js';
import type { Db } from '../db/connect.js';
import { lockForWriting, scrubDeletedCopies, scrubFreePages } from '../db/dialect.js';
import type { AppContext } from '../core/context.js';
import { openConfig, sealConfig, shownUrl, type SealedConfig } from './sealed-config.js';
import type { HookTarget } from './scope.js';

type Stale = SealedConfig & HookTarget & { id: number };

/** Seals every hook config with the current key; refuses to start when some were sealed with a key it lacks. */
export async function resealHookSecrets(ctx: AppContext): Promise<void> {
  const box = ctx.secrets;
  const stale = async (db: Db, lock: boolean) => {
    let hooks = db
      .selectFrom('hooks')
      .selectAll()
      .where((eb) => eb.or([eb('sealed_with', 'is', null), eb('sealed_with', '!=', box.keyId)]));
    let farewells = db
      .selectFrom('hook_farewells')
      .selectAll()
      .select('hook_id as id')
      .where((eb) => eb.or([eb('sealed_with', 'is', null), eb('sealed_with', '!=', box.keyId)]));
    // Another server writing one of these rows waits until they are sealed (and sees the sealed values).
    if (lock) {
      hooks = lockForWriting(db, hooks);
      farewells = lockForWriting(db, farewells);
    }
    const found = { hooks: (await hooks.execute()) as Stale[], farewells: (await farewells.execute()) as Stale[] };
    const unknown = [
      ...new Set(
        [...found.hooks, ...found.farewells].map((r) => r.sealed_with).filter((id): id is string => id !== null && !box.knows(id)),
      ),
    ];
    if (unknown.length) {
      throw new ConfigError([
        `hook secrets in the database were sealed with secret key ${unknown.join(', ')}, which this server does not have (its key is ${box.keyId}): ` +
          'set HUBLET_SECRET_KEY to that key, or restore <data>/secret.key from a backup; after a rotation the old key goes in HUBLET_SECRET_KEY_PREVIOUS',
      ]);
    }
    return found;
  };
  // A plain read first: most starts find nothing to do and take no write lock.
  const first = await stale(ctx.db, false);
  let count = { hooks: 0, farewells: 0 };
  if (first.hooks.length || first.farewells.length) {
    count = await ctx.db.transaction().execute(async (trx) => {
      const { hooks, farewells } = await stale(trx, true);
      for (const row of hooks)
        await trx
          .updateTable('hooks')
          .set(await resealed(trx, ctx, row))
          .where('id', '=', row.id)
          .execute();
      for (const row of farewells)
        await trx
          .updateTable('hook_farewells')
          .set(await resealed(trx, ctx, row, false))
          .where('hook_id', '=', row.id)
          .execute();
      return { hooks: hooks.length, farewells: farewells.length };
    });
    ctx.log.info({ ...count, key: box.keyId }, 'sealed hook secrets with the current key');
  }
  const scrubbed = await scrubLegacy(ctx);
  if (count.hooks || count.farewells || scrubbed) await scrubDeletedCopies(ctx.db);
}

/** A row's config sealed with the current key. A row from before sealing gets its URL masked, kept unique in its target. */
async function resealed(trx: Db, ctx: AppContext, row: Stale, unique = true): Promise<SealedConfig> {
  const sealed = sealConfig(ctx.secrets, openConfig(ctx.secrets, row));
  if (row.sealed_with !== null) return { ...sealed, url: row.url };
  if (!unique) return sealed;
  // Two hooks whose URLs differed only in their password would now look alike (and break the one-URL-per-target index):
  // the later one's shown URL gets a fragment, which is never sent.
  const taken = await trx
    .selectFrom('hooks')
    .select('id')
    .where('scope', '=', row.scope)
    .where((eb) => (row.org_id === null ? eb('org_id', 'is', null) : eb('org_id', '=', row.org_id)))
    .where((eb) => (row.repository_id === null ? eb('repository_id', 'is', null) : eb('repository_id', '=', row.repository_id)))
    .where('url', '=', sealed.url)
    .where('id', '!=', row.id)
    .executeTakeFirst();
  if (taken) {
    ctx.log.warn(
      { hook: row.id, other: taken.id },
      'two hooks differ only in the password of their URL; the later one is shown with a fragment',
    );
    return { ...sealed, url: `${sealed.url}#hook-${row.id}` };
  }
  return sealed;
}

/**
 * Once after the upgrade to sealed secrets (the migration leaves a mark on a database in use): masks URL credentials in
 * the `ping` and `meta` payloads recorded before, then, on SQLite, rebuilds the file (VACUUM) so no free page keeps
 * what was deleted in the clear. Returns whether it ran.
 */
async function scrubLegacy(ctx: AppContext): Promise<boolean> {
  const mark = await ctx.db.selectFrom('hook_secrets_scrub').select('pending').executeTakeFirst();
  if (!mark) return false;
  let masked = 0;
  for (let after = 0; ; ) {
    const rows = await ctx.db
      .selectFrom('events')
      .select(['id', 'payload'])
      .where('name', 'in', ['ping', 'meta'])
      .where('payload', 'like', '%@%')
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute();
    if (!rows.length) break;
    after = rows[rows.length - 1].id;
    for (const r of rows) {
      const payload = JSON.parse(r.payload) as { hook?: { config?: { url?: unknown } } };
      const url = payload.hook?.config?.url;
      if (typeof url !== 'string' || shownUrl(url) === url) continue;
      payload.hook!.config!.url = shownUrl(url);
      await ctx.db
        .updateTable('events')
        .set({ payload: JSON.stringify(payload) })
        .where('id', '=', r.id)
        .execute();
      masked++;
    }
  }
  await ctx.db.deleteFrom('hook_secrets_scrub').execute();
  await scrubFreePages(ctx.db);
  ctx.log.info({ events: masked }, 'scrubbed hook credentials written in the clear by an earlier version');
  return true;
}
