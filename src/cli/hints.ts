// What a person can do about an API refusal, read off what the server answered: a refused credential, a token that
// lacks the scope (X-Accepted-OAuth-Scopes) or the fine-grained permission (X-Accepted-Service-Permissions) the route
// declares. One place for every command's hints; commands add their own where they know more (e.g. `--org`).

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The hint lines for an error answer (none when the server said nothing a person could act on). */
export function hintsFor(res: Answer): string[] {
  const h = res.headers ?? {};
  if (res.status === 401) {
    const refused = (res.body as { message?: unknown } | null)?.message === 'Bad credentials';
    const what = refused ? 'the server refused the credential' : 'this needs a token';
    return [`hint: ${what}: sign in with \`hublet auth login --server URL\`, or pass --token (HUBLET_TOKEN)`];
  }
  if (res.status !== 403 && res.status !== 404) return [];
  const accepted = list(h['x-accepted-oauth-scopes']);
  if (accepted.length && h['x-oauth-scopes'] !== undefined) {
    const held = list(h['x-oauth-scopes']);
    if (!accepted.some((s) => held.includes(s) || held.some((mine) => covers(mine, s)))) {
      const needed = accepted.join(' or ');
      if (accepted.includes('site_admin')) return ["hint: this needs a site administrator's token with the site_admin scope"];
      return [
        `hint: this needs a token with the ${needed} scope; yours has ${held.length ? held.join(', ') : 'none'}`,
        `hint: a site admin can issue one: hublet admin token create LOGIN --scopes ${accepted[0]}`,
      ];
    }
  }
  const permission = h['x-accepted-service-permissions'];
  if (permission) return [`hint: this needs a token with the fine-grained permission ${permission}`];
  return [];
}

/** GitHub's implied scopes: `repo` covers `public_repo`, `admin:org` covers `write:org` and `read:org`, and so on. */
function covers(held: string, wanted: string): boolean {
  if (held === 'repo') return wanted === 'public_repo' || wanted.startsWith('repo:');
  const [heldLevel, heldThing] = held.split(':');
  const [wantedLevel, wantedThing] = wanted.split(':');
  if (!heldThing || heldThing !== wantedThing) return false;
  const rank = { read: 0, write: 1, admin: 2 } as Record<string, number>;
  return (rank[heldLevel] ?? -1) >= (rank[wantedLevel] ?? 3);
}
