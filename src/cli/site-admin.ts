// The site admin's first token, for `serve` (once it listens) and `init`: made and printed once on a fresh data dir
// (or HUBLET_ADMIN_TOKEN registered); otherwise a line saying how to make another, the recovery for a lost one.
import { ADMIN_LOGIN, ADMIN_SCOPES, bootstrapAdminToken } from '../accounts/site-admin.js';
import { shownDatabase } from '../db/urls.js';
import type { Runtime } from './runtime.js';

/** `hublet admin token create admin --scopes … --data DIR [--database URL]`: a token like the first one. */
function recoveryCommand(runtime: Runtime): string {
  const { dataDir, databaseUrl } = runtime.config;
  const defaultDatabase = shownDatabase(databaseUrl) === shownDatabase(`${dataDir}/hublet.sqlite`);
  return `hublet admin token create ${ADMIN_LOGIN} --scopes ${ADMIN_SCOPES.join(',')} --data ${dataDir}${defaultDatabase ? '' : ` --database ${shownDatabase(databaseUrl)}`}`;
}

/** Creates the site admin if missing, issues its one-time token if it never had one; the token and the lines to print. */
export async function bootstrapSiteAdmin(runtime: Runtime, now: Date): Promise<{ token?: string; lines: string[] }> {
  const token = await bootstrapAdminToken(runtime.db, now, runtime.config.adminToken);
  if (token) return { token, lines: [`created site admin "${ADMIN_LOGIN}"; its token (shown once): ${token}`] };
  if (runtime.config.adminToken) return { lines: [] };
  return {
    lines: [
      `site admin "${ADMIN_LOGIN}" already has a token (printed once, when it was made); lost it? make another: ${recoveryCommand(runtime)}`,
    ],
  };
}
