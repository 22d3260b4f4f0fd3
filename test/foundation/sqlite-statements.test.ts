// The SQLite dialect's statement cache under concurrent reads: one new SQL asked for at once is prepared once, and the
// database closes cleanly afterwards (no statement left unfinalized).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

describe('the SQLite dialect, read connections', () => {
  it('closes cleanly after the same new queries ran at the same moment, and after statements were evicted', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-stmts-'));
    try {
      const db = connect(path.join(dir, 'hublet.sqlite'));
      await migrateToLatest(db);
      // 300 distinct statements (more than the cache holds), each asked for by 8 callers at once.
      for (let i = 0; i < 300; i++) {
        // A plain SELECT goes to the read connections (a raw statement would go to the writer).
        const query = () => db.selectFrom('users').select(sql<number>`${sql.lit(i)}`.as('n')).where('id', '>', -1).limit(1).execute();
        const rows = await Promise.all(Array.from({ length: 8 }, query));
        expect(rows.every((r) => r.length <= 1)).toBe(true);
      }
      await expect(db.destroy()).resolves.toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
