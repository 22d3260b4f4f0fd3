// pg, loaded the first time a PostgreSQL database is used: SQLite installations and every CLI command that opens no
// PostgreSQL database never load it. Its import alone cost about 35 ms of each start (pg-cloudflare's runtime probe
// touches the global `Response`, which makes Node load its whole fetch implementation).
import type pg from 'pg';

let loading: Promise<typeof pg> | undefined;

/** The pg module, with int8 (count(*)) read as a JS number, as it is on SQLite. */
export function loadPg(): Promise<typeof pg> {
  loading ??= import('pg').then((m) => {
    const loaded = m.default;
    loaded.types.setTypeParser(20, (v) => Number(v));
    return loaded;
  });
  return loading;
}

/** A pg.Pool made on its first connection; `end` before that makes none. */
export class LazyPool {
  private pool?: Promise<pg.Pool>;
  private ended = false;

  /** `lost`: what to say of an idle connection the server dropped (pg raises it as an error event). */
  constructor(
    private readonly config: pg.PoolConfig,
    private readonly lost: string,
  ) {}

  connect(): Promise<pg.PoolClient> {
    if (this.ended) return Promise.reject(new Error('the PostgreSQL pool has ended'));
    this.pool ??= loadPg().then((loaded) => {
      const pool = new loaded.Pool(this.config);
      // A dropped idle connection is replaced on next use; without a listener pg would take the whole process down.
      pool.on('error', (err) => process.emitWarning(`${this.lost}: ${err.message}`));
      return pool;
    });
    return this.pool.then((pool) => pool.connect());
  }

  async end(): Promise<void> {
    this.ended = true;
    if (this.pool) await (await this.pool).end();
  }
}
