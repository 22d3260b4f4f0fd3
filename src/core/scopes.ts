// OAuth scopes (classic and OAuth-app tokens) and fine-grained permissions: the known names and what includes what.

/** Classic scopes GitHub documents, with the scopes each one implies. */
const SCOPE_CHILDREN: Record<string, string[]> = {
  repo: ['repo:status', 'repo_deployment', 'public_repo', 'repo:invite', 'security_events'],
  'repo:status': [],
  repo_deployment: [],
  public_repo: [],
  'repo:invite': [],
  security_events: [],
  'admin:repo_hook': ['write:repo_hook', 'read:repo_hook'],
  'write:repo_hook': ['read:repo_hook'],
  'read:repo_hook': [],
  'admin:org': ['write:org', 'read:org'],
  'write:org': ['read:org'],
  'read:org': [],
  'admin:public_key': ['write:public_key', 'read:public_key'],
  'write:public_key': ['read:public_key'],
  'read:public_key': [],
  'admin:org_hook': [],
  gist: [],
  notifications: [],
  user: ['read:user', 'user:email', 'user:follow'],
  'read:user': [],
  'user:email': [],
  'user:follow': [],
  project: ['read:project'],
  'read:project': [],
  delete_repo: [],
  'write:packages': ['read:packages'],
  'read:packages': [],
  'delete:packages': [],
  'admin:gpg_key': ['write:gpg_key', 'read:gpg_key'],
  'write:gpg_key': ['read:gpg_key'],
  'read:gpg_key': [],
  workflow: [],
  codespace: [],
  site_admin: [],
  'admin:enterprise': [],
  'read:audit_log': [],
};

export const KNOWN_SCOPES = Object.keys(SCOPE_CHILDREN);

export function isKnownScope(scope: string): boolean {
  return scope in SCOPE_CHILDREN;
}

/** Every scope a set of granted scopes amounts to, parents expanded into their children. */
function expandScopes(granted: readonly string[]): Set<string> {
  const out = new Set<string>();
  const visit = (s: string) => {
    if (out.has(s)) return;
    out.add(s);
    for (const child of SCOPE_CHILDREN[s] ?? []) visit(child);
  };
  granted.forEach(visit);
  return out;
}

/** Each known scope with everything it implies (itself included), computed once: checks allocate nothing. */
const IMPLIED: ReadonlyMap<string, ReadonlySet<string>> = new Map(KNOWN_SCOPES.map((s) => [s, expandScopes([s])]));

/** True when the granted scopes include at least one of the accepted ones. */
export function hasAnyScope(granted: readonly string[], accepted: readonly string[]): boolean {
  for (let i = 0; i < granted.length; i++) {
    const implied = IMPLIED.get(granted[i]);
    for (let j = 0; j < accepted.length; j++) {
      if (accepted[j] === granted[i] || implied?.has(accepted[j])) return true;
    }
  }
  return false;
}

/** Fine-grained token permissions (GitHub's names), each read < write < admin. */
export const FINE_GRAINED_PERMISSIONS = [
  'gists',
  'organization_hooks',
  'repository_hooks',
  'organization_administration',
  'members',
  'administration',
  'contents',
  'metadata',
  'email_addresses',
  'profile',
] as const;
export type FineGrainedPermission = (typeof FINE_GRAINED_PERMISSIONS)[number];
export type PermissionLevel = 'read' | 'write' | 'admin';
const LEVEL_RANK: Record<PermissionLevel, number> = { read: 1, write: 2, admin: 3 };

export function isPermissionLevel(v: unknown): v is PermissionLevel {
  return v === 'read' || v === 'write' || v === 'admin';
}

/** Repository permissions: any of them implies metadata read, as GitHub adds that one implicitly. */
const REPOSITORY_PERMISSIONS: readonly FineGrainedPermission[] = ['metadata', 'contents', 'administration', 'repository_hooks'];

export function hasPermission(granted: Record<string, string>, permission: string, level: PermissionLevel): boolean {
  if (permission === 'metadata' && level === 'read') {
    for (let i = 0; i < REPOSITORY_PERMISSIONS.length; i++) if (isPermissionLevel(granted[REPOSITORY_PERMISSIONS[i]])) return true;
    return false;
  }
  const have = granted[permission];
  return isPermissionLevel(have) && LEVEL_RANK[have] >= LEVEL_RANK[level];
}
