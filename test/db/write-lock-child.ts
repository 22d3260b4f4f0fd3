// Child process of sqlite-processes.test.ts: opens the SQLite file named in argv with connect(), then either holds a
// write transaction until told to commit ('hold'), or runs read-then-write increments of a counter ('increment <n>').
import readline from 'node:readline';
import { sql } from 'kysely';
import { connect } from '../../src/db/connect.js';

const [mode, file, arg] = process.argv.slice(2);
const db = connect(file);
const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();

if (mode === 'hold') {
  await db.transaction().execute(async (trx) => {
    await sql`insert into log (who) values ('child')`.execute(trx);
    process.stdout.write('holding\n');
    await lines.next(); // "commit"
  });
  process.stdout.write('committed\n');
} else if (mode === 'increment') {
  await sql`select v from counter`.execute(db);
  process.stdout.write('ready\n');
  await lines.next(); // "go"
  for (let i = 0; i < Number(arg); i++) {
    await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ v: number }>`select v from counter where id = 1`.execute(trx);
      await sql`update counter set v = ${rows[0].v + 1} where id = 1`.execute(trx);
    });
  }
  process.stdout.write('done\n');
} else {
  throw new Error(`unknown mode ${mode}`);
}
await db.destroy();
process.exit(0);
