// Opens a data dir for the CLI or the server: config, database connection, schema migrations, the site admin.
import { ensureAdmin } from '../accounts/service.js';
import { loadConfig, type Config, type ConfigInput } from '../config.js';
import { connect, type Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';

export interface Runtime {
  config: Readonly<Config>;
  db: Db;
  close(): Promise<void>;
}

export async function openRuntime(flags: ConfigInput, env: NodeJS.ProcessEnv): Promise<Runtime> {
  const config = loadConfig(flags, env);
  const db = connect(config.databaseUrl);
  try {
    await migrateToLatest(db);
    await ensureAdmin(db, new Date());
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { config, db, close: () => db.destroy() };
}
