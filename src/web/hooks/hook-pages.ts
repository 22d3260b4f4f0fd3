// The webhook pages besides the form: the list ("Add webhook", each hook with its events and how its last delivery
// went), a hook's tabs (its settings, "Recent Deliveries"), the confirmation a delete asks for (a page, so it works
// without JavaScript), and the notices a page shows after a change (fixed texts, chosen by a word in the query).
import type { DeliveryRow, HookRow } from '../../db/tables/webhooks.js';
import { succeeded } from '../../webhooks/present.js';
import { flash, tokenInput } from '../forms.js';
import { html, type Html } from '../html.js';
import { plural } from '../links.js';
import { settingsPage } from '../settings/settings-layout.js';
import type { HooksPlace } from './hook-places.js';

/** What the pages say after a change (GitHub's words where it has them). */
const NOTICES: Record<string, string> = {
  created: 'Okay, that hook was successfully created. We sent a ping payload to test it out!',
  updated: 'Okay, the hook was successfully updated.',
  deleted: 'Okay, that hook was successfully deleted.',
  pinged: 'Okay, we sent a ping. Its delivery shows here once it is made.',
  redelivered: 'Okay, we are redelivering that payload. The new delivery shows here once it is made.',
};

/** The notice a `?notice=` names (anything else: none); `redelivered_failed` says how many (`?count=`). */
export function noticeOf(query: { notice?: string | string[]; count?: string | string[]; more?: string | string[] }): Html | '' {
  const notice = [query.notice].flat().at(-1) ?? '';
  if (notice === 'redelivered_failed') {
    const count = Number([query.count].flat().at(-1) ?? '0');
    const n = Number.isSafeInteger(count) && count >= 0 ? count : 0;
    const more = [query.more].flat().at(-1) === '1' ? ' There are more: run it again to redeliver them too.' : '';
    return flash(
      n ? `Okay, redelivering ${plural(n, 'failed delivery', 'failed deliveries')}.${more}` : 'No failed deliveries since then.',
      'notice',
    );
  }
  return flash(NOTICES[notice], 'notice');
}

/** A hook's events in a few words: `push`, `all events`, or how many. */
function eventsSummary(hook: HookRow): string {
  const events = JSON.parse(hook.events) as string[];
  if (events.includes('*')) return 'all events';
  return events.length <= 3 ? events.join(', ') : plural(events.length, 'event');
}

/** How the last delivery went, GitHub's sentence. */
function lastDelivery(last: DeliveryRow | undefined): Html {
  if (!last) return html`<span class="delivery-state">This hook has never been triggered.</span>`;
  if (succeeded(last)) return html`<span class="delivery-state ok">Last delivery was successful.</span>`;
  return html`<span class="delivery-state failed">Last delivery was not successful. ${last.status}</span>`;
}

/** A hook's pages: "Settings" and "Recent Deliveries", the current one marked. */
export function hookTabs(base: string, place: HooksPlace, hook: HookRow, current: 'settings' | 'deliveries'): Html {
  const at = `${base}${place.home}/${hook.id}`;
  const tab = (href: string, label: string, on: boolean) => html`<a href="${href}"${on ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<p class="hook-url"><code>${hook.url}</code></p>
<nav class="hook-tabs" aria-label="Webhook">${tab(at, 'Settings', current === 'settings')}${tab(`${at}/deliveries`, 'Recent Deliveries', current === 'deliveries')}</nav>`;
}

export interface HookListOptions {
  base: string;
  place: HooksPlace;
  hooks: HookRow[];
  last: Map<number, DeliveryRow>;
  notice: Html | '';
  /** Links to other pages of hooks, when there are more than one page. */
  pages: Html | '';
}

export function hookListPage(o: HookListOptions): Html {
  const items = o.hooks.map((h) => {
    const at = `${o.base}${o.place.home}/${h.id}`;
    return html`<li class="hook" id="hook-${h.id}">
<div><a href="${at}"><code>${h.url}</code></a> <span class="meta">(${eventsSummary(h)})</span>${h.active ? '' : html`<span class="badge">Inactive</span>`}</div>
<div class="meta">${lastDelivery(o.last.get(h.id))}</div>
<div class="hook-actions"><a href="${at}">Edit</a> <a href="${at}/deliveries">Recent Deliveries</a> <a href="${at}/delete">Delete</a></div>
</li>`;
  });
  const list = items.length ? html`<ul class="list hooks">${items}</ul>` : html`<p class="empty">There are no webhooks yet.</p>`;
  const whose = o.place.owner ? html` about <strong>${o.place.owner}</strong>` : html` anywhere on this site`;
  return settingsPage({
    base: o.base,
    title: o.place.title,
    current: o.place.home,
    nav: o.place.nav,
    body: html`${o.notice}<p>Webhooks allow external services to be notified when certain events happen${whose}. When the specified events
happen, we’ll send a POST request to each of the URLs you provide.</p>
<p class="token-actions"><a class="button" href="${o.base}${o.place.home}/new">Add webhook</a></p>
${list}${o.pages}`,
  });
}

/** "Delete webhook?": the POST that deletes it, and the way back. */
export function deleteHookPage(o: { base: string; csrf: string; place: HooksPlace; hook: HookRow }): Html {
  const at = `${o.base}${o.place.home}/${o.hook.id}`;
  return settingsPage({
    base: o.base,
    title: 'Delete webhook?',
    current: o.place.home,
    nav: o.place.nav,
    body: html`<p>This action cannot be undone. Future events will no longer be delivered to this webhook
(<code>${o.hook.url}</code>).</p>
<form method="post" action="${at}/delete">${tokenInput(o.csrf)}<button type="submit" class="danger">Yes, delete webhook</button>
<a class="button" href="${at}">Cancel</a></form>`,
  });
}
