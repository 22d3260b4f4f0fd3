// Where hooks are managed on the web, at GitHub's addresses: an organization's (/organizations/<org>/settings/hooks,
// its owners), a repository's (/<owner>/<repo>/settings/hooks, its admins) and the site's global hooks
// (/admin/settings/hooks, site admins: /admin/hooks itself is GitHub Enterprise's REST path, which hublet answers at
// the root as at /api/v3). Each is the webhooks service's scope, made with the viewer's own authority: whoever may not
// manage those hooks gets the service's 404.
import type { ServiceContext } from '../../core/context.js';
import { globalScope, organizationScope, repositoryScope, type HookScope } from '../../webhooks/service.js';
import { organizationSettingsNav, type SettingsNav } from '../settings/settings-layout.js';

/** The hooks of one owner as the settings pages show them. */
export interface HooksPlace {
  scope: HookScope;
  /** The path of the hooks list (under the base URL): `/organizations/Acme/settings/hooks`. */
  home: string;
  /** The settings navigation around the pages. */
  nav: SettingsNav;
  /** The pages' heading: `Webhooks` or `Global webhooks`. */
  title: string;
  /** Whose hooks they are, for page titles: `Acme`, `alice/tools`, or '' for the site. */
  owner: string;
}

/** One kind of place: its route path (the hooks list), its path parameters, and how a request's parameters resolve. */
export interface HooksHome {
  route: string;
  params: readonly string[];
  place(ctx: ServiceContext, params: Record<string, string>): Promise<HooksPlace>;
}

const segment = encodeURIComponent;

export const HOOK_HOMES: readonly HooksHome[] = [
  {
    route: '/organizations/:org/settings/hooks',
    params: ['org'],
    async place(ctx, p) {
      const scope = await organizationScope(ctx, p.org);
      const login = scope.org?.login ?? p.org;
      return {
        scope,
        home: `/organizations/${segment(login)}/settings/hooks`,
        nav: organizationSettingsNav(login),
        title: 'Webhooks',
        owner: login,
      };
    },
  },
  {
    route: '/:owner/:repo/settings/hooks',
    params: ['owner', 'repo'],
    async place(ctx, p) {
      const scope = await repositoryScope(ctx, p.owner, p.repo, 'admin');
      const fullName = String(scope.repository?.full_name ?? `${p.owner}/${p.repo}`);
      const [owner, repo] = fullName.split('/');
      const home = `/${segment(owner)}/${segment(repo)}/settings/hooks`;
      return {
        scope,
        home,
        nav: { label: 'Repository settings', links: [{ href: home, label: 'Webhooks' }] },
        title: 'Webhooks',
        owner: fullName,
      };
    },
  },
  {
    route: '/admin/settings/hooks',
    params: [],
    async place(ctx) {
      const home = '/admin/settings/hooks';
      return {
        scope: globalScope(ctx),
        home,
        nav: { label: 'Site admin', links: [{ href: home, label: 'Global webhooks' }] },
        title: 'Global webhooks',
        owner: '',
      };
    },
  },
];
