// Repository objects as webhook payloads carry them, the `repository` event payload (created, edited, renamed, …),
// the `public` event payload and the `fork` event payload.
import { simpleOrganization, simpleUser } from '../accounts/present.js';
import type { UserRow } from '../db/schema.js';
import { payloadOrganization, repositoryCore } from './present.js';
import type { RepositoryRow } from '../db/tables/repos.js';
import type { Urls } from '../core/urls.js';

/** The address shown for an account without a public email: GitHub's noreply form on this server's host. */
export function accountEmail(account: UserRow, urls: Urls): string {
  return account.email ?? `${account.id}+${account.login}@users.noreply.${new URL(urls.base).hostname}`;
}

const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * A repository as webhook payloads embed it. `style: 'push'` is the push event's variant, as GitHub sends it:
 * the owner carries `name` and `email`, `created_at` and `pushed_at` are Unix seconds, `url` is the web address,
 * and `stargazers`, `master_branch` and (for organization repositories) `organization` are added.
 */
export function repositoryPayloadObject(repo: RepositoryRow, owner: UserRow, urls: Urls, opts: { style?: 'push' } = {}) {
  const core = repositoryCore(repo, owner, urls);
  if (opts.style !== 'push') return { ...core, custom_properties: {} };
  return {
    ...core,
    owner: { name: owner.login, email: owner.type === 'User' ? accountEmail(owner, urls) : owner.email, ...simpleUser(owner, urls) },
    url: core.html_url,
    created_at: unix(repo.created_at),
    pushed_at: unix(repo.pushed_at),
    stargazers: 0,
    master_branch: repo.default_branch,
    ...(owner.type === 'Organization' ? { organization: owner.login } : {}),
    custom_properties: {},
  };
}

export type RepositoryAction =
  | 'created'
  | 'deleted'
  | 'edited'
  | 'renamed'
  | 'transferred'
  | 'publicized'
  | 'privatized'
  | 'archived'
  | 'unarchived';

/** GitHub's `changes` of an `edited`, `renamed` or `transferred` event: the previous values. */
export type RepositoryChanges = Record<string, unknown>;

/** The `repository` event payload: action, changes (edited, renamed), repository, organization (organization repositories), sender. */
export function repositoryEventPayload(input: {
  action: RepositoryAction;
  repo: RepositoryRow;
  owner: UserRow;
  sender: UserRow;
  urls: Urls;
  changes?: RepositoryChanges;
}): Record<string, unknown> {
  const organization = payloadOrganization(input.owner, input.urls);
  return {
    action: input.action,
    ...(input.changes ? { changes: input.changes } : {}),
    repository: repositoryPayloadObject(input.repo, input.owner, input.urls),
    ...(organization ? { organization } : {}),
    sender: simpleUser(input.sender, input.urls),
  };
}

/** The `public` event payload (a repository made public): repository, organization (organization repositories), sender. */
export function publicEventPayload(input: { repo: RepositoryRow; owner: UserRow; sender: UserRow; urls: Urls }): Record<string, unknown> {
  const organization = payloadOrganization(input.owner, input.urls);
  return {
    repository: repositoryPayloadObject(input.repo, input.owner, input.urls),
    ...(organization ? { organization } : {}),
    sender: simpleUser(input.sender, input.urls),
  };
}

/**
 * The `fork` event payload, sent to the forked repository's hooks and its organization's: `forkee` (the new fork, with
 * GitHub's `public` beside `private`), the forked `repository`, its organization, the sender.
 */
export function forkEventPayload(input: {
  fork: RepositoryRow;
  forkOwner: UserRow;
  repo: RepositoryRow;
  owner: UserRow;
  sender: UserRow;
  urls: Urls;
}): Record<string, unknown> {
  const organization = payloadOrganization(input.owner, input.urls);
  const forkee = repositoryPayloadObject(input.fork, input.forkOwner, input.urls);
  return {
    // The fork as GitHub sends it the moment it exists: its languages not measured yet (GitHub's schema: null).
    forkee: { ...forkee, language: null, public: !forkee.private },
    repository: repositoryPayloadObject(input.repo, input.owner, input.urls),
    ...(organization ? { organization } : {}),
    sender: simpleUser(input.sender, input.urls),
  };
}

/** `changes.owner.from` of a `transferred` event: the previous owner, as `user` or `organization`. */
export function previousOwner(owner: UserRow, urls: Urls): RepositoryChanges {
  return {
    owner: { from: owner.type === 'Organization' ? { organization: simpleOrganization(owner, urls) } : { user: simpleUser(owner, urls) } },
  };
}
