// The `push` event payload, in GitHub's shape: ref, before/after, flags, compare, commits, head_commit, repository, pusher, sender.
import { simpleUser } from '../accounts/present.js';
import type { UserRow } from '../db/schema.js';
import { payloadOrganization, repositoryUrls } from './present.js';
import type { RepositoryRow } from '../db/tables/repos.js';
import type { Urls } from '../core/urls.js';
import { accountEmail, repositoryPayloadObject } from './repository-payload.js';

export interface GitSignature {
  name: string;
  email: string;
  timestamp: number;
  /** Minutes west of UTC (git's and isomorphic-git's sign). */
  timezoneOffset: number;
}

export interface PushedCommit {
  id: string;
  tree_id: string;
  message: string;
  author: GitSignature;
  committer: GitSignature;
  added: string[];
  removed: string[];
  modified: string[];
}

/** A commit time in the committer's own offset, as GitHub writes it (`2019-05-15T15:19:25-04:00`, `Z` for UTC). */
function commitTimestamp(sig: GitSignature): string {
  const east = -sig.timezoneOffset;
  const local = new Date((sig.timestamp + east * 60) * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  if (east === 0) return `${local}Z`;
  const abs = Math.abs(east);
  return `${local}${east > 0 ? '+' : '-'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** One entry of `commits[]`; `usernames` maps lower-cased emails to the logins of the accounts they belong to. */
export function pushCommitObject(c: PushedCommit, repoHtmlUrl: string, distinct: boolean, usernames: ReadonlyMap<string, string>) {
  const person = (s: GitSignature) => {
    const username = usernames.get(s.email.toLowerCase());
    return { name: s.name, email: s.email, ...(username ? { username } : {}) };
  };
  return {
    id: c.id,
    tree_id: c.tree_id,
    distinct,
    message: c.message.replace(/\n$/, ''),
    timestamp: commitTimestamp(c.committer),
    url: `${repoHtmlUrl}/commit/${c.id}`,
    author: person(c.author),
    committer: person(c.committer),
    added: c.added,
    removed: c.removed,
    modified: c.modified,
  };
}

export type PushCommitObject = ReturnType<typeof pushCommitObject>;

const ZERO = '0'.repeat(40);

/** GitHub's compare link: the new commit of a first push to a branch, the new ref's name, or `before...after` (12-digit ids). */
function compareUrl(repoHtmlUrl: string, ref: string, before: string, after: string, firstPush: boolean): string {
  if (before === ZERO && firstPush && ref.startsWith('refs/heads/')) return `${repoHtmlUrl}/commit/${after}`;
  if (before === ZERO) return `${repoHtmlUrl}/compare/${ref.replace(/^refs\/(heads|tags)\//, '')}`;
  return `${repoHtmlUrl}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`;
}

export interface PushPayloadInput {
  ref: string;
  before: string;
  after: string;
  forced: boolean;
  baseRef: string | null;
  /** True when the repository had no refs before this push. */
  firstPush: boolean;
  commits: PushCommitObject[];
  headCommit: PushCommitObject | null;
  repo: RepositoryRow;
  owner: UserRow;
  pusher: UserRow;
  urls: Urls;
}

/** The push event payload for one updated ref. */
export function pushPayload(input: PushPayloadInput): Record<string, unknown> {
  const html = repositoryUrls(input.urls, input.owner.login, input.repo.name).html_url;
  const organization = payloadOrganization(input.owner, input.urls);
  return {
    ref: input.ref,
    before: input.before,
    after: input.after,
    repository: repositoryPayloadObject(input.repo, input.owner, input.urls, { style: 'push' }),
    pusher: { name: input.pusher.login, email: accountEmail(input.pusher, input.urls) },
    ...(organization ? { organization } : {}),
    sender: simpleUser(input.pusher, input.urls),
    created: input.before === ZERO,
    deleted: input.after === ZERO,
    forced: input.forced,
    base_ref: input.baseRef,
    compare: compareUrl(html, input.ref, input.before, input.after, input.firstPush),
    commits: input.commits,
    head_commit: input.headCommit,
  };
}
