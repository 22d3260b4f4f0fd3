// The `sqlite3` package, loaded on first use, not at start-up (dist/hublet unpacks its addon then; `--version` never does).
import { createRequire } from 'node:module';
import type * as Sqlite3 from 'sqlite3';

// PostgreSQL servers and commands that open no database never load the native addon: in the single-file build
// (scripts/build-dist.mjs) that also means never unpacking it from the executable into the cache dir.

export type Database = Sqlite3.Database;
export type Statement = Sqlite3.Statement;
export type RunResult = Sqlite3.RunResult;

let loaded: typeof Sqlite3 | undefined;

/**
 * The sqlite3 module. A literal `require('sqlite3')` where the CommonJS `require` exists (the ncc bundle, which then
 * bundles the package); Node's createRequire under the ESM loaders (tsx, vitest).
 */
export function sqlite3(): typeof Sqlite3 {
  if (!loaded) {
    loaded = (typeof require === 'function' ? require('sqlite3') : createRequire(import.meta.url)('sqlite3')) as typeof Sqlite3;
  }
  return loaded;
}

/** sqlite3's Database class: `new Database(filename, callback)` loads the package first; instanceof works as usual. */
export const Database = new Proxy(function Database() {}, {
  construct: (_target, args) => Reflect.construct(sqlite3().Database, args) as object,
  get: (_target, key) => Reflect.get(sqlite3().Database, key) as unknown,
  has: (_target, key) => Reflect.has(sqlite3().Database, key),
}) as unknown as typeof Sqlite3.Database;
