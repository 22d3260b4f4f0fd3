// The settings pages' shell (/settings/…, and an organization's: their navigation, the current page marked) and
// GitHub's way of writing a day; shared by the settings pages.
import { html, type Html } from '../html.js';
import { page } from '../layout.js';

const SETTINGS_LINKS = [
  { href: '/settings/profile', label: 'Public profile' },
  { href: '/settings/tokens', label: 'Personal access tokens' },
  { href: '/settings/security', label: 'Password and authentication' },
  { href: '/settings/applications', label: 'Applications' },
  { href: '/settings/migrations', label: 'Migrations' },
];

/** A navigation of settings pages other than a person's own (an organization's): its name and its links. */
export interface SettingsNav {
  label: string;
  links: readonly { href: string; label: string }[];
}

/** An organization's settings navigation (its owners'): its webhooks, its migrations and its audit log. */
export function organizationSettingsNav(login: string): SettingsNav {
  const home = `/organizations/${encodeURIComponent(login)}/settings`;
  return {
    label: 'Organization settings',
    links: [
      { href: `${home}/hooks`, label: 'Webhooks' },
      { href: `${home}/migrations`, label: 'Migrations' },
      { href: `${home}/audit-log`, label: 'Audit log' },
    ],
  };
}

/** A settings page: its title, the settings navigation (a person's own, or `nav`; the current page marked) and its body. */
export function settingsPage(o: { base: string; title: string; current: string; body: Html; nav?: SettingsNav }): Html {
  const nav = o.nav ?? { label: 'Settings', links: SETTINGS_LINKS };
  const links = nav.links.map(
    (l) => html`<a href="${o.base}${l.href}"${l.href === o.current ? html` aria-current="page"` : ''}>${l.label}</a>`,
  );
  return page({
    title: `${o.title} · hublet`,
    base: o.base,
    noindex: true,
    body: html`<div class="form-page wide"><nav class="settings-nav" aria-label="${nav.label}">${links}</nav>
<h1>${o.title}</h1>
${o.body}</div>`,
  });
}

/** GitHub's way of writing a day: "Sat, Dec 26, 2026". */
export function day(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}
