// GitHub's repository name rules: [A-Za-z0-9._-], other characters become `-`, `.git` suffixes are dropped, at most 100;
// and its rule for topic names. Pure: the API, the import plan and the store's callers share them.
import { HttpError, ValidationFailed } from '../core/errors.js';

const MAX_NAME_LENGTH = 100;

/**
 * The name a repository gets from the requested one, as GitHub derives it: every character outside
 * ASCII letters, digits, `.`, `-` and `_` becomes `-`, and trailing `.git` suffixes are removed (`a.git.git` is `a`: no
 * stored name ends with `.git`, so `<owner>/<name>.git` always means one repository).
 * Throws 422 (resource Repository, field name) when nothing usable is left (``, `.`, `..`, `.git`, `.git.git`, …), or
 * the name is reserved or too long.
 */
export function repositoryName(requested: string): string {
  let name = Array.from(requested, (ch) => (/^[A-Za-z0-9._-]$/.test(ch) ? ch : '-')).join('');
  while (/\.git$/i.test(name)) name = name.slice(0, -4);
  const invalid = (message: string) => new ValidationFailed([{ resource: 'Repository', field: 'name', code: 'custom', message }]);
  if (requested === '') throw new ValidationFailed([{ resource: 'Repository', field: 'name', code: 'missing_field' }]);
  if (name.length > MAX_NAME_LENGTH) throw invalid(`name cannot be more than ${MAX_NAME_LENGTH} characters`);
  if (name === '' || name === '.' || name === '..') throw invalid(`name ${JSON.stringify(requested)} is reserved`);
  if (/\.wiki$/i.test(name)) throw invalid('name cannot end with .wiki');
  return name;
}

/** A name as it may appear in a URL or a lookup: anything GitHub could never have created is simply not found. */
export function plausibleName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_NAME_LENGTH && /^[A-Za-z0-9._-]+$/.test(name);
}

/** GitHub's limits: up to 20 topics a repository, each up to 50 characters. */
const MAX_TOPICS = 20;
const TOPIC = /^[a-z0-9][a-z0-9-]{0,49}$/;
const INVALID_NAME = 'Topics must start with a lowercase letter or number, consist of 50 characters or less, and can include hyphens.';
const TOO_MANY = `A repository cannot have more than ${MAX_TOPICS} topics.`;

/**
 * The names as GitHub saves them: lowercased, each once, in the order given. Anything else is GitHub's 422 with its
 * messages as plain strings (the `validation-error-simple` shape).
 */
export function normalizedTopics(names: readonly string[]): string[] {
  const topics = [...new Set(names.map((n) => n.toLowerCase()))];
  const problems: string[] = [];
  if (topics.some((t) => !TOPIC.test(t))) problems.push(INVALID_NAME);
  if (topics.length > MAX_TOPICS) problems.push(TOO_MANY);
  if (problems.length) throw new HttpError(422, 'Validation Failed', { errors: problems });
  return topics;
}
