// The pure plans of a repository's create and update (src/repos/plan.ts): defaults, visibility and the scope it needs,
// the errors in the API's order, names, what changes and the events, without a server.
import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/grants.js';
import { HttpError } from '../../src/core/errors.js';
import { makeUrls } from '../../src/core/urls.js';
import type { UserRow } from '../../src/db/schema.js';
import type { RepositoryRow } from '../../src/db/tables/repos.js';
import { checkUpdate, planCreate, planUpdate, type UpdatePlan } from '../../src/repos/plan.js';
import type { CreateBody, UpdateBody } from '../../src/repos/schemas.js';
import { repositoryRow, userRow } from '../helpers/rows.js';

const NOW = new Date('2024-05-06T07:08:09.000Z');
const urls = makeUrls('http://hublet.test:3000');

const alice = userRow(1, 'alice');
const acme = userRow(2, 'acme', 'Organization');

function actor(kind: Actor['kind'], scopes: string[] = []): Actor {
  return { user: alice, kind, token: null, scopes, permissions: {}, appId: null };
}
const withRepo = actor('classic', ['repo']);

function repository(extra: Partial<RepositoryRow> = {}): RepositoryRow {
  const at = '2024-02-02T00:00:00.000Z';
  const base = {
    description: 'old',
    visibility: 'private',
    language: 'TypeScript',
    pushed_at: at,
    created_at: at,
    updated_at: at,
  } as const;
  return repositoryRow(7, alice, 'Hello', { ...base, ...extra });
}

/** The error `fn` throws (a failing test when it throws none). */
function thrown(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error('expected an error');
}

const create = (input: CreateBody, a: Actor = withRepo, owner: UserRow = alice) => planCreate(input, { actor: a, owner, now: NOW, urls });

describe('planCreate', () => {
  it('gives a new repository GitHub’s defaults: public, main, issues, projects, wiki, downloads and forking on, the rest off, no merge settings', () => {
    const plan = create({ name: 'hello' });
    expect(plan.row).toEqual({
      owner_id: 1,
      name: 'hello',
      name_lower: 'hello',
      description: null,
      homepage: null,
      visibility: 'public',
      default_branch: 'main',
      has_issues: 1,
      has_projects: 1,
      has_wiki: 1,
      has_downloads: 1,
      has_discussions: 0,
      is_template: 0,
      allow_forking: 1,
      web_commit_signoff_required: 0,
      merge_settings: '{}',
      pushed_at: NOW.toISOString(),
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    });
    expect(plan.content).toEqual({ kind: 'empty' });
    expect(plan.changes).toEqual({});
    expect(plan.events).toEqual([{ name: 'created' }]);
  });

  it('keeps the flags and merge settings the body gives, and only those, for the owner it is given', () => {
    const plan = create(
      {
        name: 'x',
        has_wiki: false,
        is_template: true,
        allow_squash_merge: false,
        merge_commit_title: 'PR_TITLE',
        description: 'd',
        homepage: 'h',
      },
      withRepo,
      acme,
    );
    expect(plan.row).toMatchObject({ owner_id: 2, has_wiki: 0, is_template: 1, has_issues: 1, description: 'd', homepage: 'h' });
    expect(JSON.parse(plan.row.merge_settings as string)).toEqual({ allow_squash_merge: false, merge_commit_title: 'PR_TITLE' });
  });

  it('makes it private by `private` or `visibility`, `visibility` winning', () => {
    expect(create({ name: 'x', private: true }).row.visibility).toBe('private');
    expect(create({ name: 'x', visibility: 'private', private: false }).row.visibility).toBe('private');
    expect(create({ name: 'x', visibility: 'public', private: true }).row.visibility).toBe('public');
  });

  it('hides a private create from a classic or OAuth token without `repo` (404); public_repo is enough for public ones, other tokens need no scope', () => {
    for (const a of [actor('classic', ['public_repo']), actor('oauth', [])])
      expect(thrown(() => create({ name: 'x', private: true }, a)).status).toBe(404);
    expect(create({ name: 'x' }, actor('classic', ['public_repo'])).row.visibility).toBe('public');
    expect(create({ name: 'x', private: true }, actor('fine_grained')).row.visibility).toBe('private');
  });

  it('judges the scope first (404), then lists every bad field in one 422 in order, and the name only after them', () => {
    const err = thrown(() =>
      create({
        name: '',
        description: 'd'.repeat(351),
        homepage: 'h\0',
        visibility: 'internal',
        gitignore_template: 'Node',
        license_template: 'mit',
      }),
    );
    expect(err.status).toBe(422);
    expect((err.extra.errors as { field: string }[]).map((e) => e.field)).toEqual([
      'description',
      'homepage',
      'visibility',
      'gitignore_template',
      'license_template',
    ]);
    expect(thrown(() => create({ name: '', description: 'd'.repeat(351), private: true }, actor('classic'))).status).toBe(404);
  });

  it('normalises the name as GitHub does, and refuses one that normalises to nothing', () => {
    const plan = create({ name: 'My Repo.git' });
    expect(plan.row).toMatchObject({ name: 'My-Repo', name_lower: 'my-repo' });
    expect(thrown(() => create({ name: '' })).extra.errors).toEqual([{ resource: 'Repository', field: 'name', code: 'missing_field' }]);
    expect(thrown(() => create({ name: '.git' })).status).toBe(422);
  });

  it('with auto_init writes the README commit on main by the caller (their noreply address on this host) and records its push', () => {
    const plan = create({ name: 'hello', description: 'hi', auto_init: true });
    expect(plan.content).toEqual({
      kind: 'readme',
      commit: {
        name: 'hello',
        description: 'hi',
        branch: 'main',
        author: { name: 'alice', email: '1+alice@users.noreply.hublet.test', timestamp: NOW.getTime() / 1000, timezoneOffset: 0 },
      },
    });
    expect(plan.events).toEqual([{ name: 'created' }, { name: 'push', ref: 'refs/heads/main' }]);
    const named = planCreate(
      { name: 'x', auto_init: true },
      {
        actor: { ...withRepo, user: userRow(1, 'alice', 'User', { name: 'Alice', email: 'a@example.com' }) },
        owner: alice,
        now: NOW,
        urls,
      },
    );
    expect(named.content).toMatchObject({ commit: { author: { name: 'Alice', email: 'a@example.com' } } });
  });

  it('for an import moves the staged data into place, takes its branch, language, topics and archived flag, and records a create per ref', () => {
    const imported = {
      owner: acme,
      stagingDir: '/tmp/staged',
      defaultBranch: 'trunk',
      language: 'Go',
      topics: ['tools', 'git'],
      archived: true,
    };
    const plan = planCreate({ name: 'x', auto_init: true }, { actor: withRepo, owner: acme, imported, now: NOW, urls });
    expect(plan.content).toEqual({ kind: 'imported', stagingDir: '/tmp/staged' });
    expect(plan.changes).toEqual({ default_branch: 'trunk', language: 'Go', topics: '["tools","git"]', archived: 1 });
    expect(plan.events).toEqual([{ name: 'created' }, { name: 'refs' }]);
    const plain = planCreate(
      { name: 'x' },
      { actor: withRepo, owner: acme, imported: { ...imported, topics: [], archived: false }, now: NOW, urls },
    );
    expect(plain.changes).toEqual({ default_branch: 'trunk', language: 'Go' });
  });
});

/** Checks and plans an update of `repo` as the service does (branches as `refs`). */
function update(repo: RepositoryRow, input: UpdateBody, refs: Record<string, string> = {}, a: Actor = withRepo): UpdatePlan | undefined {
  return planUpdate(repo, input, checkUpdate(repo, input, a), refs, NOW);
}

describe('checkUpdate and planUpdate', () => {
  it('plans nothing when nothing really changes', () => {
    const repo = repository();
    expect(update(repo, {})).toBeUndefined();
    expect(
      update(repo, {
        name: 'Hello',
        description: 'old',
        private: true,
        has_wiki: true,
        archived: false,
        allow_squash_merge: true,
        default_branch: 'main',
      }),
    ).toBeUndefined();
  });

  it('refuses changes to an archived repository (403) unless they unarchive it, before anything else is judged', () => {
    const repo = repository({ archived: 1 });
    const err = thrown(() => checkUpdate(repo, { description: 'd'.repeat(400) }, withRepo));
    expect([err.status, err.message]).toEqual([403, 'Repository was archived so is read-only.']);
    expect(update(repo, { archived: false })?.events).toEqual([{ name: 'repository', action: 'unarchived', changes: undefined }]);
  });

  it('judges the texts (422), then the scope for a private repository (404), then the name (422)', () => {
    const repo = repository();
    expect(thrown(() => checkUpdate(repo, { homepage: 'h'.repeat(256), name: '' }, actor('classic'))).status).toBe(422);
    expect(thrown(() => checkUpdate(repo, { name: '' }, actor('classic'))).status).toBe(404);
    expect(thrown(() => checkUpdate(repository({ visibility: 'public' }), { name: '' }, actor('classic'))).extra.errors).toEqual([
      { resource: 'Repository', field: 'name', code: 'missing_field' },
    ]);
  });

  it('renames: the new name to check and redirect from, and `renamed` with the old name', () => {
    const plan = update(repository(), { name: 'World repo' });
    expect(plan).toEqual({
      changes: { name: 'World-repo', name_lower: 'world-repo', updated_at: NOW.toISOString() },
      newName: 'World-repo',
      events: [{ name: 'repository', action: 'renamed', changes: { repository: { name: { from: 'Hello' } } } }],
    });
  });

  it('renames to the same name re-cased without a redirect or a name check', () => {
    const plan = update(repository(), { name: 'HELLO' });
    expect(plan?.changes).toMatchObject({ name: 'HELLO', name_lower: 'hello' });
    expect(plan?.newName).toBeUndefined();
    expect(plan?.events.map((e) => e.name === 'repository' && e.action)).toEqual(['renamed']);
  });

  it('records the events in GitHub’s order, each for its own change: renamed, edited (with the old values), publicized and public, archived', () => {
    const plan = update(repository(), {
      name: 'new',
      description: 'new text',
      homepage: null,
      visibility: 'public',
      archived: true,
      has_issues: false,
      allow_rebase_merge: false,
    });
    expect(plan?.events).toEqual([
      { name: 'repository', action: 'renamed', changes: { repository: { name: { from: 'Hello' } } } },
      { name: 'repository', action: 'edited', changes: { description: { from: 'old' } } },
      { name: 'repository', action: 'publicized', changes: undefined },
      { name: 'public' },
      { name: 'repository', action: 'archived', changes: undefined },
    ]);
    expect(plan?.changes).toMatchObject({ visibility: 'public', archived: 1, has_issues: 0, description: 'new text' });
    expect(JSON.parse(plan?.changes.merge_settings ?? '')).toMatchObject({ allow_rebase_merge: false, allow_squash_merge: true });
    expect(update(repository({ visibility: 'public' }), { private: true })?.events).toEqual([
      { name: 'repository', action: 'privatized', changes: undefined },
    ]);
  });

  it('moves the default branch to a branch the repository has: HEAD and the language follow its commit, `edited` names the old one', () => {
    const refs = { 'refs/heads/main': 'a'.repeat(40), 'refs/heads/dev': 'b'.repeat(40), 'refs/tags/v1': 'c'.repeat(40) };
    const plan = update(repository(), { default_branch: 'dev' }, refs);
    expect(plan?.head).toEqual({ branch: 'dev', commit: 'b'.repeat(40) });
    expect(plan?.changes).toMatchObject({ default_branch: 'dev' });
    expect(plan?.events).toEqual([{ name: 'repository', action: 'edited', changes: { default_branch: { from: 'main' } } }]);
  });

  it('refuses a default branch in an empty repository, one it does not have, a tag, or a name git refuses (422)', () => {
    const message = (input: UpdateBody, refs: Record<string, string>) =>
      (thrown(() => update(repository(), input, refs)).extra.errors as { message: string }[])[0].message;
    expect(message({ default_branch: 'dev' }, {})).toBe(
      'Cannot update default branch for an empty repository. Please init the repository and push first.',
    );
    const refs = { 'refs/heads/main': 'a'.repeat(40), 'refs/tags/v1': 'c'.repeat(40), 'refs/heads/a..b': 'd'.repeat(40) };
    expect(message({ default_branch: 'nope' }, refs)).toBe('No branch named nope');
    expect(message({ default_branch: 'v1' }, refs)).toBe('No branch named v1');
    expect(message({ default_branch: 'a..b' }, refs)).toBe('No branch named a..b');
  });
});
