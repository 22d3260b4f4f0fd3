// What the stubbed client answers with: the API's bodies of a gist, a hook, a delivery, a migration and a repository,
// with only the fields the commands read, each overridable.
export const BASE = 'http://hublet.test';
export const GIST_ID = 'aa5a315d61ae9438b18d';

/** A gist, its files' content in base64 (as `Accept: …base64+json` asks). */
export function gistBody(files: Record<string, string>, extra: Record<string, unknown> = {}) {
  const id = (extra.id as string | undefined) ?? GIST_ID;
  return {
    id,
    url: `${BASE}/gists/${id}`,
    html_url: `${BASE}/gist/alice/${id}`,
    git_pull_url: `${BASE}/gist/${id}.git`,
    description: 'notes',
    public: false,
    owner: { login: 'alice' },
    created_at: '2026-01-02T03:04:05Z',
    updated_at: '2026-01-02T03:04:05Z',
    truncated: false,
    files: Object.fromEntries(
      Object.entries(files).map(([name, content]) => [
        name,
        {
          filename: name,
          type: 'text/plain',
          language: null,
          raw_url: `${BASE}/gist/alice/${id}/raw/x/${name}`,
          size: content.length,
          truncated: false,
          content: Buffer.from(content).toString('base64'),
          encoding: 'base64',
        },
      ]),
    ),
    ...extra,
  };
}

export function hookBody(extra: Record<string, unknown> = {}) {
  return {
    id: 12,
    active: true,
    events: ['push'],
    config: { url: 'https://ci.example.com/hook', content_type: 'json', insecure_ssl: '0', secret: '********' },
    last_response: { code: null, status: 'unused', message: null },
    created_at: '2026-01-02T03:04:05Z',
    updated_at: '2026-01-02T03:04:05Z',
    ...extra,
  };
}

export function deliveryBody(id: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    guid: `guid-${id}`,
    delivered_at: '2026-01-02T03:04:05Z',
    redelivery: false,
    duration: 0.01,
    status: 'OK',
    status_code: 200,
    event: 'push',
    action: null,
    ...extra,
  };
}

export function migrationBody(extra: Record<string, unknown> = {}) {
  return {
    id: 7,
    guid: '0b989ba4-242f-11e5-81e1-c7b6966d2516',
    url: `${BASE}/orgs/acme/migrations/7`,
    state: 'exported',
    owner: { login: 'acme', type: 'Organization' },
    repositories: [{ full_name: 'acme/tools' }],
    lock_repositories: false,
    exclude_git_data: false,
    exclude_metadata: false,
    org_metadata_only: false,
    created_at: '2026-01-02T03:04:05Z',
    updated_at: '2026-01-02T03:04:06Z',
    ...extra,
  };
}

export function repoBody(fullName: string, extra: Record<string, unknown> = {}) {
  const [owner, name] = fullName.split('/');
  return {
    id: 1,
    name,
    full_name: fullName,
    private: false,
    visibility: 'public',
    description: null,
    homepage: null,
    default_branch: 'main',
    clone_url: `${BASE}/${fullName}.git`,
    html_url: `${BASE}/${fullName}`,
    language: null,
    size: 0,
    archived: false,
    pushed_at: '2026-01-02T03:04:05Z',
    created_at: '2026-01-02T03:04:05Z',
    updated_at: '2026-01-02T03:04:05Z',
    owner: { login: owner, type: 'User' },
    ...extra,
  };
}
