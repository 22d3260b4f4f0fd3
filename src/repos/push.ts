// After an accepted push: what it did (commits, files, forced or not), the repository's new git facts, and its `push`,
// `create` and `delete` events.
import { loginOfUser, loginsByEmail } from '../accounts/store.js';
import type { Db } from '../db/connect.js';
import type { UserRow } from '../db/schema.js';
import { pushCommitObject, pushPayload, type PushCommitObject } from './push-payload.js';
import { readRefs, ZERO_SHA, type RefState, type RefUpdate } from '../git/bare.js';
import type { AppContext } from '../core/context.js';
import {
  commitsBetween,
  diskSizeKb,
  isAncestor,
  peelToCommit,
  primaryLanguage,
  repositoryDir,
  setHead,
  summarizeCommit,
  type CommitSummary,
  type GitCache,
} from './git-data.js';
import { repositoryUrls } from './present.js';
import { emitRefEvent, tagsWithoutEvents } from './ref-events.js';
import { findRepositoryById, updateRepository } from './store.js';
import type { RepositoryRow } from '../db/tables/repos.js';

/** At most this many commits per push payload (GitHub's webhook limit; the Events API's 20 applies to timelines only). */
const MAX_PUSH_COMMITS = 2048;

interface PreparedUpdate extends RefUpdate {
  forced: boolean;
  baseRef: string | null;
  commits: { summary: CommitSummary; distinct: boolean }[];
  head: { summary: CommitSummary; distinct: boolean } | null;
}

export interface PreparedPush {
  repoId: number;
  owner: UserRow;
  pusher: UserRow;
  firstPush: boolean;
  updates: PreparedUpdate[];
  /** Changes to the repository row that the git data calls for. */
  facts: { size_kb: number; default_branch?: string; language?: string | null };
  usernames: Map<string, string>;
}

/** The refs as they were before the push: the refs now, with each update undone. */
function refsBefore(after: RefState, updates: readonly RefUpdate[]): RefState {
  const before: RefState = { ...after };
  for (const u of updates) {
    if (u.before === ZERO_SHA) delete before[u.ref];
    else before[u.ref] = u.before;
  }
  return before;
}

/** The branch a repository without its default branch should name: main, then master, then the first by name. */
export function pickDefaultBranch(refs: string[], current: string): string {
  const branches = refs
    .filter((r) => r.startsWith('refs/heads/'))
    .map((r) => r.slice('refs/heads/'.length))
    .sort();
  if (branches.includes(current) || branches.length === 0) return current;
  return branches.find((b) => b === 'main') ?? branches.find((b) => b === 'master') ?? branches[0];
}

/** Logins of the accounts commit emails belong to (their stored email, or this server's noreply form). */
async function usernamesFor(db: Db, emails: Iterable<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const wanted = [...new Set([...emails].map((e) => e.toLowerCase()))].filter((e) => e.length <= 254 && !e.includes('\0'));
  if (wanted.length === 0) return out;
  for (const [email, login] of await loginsByEmail(db, wanted)) out.set(email, login);
  for (const e of wanted) {
    const m = /^(\d+)\+([A-Za-z0-9-]+)@users\.noreply\./.exec(e);
    if (m && !out.has(e)) {
      const login = await loginOfUser(db, Number(m[1]), m[2]);
      if (login) out.set(e, login);
    }
  }
  return out;
}

/**
 * Reads what a push did from the repository on disk: per ref, its commits (newest `MAX_PUSH_COMMITS`, oldest first) with
 * the files each added, removed and modified, whether it was forced, and the repository's new size, default branch
 * (a push into an empty repository makes its first branch the default) and language. `db` reads account emails.
 */
export async function preparePush(
  db: Db,
  dataDir: string,
  input: { repo: RepositoryRow; owner: UserRow; pusher: UserRow; updates: readonly RefUpdate[] },
): Promise<PreparedPush> {
  const dir = repositoryDir(dataDir, input.repo.id);
  const cache: GitCache = {};
  const after = await readRefs(dir);
  const before = refsBefore(after, input.updates);
  const beforeTips = Object.values(before);
  const updates: PreparedUpdate[] = [];
  const emails: string[] = [];
  const summaries = new Map<string, CommitSummary>();
  const summary = async (oid: string) => {
    let s = summaries.get(oid);
    if (!s) {
      s = await summarizeCommit(dir, oid, cache);
      summaries.set(oid, s);
      emails.push(s.author.email, s.committer.email);
    }
    return s;
  };

  const beforeCommits = (await Promise.all(beforeTips.map((t) => peelToCommit(dir, t, cache)))).filter((c): c is string => c !== null);
  // Commits an earlier ref of this same push already brought are not distinct for the later ones.
  const claimed = new Set<string>();
  for (const u of input.updates) {
    const deleted = u.after === ZERO_SHA;
    const created = u.before === ZERO_SHA;
    const isTag = u.ref.startsWith('refs/tags/');
    const headCommit = deleted ? null : await peelToCommit(dir, u.after, cache);
    let commits: { summary: CommitSummary; distinct: boolean }[] = [];
    let head: PreparedUpdate['head'] = null;
    let forced = false;
    if (headCommit) {
      // New to the repository: not reachable from any ref as it was before the push.
      const fresh = new Set(await commitsBetween(dir, headCommit, beforeCommits, MAX_PUSH_COMMITS, cache));
      let listed: string[];
      if (isTag)
        listed = []; // GitHub lists no commits for tags; head_commit names the tagged commit
      else if (created) listed = [...fresh];
      else {
        const oldCommit = await peelToCommit(dir, u.before, cache);
        listed = await commitsBetween(dir, headCommit, oldCommit ? [oldCommit] : [], MAX_PUSH_COMMITS, cache);
        forced = oldCommit !== null && !(await isAncestor(dir, oldCommit, headCommit, cache));
      }
      const distinct = (oid: string) => fresh.has(oid) && !claimed.has(oid);
      commits = [];
      for (const oid of listed.reverse()) commits.push({ summary: await summary(oid), distinct: distinct(oid) });
      head = { summary: await summary(headCommit), distinct: distinct(headCommit) };
      for (const oid of fresh) claimed.add(oid);
    }
    let baseRef: string | null = null;
    if (u.ref.startsWith('refs/tags/') && headCommit) {
      // A tag pushed at a branch's tip names that branch, as GitHub's base_ref does.
      const branch = Object.keys(after)
        .sort()
        .find((r) => r.startsWith('refs/heads/') && after[r] === headCommit);
      baseRef = branch ?? null;
    }
    updates.push({ ...u, forced, baseRef, commits, head });
  }

  const facts: PreparedPush['facts'] = { size_kb: await diskSizeKb(dir) };
  let defaultBranch = input.repo.default_branch;
  if (!after[`refs/heads/${defaultBranch}`]) {
    const picked = pickDefaultBranch(Object.keys(after), defaultBranch);
    if (picked !== defaultBranch) {
      defaultBranch = picked;
      facts.default_branch = picked;
      await setHead(dir, picked);
    }
  }
  const defaultRef = `refs/heads/${defaultBranch}`;
  if (facts.default_branch || input.updates.some((u) => u.ref === defaultRef)) {
    facts.language = after[defaultRef] ? await primaryLanguage(dir, after[defaultRef], cache).catch(() => null) : null;
  }
  return {
    repoId: input.repo.id,
    owner: input.owner,
    pusher: input.pusher,
    firstPush: Object.keys(before).length === 0,
    updates,
    facts,
    usernames: await usernamesFor(db, emails),
  };
}

/**
 * Writes a prepared push in the caller's transaction: the repository's pushed_at, size, default branch and language,
 * and per updated ref a `push` event, with `create` before it for a new branch or tag and `delete` after it for a
 * deleted one (GitHub's payloads); tags pushed more than three at once get none (GitHub's rule, tagsWithoutEvents).
 * Returns the updated repository (undefined if it was deleted).
 */
export async function writePush(
  trx: Db,
  ctx: Pick<AppContext, 'urls' | 'events'>,
  push: PreparedPush,
  now: Date,
): Promise<RepositoryRow | undefined> {
  const current = await findRepositoryById(trx, push.repoId);
  if (!current) return undefined;
  const at = now.toISOString();
  const repo = await updateRepository(trx, current.id, { ...push.facts, pushed_at: at, updated_at: at });
  const html = repositoryUrls(ctx.urls, push.owner.login, repo.name).html_url;
  const present = (c: { summary: CommitSummary; distinct: boolean }): PushCommitObject =>
    pushCommitObject(c.summary, html, c.distinct, push.usernames);
  const silent = tagsWithoutEvents(push.updates);
  for (const u of push.updates) {
    if (silent.has(u.ref)) continue;
    const refEvent = { ref: u.ref, repo, owner: push.owner, sender: push.pusher };
    if (u.before === ZERO_SHA) await emitRefEvent(trx, ctx, 'create', refEvent, now);
    await ctx.events.emit(
      trx,
      {
        name: 'push',
        orgId: push.owner.type === 'Organization' ? push.owner.id : null,
        repositoryId: repo.id,
        senderId: push.pusher.id,
        payload: pushPayload({
          ref: u.ref,
          before: u.before,
          after: u.after,
          forced: u.forced,
          baseRef: u.baseRef,
          firstPush: push.firstPush,
          commits: u.commits.map(present),
          headCommit: u.head ? present(u.head) : null,
          repo,
          owner: push.owner,
          pusher: push.pusher,
          urls: ctx.urls.root,
        }),
      },
      now,
    );
    if (u.after === ZERO_SHA) await emitRefEvent(trx, ctx, 'delete', refEvent, now);
  }
  return repo;
}

/** Prepares and writes a push inside one transaction (the server's own writes, e.g. the auto_init commit). */
export async function recordPush(
  trx: Db,
  ctx: Pick<AppContext, 'urls' | 'config' | 'events'>,
  input: { repo: RepositoryRow; owner: UserRow; pusher: UserRow; updates: RefUpdate[]; now: Date },
): Promise<RepositoryRow> {
  const prepared = await preparePush(trx, ctx.config.dataDir, input);
  return (await writePush(trx, ctx, prepared, input.now)) ?? input.repo;
}
