// Database URLs: which kind a URL names (PostgreSQL or a SQLite file), the file a SQLite URL names, and a URL fit to
// print (a PostgreSQL password replaced by `***`). One reading for the connection, the CLI and backups.
import path from 'node:path';

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** Turns `sqlite:/path`, `sqlite:///path`, `file:…` or a plain path into a file name (`:memory:` stays itself). */
export function sqliteFilename(url: string): string {
  if (url === ':memory:') return url;
  return url.replace(/^sqlite:(\/\/)?/i, '').replace(/^file:(\/\/)?/i, '');
}

/** The absolute path of the file a SQLite URL names. */
export function sqliteFile(url: string): string {
  return path.resolve(sqliteFilename(url));
}

/** A database URL fit to print: a PostgreSQL password replaced by `***`; a SQLite URL as its file. */
export function shownDatabase(url: string): string {
  if (!isPostgresUrl(url)) return sqliteFile(url);
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the PostgreSQL database';
  }
}
