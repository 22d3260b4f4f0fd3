// Rows as the database would give them, for unit tests of pure code (plans) that take rows already read.
import type { UserRow } from '../../src/db/schema.js';

/** A user or organization row with every column at its default (`extra` overrides). */
export function userRow(id: number, login: string, type: UserRow['type'] = 'User', extra: Partial<UserRow> = {}): UserRow {
  const at = '2024-01-01T00:00:00.000Z';
  return {
    id,
    login,
    login_lower: login.toLowerCase(),
    type,
    name: null,
    email: null,
    company: null,
    blog: null,
    location: null,
    bio: null,
    site_admin: 0,
    members_can_create_repositories: 1,
    created_at: at,
    updated_at: at,
    suspended_at: null,
    ...extra,
  };
}
