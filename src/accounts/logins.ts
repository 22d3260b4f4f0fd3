// GitHub's rules for user and organization names.
import type { FieldError } from '../core/errors.js';

/** Names the API or git hosting would shadow at the top level of a URL. */
const RESERVED: ReadonlySet<string> = new Set([
  // /gist/new and /gist/discover are pages at the path of /gist/<login>.
  'new',
  'discover',
  'api',
  'admin',
  'gists',
  'orgs',
  'users',
  'user',
  'repos',
  'rate_limit',
  'avatars',
  'login',
  'logout',
  'session',
  'signup',
  'settings',
  'organizations',
  'migrations',
  'site',
  'gist',
  // /gist/search is the gist search page, at the path of /gist/<login>.
  'search',
]);

/** Alphanumerics and single inner hyphens, at most 39 characters. */
export function loginProblem(login: unknown, resource: 'User' | 'Organization'): FieldError | null {
  if (typeof login !== 'string' || login === '') return { resource, field: 'login', code: 'missing_field' };
  if (login.length > 39 || !/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9]))*$/.test(login)) {
    return {
      resource,
      field: 'login',
      code: 'invalid',
      message:
        'login may only contain alphanumeric characters or single hyphens, and cannot begin or end with a hyphen (at most 39 characters)',
    };
  }
  if (RESERVED.has(login.toLowerCase())) return { resource, field: 'login', code: 'invalid', message: `login '${login}' is reserved` };
  return null;
}
