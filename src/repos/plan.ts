// Deciding a repository's create and update from the request and the rows already read: the checks and their errors,
// the name, visibility and defaults, the row's values, what changes and the events to record. Pure: service.ts reads
// what a plan needs first and writes what it says (rows, git on disk, events) afterwards.
import type { Actor } from '../core/grants.js';
import { hasAnyScope } from '../core/scopes.js';
import { Forbidden, NotFound, ValidationFailed, type FieldError } from '../core/errors.js';
import type { Urls } from '../core/urls.js';
import type { UserRow } from '../db/schema.js';
import type { RepositoryRow } from '../db/tables/repos.js';
import type { Signature } from './git-data.js';
import { repositoryName } from './names.js';
import { DEFAULT_MERGE_SETTINGS, mergeSettings, type MergeSettings } from './present.js';
import { accountEmail, type RepositoryAction, type RepositoryChanges } from './repository-payload.js';
import type { CreateBody, RepositoryInput, UpdateBody } from './schemas.js';
import type { NewRepository } from './store.js';

const MERGE_KEYS = Object.keys(DEFAULT_MERGE_SETTINGS) as (keyof MergeSettings)[];
const FLAG_KEYS = [
  'has_issues',
  'has_projects',
  'has_wiki',
  'has_downloads',
  'has_discussions',
  'is_template',
  'allow_forking',
  'web_commit_signoff_required',
] as const;

/** The 422 of a name another repository of the owner has (checked again under the lock, and by the unique index). */
export const nameTaken = (): ValidationFailed =>
  new ValidationFailed([{ resource: 'Repository', field: 'name', code: 'custom', message: 'name already exists on this account' }]);

/** The text fields' limits (GitHub's description limit is 350 characters). */
function textProblems(input: RepositoryInput): FieldError[] {
  const errors: FieldError[] = [];
  const check = (field: 'description' | 'homepage', max: number) => {
    const v = input[field];
    if (v != null && (v.length > max || v.includes('\0')))
      errors.push({ resource: 'Repository', field, code: 'invalid', message: `${field} must be at most ${max} characters of text` });
  };
  check('description', 350);
  check('homepage', 255);
  if (input.visibility === 'internal') {
    errors.push({
      resource: 'Repository',
      field: 'visibility',
      code: 'invalid',
      message: 'hublet has no enterprise-internal repositories: use public or private',
    });
  }
  return errors;
}

function visibilityOf(input: RepositoryInput, current: 'public' | 'private'): 'public' | 'private' {
  if (input.visibility === 'public' || input.visibility === 'private') return input.visibility;
  if (input.private !== undefined) return input.private ? 'private' : 'public';
  return current;
}

/** Classic and OAuth tokens need `repo` for private repositories (`public_repo` covers public ones). */
function requirePrivateScope(actor: Actor, visibility: 'public' | 'private'): void {
  if (visibility === 'private' && (actor.kind === 'classic' || actor.kind === 'oauth') && !hasAnyScope(actor.scopes, ['repo']))
    throw new NotFound();
}

function flag(v: boolean | undefined, fallback: boolean): number {
  return (v ?? fallback) ? 1 : 0;
}

/** A branch name git accepts (`git check-ref-format refs/heads/<name>`'s rules, in short). */
function validBranchName(name: string): boolean {
  if (
    !name ||
    name.length > 255 ||
    name.startsWith('-') ||
    name.startsWith('/') ||
    name.endsWith('/') ||
    name.endsWith('.') ||
    name.endsWith('.lock')
  )
    return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: git refuses control characters in ref names; this finds them
  if (/[\x00-\x20\x7f~^:?*[\\]|\.\.|@\{|\/\/|\/\./.test(name) || name === '@') return false;
  return true;
}

/** The commit author for writes the server makes on a user's behalf (the initial commit). */
function signatureOf(user: UserRow, urls: Urls, now: Date): Signature {
  return { name: user.name ?? user.login, email: accountEmail(user, urls), timestamp: Math.floor(now.getTime() / 1000), timezoneOffset: 0 };
}

/** A repository brought in by a site admin: a bare repository prepared outside the transaction, and what the row takes from it. */
export interface ImportedRepository {
  owner: UserRow;
  stagingDir: string;
  defaultBranch: string;
  language: string | null;
  topics?: readonly string[];
  archived?: boolean;
}

/**
 * A new repository's git data: an imported bare repository moved into place, an empty repository, or one holding
 * GitHub's README commit (auto_init).
 */
export type CreateContent =
  | { kind: 'imported'; stagingDir: string }
  | { kind: 'empty' }
  | { kind: 'readme'; commit: { name: string; description: string | null; branch: string; author: Signature } };

/**
 * The events a create records after its row, in order: `repository` `created`; `refs`, a `create` for each branch and
 * tag an import brought; `push`, the README commit's `create` and `push` to `ref`.
 */
type CreateEvent = { name: 'created' } | { name: 'refs' } | { name: 'push'; ref: string };

export interface CreatePlan {
  /** The row inserted (the database gives its id). */
  row: NewRepository;
  content: CreateContent;
  /** What the row takes once its git data is in place (its size on disk is measured then). */
  changes: Partial<RepositoryRow>;
  events: CreateEvent[];
}

/** What a create is decided from besides its body: the caller, the account it goes to (read before), an import, the time. */
export interface CreateFacts {
  actor: Actor;
  owner: UserRow;
  imported?: ImportedRepository;
  now: Date;
  urls: Urls;
}

/**
 * Decides a create: visibility (public unless `private` or `visibility` say otherwise; a private one needs the `repo`
 * scope of a classic or OAuth token, else 404), the texts' limits and no templates (one 422), the name (GitHub's
 * rules, 422), GitHub's defaults for every flag, and the git data and events. Whether the name is free is read by the
 * caller, inside its transaction.
 */
export function planCreate(input: CreateBody, facts: CreateFacts): CreatePlan {
  const { actor, owner, imported, now } = facts;
  const visibility = visibilityOf(input, 'public');
  requirePrivateScope(actor, visibility);
  const problems = textProblems(input);
  for (const t of ['gitignore_template', 'license_template'] as const) {
    if (input[t] !== undefined)
      problems.push({ resource: 'Repository', field: t, code: 'invalid', message: `hublet has no ${t.replace('_', ' ')}s` });
  }
  if (problems.length) throw new ValidationFailed(problems);
  const name = repositoryName(input.name ?? '');
  const at = now.toISOString();
  const merge: Partial<MergeSettings> = {};
  for (const k of MERGE_KEYS) if (input[k] !== undefined) (merge as Record<string, unknown>)[k] = input[k];
  const row: NewRepository = {
    owner_id: owner.id,
    name,
    name_lower: name.toLowerCase(),
    description: input.description ?? null,
    homepage: input.homepage ?? null,
    visibility,
    default_branch: 'main',
    has_issues: flag(input.has_issues, true),
    has_projects: flag(input.has_projects, true),
    has_wiki: flag(input.has_wiki, true),
    has_downloads: flag(input.has_downloads, true),
    has_discussions: flag(input.has_discussions, false),
    is_template: flag(input.is_template, false),
    allow_forking: flag(input.allow_forking, true),
    web_commit_signoff_required: flag(input.web_commit_signoff_required, false),
    merge_settings: JSON.stringify(merge),
    pushed_at: at,
    created_at: at,
    updated_at: at,
  };
  if (imported) {
    const changes: Partial<RepositoryRow> = { default_branch: imported.defaultBranch, language: imported.language };
    if (imported.topics?.length) changes.topics = JSON.stringify(imported.topics);
    if (imported.archived) changes.archived = 1;
    // An import's branches and tags are new to the repository: a `create` event each.
    return {
      row,
      content: { kind: 'imported', stagingDir: imported.stagingDir },
      changes,
      events: [{ name: 'created' }, { name: 'refs' }],
    };
  }
  if (!input.auto_init) return { row, content: { kind: 'empty' }, changes: {}, events: [{ name: 'created' }] };
  const commit = {
    name,
    description: input.description ?? null,
    branch: row.default_branch,
    author: signatureOf(actor.user, facts.urls, now),
  };
  return {
    row,
    content: { kind: 'readme', commit },
    changes: {},
    events: [{ name: 'created' }, { name: 'push', ref: `refs/heads/${commit.branch}` }],
  };
}

/** What an update is, checked from the request and the row alone (before any git data is read). */
export interface UpdateTarget {
  visibility: 'public' | 'private';
  name: string;
  /** The branch the request makes the default, when it changes: the caller reads the repository's branches to check it. */
  defaultBranch?: string;
}

/**
 * The checks of an update that need nothing but the request and the row, in the order the API answers them: an
 * archived repository is read-only (403) unless this unarchives it, the texts' limits (422), the `repo` scope for a
 * private repository (404), the new name (422).
 */
export function checkUpdate(repo: RepositoryRow, input: UpdateBody, actor: Actor): UpdateTarget {
  const unarchiving = input.archived === false;
  if (repo.archived && !unarchiving) throw new Forbidden('Repository was archived so is read-only.');
  const problems = textProblems(input);
  if (problems.length) throw new ValidationFailed(problems);
  const visibility = visibilityOf(input, repo.visibility);
  requirePrivateScope(actor, visibility);
  const name = input.name !== undefined ? repositoryName(input.name) : repo.name;
  const moves = input.default_branch !== undefined && input.default_branch !== repo.default_branch;
  return { visibility, name, ...(moves ? { defaultBranch: input.default_branch } : {}) };
}

/** An event an update records: `repository` with its action (and GitHub's `changes`), or `public`. */
type UpdateEvent = { name: 'repository'; action: RepositoryAction; changes?: RepositoryChanges } | { name: 'public' };

export interface UpdatePlan {
  /** The row's new values (`updated_at` and, on a rename, `name_lower` included). */
  changes: Partial<RepositoryRow>;
  /** A new name, not the old one re-cased: it must still be free under the lock, and the old name redirects. */
  newName?: string;
  /** The new default branch and the commit it points to: the language is read from it, and HEAD follows the branch. */
  head?: { branch: string; commit: string };
  /** In the order they are recorded. */
  events: UpdateEvent[];
}

/**
 * Decides an update checked by `checkUpdate`: a new default branch must be one of `refs` (the repository's branches
 * and tags, read only when it changes; 422 for an empty repository or no such branch). Only values that really change
 * are written, and each event is recorded only for its change: `renamed`, `edited` (description, homepage, default
 * branch), `privatized`/`publicized` (with `public`), `archived`/`unarchived`. Undefined: nothing changes.
 */
export function planUpdate(
  repo: RepositoryRow,
  input: UpdateBody,
  target: UpdateTarget,
  refs: Readonly<Record<string, string>>,
  now: Date,
): UpdatePlan | undefined {
  const branch = target.defaultBranch;
  if (branch !== undefined) {
    if (Object.keys(refs).length === 0) {
      throw new ValidationFailed([
        {
          resource: 'Repository',
          field: 'default_branch',
          code: 'invalid',
          message: 'Cannot update default branch for an empty repository. Please init the repository and push first.',
        },
      ]);
    }
    if (!validBranchName(branch) || !refs[`refs/heads/${branch}`]) {
      throw new ValidationFailed([
        { resource: 'Repository', field: 'default_branch', code: 'invalid', message: `No branch named ${branch}` },
      ]);
    }
  }
  const changes: Partial<RepositoryRow> = {};
  const edited: RepositoryChanges = {};
  if (target.name !== repo.name) changes.name = target.name;
  for (const field of ['description', 'homepage'] as const) {
    const v = input[field];
    if (v !== undefined && v !== repo[field]) {
      changes[field] = v;
      edited[field] = { from: repo[field] };
    }
  }
  if (branch !== undefined) {
    changes.default_branch = branch;
    edited.default_branch = { from: repo.default_branch };
  }
  if (target.visibility !== repo.visibility) changes.visibility = target.visibility;
  if (input.archived !== undefined && flag(input.archived, false) !== repo.archived) changes.archived = flag(input.archived, false);
  for (const k of FLAG_KEYS) if (input[k] !== undefined && flag(input[k], false) !== repo[k]) changes[k] = flag(input[k], false);
  const merge = mergeSettings(repo);
  let mergeChanged = false;
  for (const k of MERGE_KEYS) {
    if (input[k] !== undefined && input[k] !== merge[k]) {
      (merge as unknown as Record<string, unknown>)[k] = input[k];
      mergeChanged = true;
    }
  }
  if (mergeChanged) changes.merge_settings = JSON.stringify(merge);
  if (Object.keys(changes).length === 0) return undefined;
  changes.updated_at = now.toISOString();
  if (changes.name) changes.name_lower = changes.name.toLowerCase();

  const events: UpdateEvent[] = [];
  const record = (action: RepositoryAction, c?: RepositoryChanges) => events.push({ name: 'repository', action, changes: c });
  if (changes.name) record('renamed', { repository: { name: { from: repo.name } } });
  if (Object.keys(edited).length) record('edited', edited);
  if (changes.visibility) record(changes.visibility === 'private' ? 'privatized' : 'publicized');
  if (changes.visibility === 'public') events.push({ name: 'public' });
  if (changes.archived !== undefined) record(changes.archived ? 'archived' : 'unarchived');
  return {
    changes,
    ...(changes.name_lower && changes.name_lower !== repo.name_lower ? { newName: changes.name } : {}),
    ...(branch !== undefined ? { head: { branch, commit: refs[`refs/heads/${branch}`] } } : {}),
    events,
  };
}
