// A hook's "Recent Deliveries" as GitHub's settings show them: each delivery's GUID, event, time, status code and
// duration (all, or the failed ones), "Ping", "Redeliver failed since …"; and one delivery as it was recorded: the
// request's headers (every one, the signatures included) and its payload as indented JSON, the response's headers and
// body, with "Redeliver". Everything the receiver or the payload said is text here, escaped by `html`.
import { isoUtc } from '../../core/timestamps.js';
import type { DeliveryRow, HookRow } from '../../db/tables/webhooks.js';
import { succeeded } from '../../webhooks/present.js';
import { tokenInput, type FormErrors } from '../forms.js';
import { html, type Html } from '../html.js';
import { settingsPage } from '../settings/settings-layout.js';
import { hookTabs } from './hook-pages.js';
import type { HooksPlace } from './hook-places.js';

/** A moment as the deliveries show it: `2026-11-22 23:02:05 UTC`, in a <time>. */
function moment(iso: string): Html {
  const at = isoUtc(iso);
  return html`<time datetime="${at}">${at.slice(0, 10)} ${at.slice(11, 19)} UTC</time>`;
}

function seconds(duration: number): string {
  return `${duration.toFixed(2)} s`;
}

function outcome(row: DeliveryRow): Html {
  return succeeded(row) ? html`<span class="delivery-state ok">Delivered</span>` : html`<span class="delivery-state failed">Failed</span>`;
}

function eventName(row: DeliveryRow): string {
  return row.action ? `${row.event}.${row.action}` : row.event;
}

export interface DeliveryListOptions {
  base: string;
  csrf: string;
  place: HooksPlace;
  hook: HookRow;
  rows: DeliveryRow[];
  failedOnly: boolean;
  /** The cursors of the older and newer pages, when there are. */
  next?: string;
  prev?: string;
  notice: Html | '';
  /** What was typed into "Redeliver failed since" and what is wrong with it (a 422). */
  since?: string;
  errors?: FormErrors;
}

/** The "Redeliver failed since …" form: a moment (UTC) and the button. */
function redeliverFailedForm(o: DeliveryListOptions, at: string): Html {
  const error = o.errors?.since;
  const described = ['field-since-hint', error ? 'field-since-error' : ''].filter(Boolean).join(' ');
  return html`<form class="form inline-form" method="post" action="${at}/deliveries/redeliver-failed">${tokenInput(o.csrf)}
<div class="field"><label for="field-since">Redeliver failed deliveries since</label>
<input id="field-since" name="since" type="datetime-local" step="1" required value="${o.since ?? ''}"${error ? html` aria-invalid="true"` : ''} aria-describedby="${described}">
<p class="hint" id="field-since-hint">In UTC. Each event whose deliveries since then all failed is delivered again, once.</p>
${error ? html`<p class="field-error" id="field-since-error">${error}</p>` : ''}</div>
<button type="submit">Redeliver failed</button></form>`;
}

export function deliveryListPage(o: DeliveryListOptions): Html {
  const at = `${o.base}${o.place.home}/${o.hook.id}`;
  const page = (cursor: string) => `${at}/deliveries?${o.failedOnly ? 'status=failure&' : ''}cursor=${encodeURIComponent(cursor)}`;
  const filter = (href: string, label: string, on: boolean) => html`<a href="${href}"${on ? html` aria-current="page"` : ''}>${label}</a>`;
  const rows = o.rows.map(
    (r) => html`<tr>
<td>${outcome(r)}</td>
<td><a href="${at}/deliveries/${r.id}"><code>${r.guid}</code></a>${r.redelivery ? html`<span class="badge">redelivery</span>` : ''}</td>
<td>${eventName(r)}</td>
<td>${moment(r.delivered_at)}</td>
<td>${r.status_code || '–'}</td>
<td>${seconds(r.duration)}</td>
</tr>`,
  );
  const table = rows.length
    ? html`<div class="table-scroll"><table class="deliveries"><caption class="visually-hidden">${o.failedOnly ? 'Failed deliveries' : 'Recent deliveries'}</caption>
<thead><tr><th scope="col">Result</th><th scope="col">GUID</th><th scope="col">Event</th><th scope="col">Time</th><th scope="col">Status code</th><th scope="col">Duration</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
    : html`<p class="empty">${o.failedOnly ? 'No failed deliveries.' : 'There are no deliveries yet.'}</p>`;
  const pages =
    o.next || o.prev
      ? html`<nav class="pages" aria-label="Pages">${o.prev ? html`<a href="${page(o.prev)}">Newer</a>` : ''}${o.next ? html`<a href="${page(o.next)}">Older</a>` : ''}</nav>`
      : '';
  return settingsPage({
    base: o.base,
    title: `${o.place.title} / Recent Deliveries`,
    current: o.place.home,
    nav: o.place.nav,
    body: html`${hookTabs(o.base, o.place, o.hook, 'deliveries')}${o.notice}
<div class="delivery-tools">
<form method="post" action="${at}/pings">${tokenInput(o.csrf)}<button type="submit">Ping</button></form>
<nav class="delivery-filter" aria-label="Deliveries">${filter(`${at}/deliveries`, 'All', !o.failedOnly)}${filter(`${at}/deliveries?status=failure`, 'Failed', o.failedOnly)}</nav>
</div>
<h2>Recent Deliveries</h2>
${table}${pages}
${redeliverFailedForm(o, at)}`,
  });
}

/** Recorded headers, each as it was sent or received. */
function headerTable(headers: Record<string, string>, caption: string): Html {
  const rows = Object.entries(headers).map(([name, value]) => html`<tr><th scope="row">${name}</th><td><code>${value}</code></td></tr>`);
  if (!rows.length) return html`<p class="empty">No headers were recorded.</p>`;
  return html`<div class="table-scroll"><table class="headers"><caption class="visually-hidden">${caption}</caption><tbody>${rows}</tbody></table></div>`;
}

function pretty(payload: unknown): string {
  return payload === null || payload === undefined ? '' : JSON.stringify(payload, null, 2);
}

export interface DeliveryPageOptions {
  base: string;
  csrf: string;
  place: HooksPlace;
  hook: HookRow;
  row: DeliveryRow;
  payload: unknown;
}

export function deliveryPage(o: DeliveryPageOptions): Html {
  const { row } = o;
  const at = `${o.base}${o.place.home}/${o.hook.id}/deliveries/${row.id}`;
  const requestHeaders = JSON.parse(row.request_headers) as Record<string, string>;
  const responseHeaders = JSON.parse(row.response_headers) as Record<string, string>;
  const payload = pretty(o.payload);
  return settingsPage({
    base: o.base,
    title: `${o.place.title} / Delivery ${row.guid}`,
    current: o.place.home,
    nav: o.place.nav,
    body: html`${hookTabs(o.base, o.place, o.hook, 'deliveries')}
<h2><code>${row.guid}</code> ${outcome(row)}${row.redelivery ? html`<span class="badge">redelivery</span>` : ''}</h2>
<ul class="facts delivery-facts"><li>Event: <code>${eventName(row)}</code></li><li>${moment(row.delivered_at)}</li>
<li>Completed in ${row.duration.toFixed(2)} seconds.</li><li>To <code>${row.url}</code></li></ul>
<form method="post" action="${at}/attempts">${tokenInput(o.csrf)}<button type="submit" class="primary">Redeliver</button></form>
<h2>Request</h2>
<h3>Headers</h3>
${headerTable(requestHeaders, 'Request headers')}
<h3>Payload</h3>
${payload ? html`<pre class="payload" tabindex="0"><code>${payload}</code></pre>` : html`<p class="empty">The event’s payload is no longer kept.</p>`}
<h2>Response <span class="status-code">${row.status_code || 'none'}</span></h2>
<p class="meta">${row.status}</p>
<h3>Headers</h3>
${headerTable(responseHeaders, 'Response headers')}
<h3>Body</h3>
${row.response_body ? html`<pre class="payload" tabindex="0"><code>${row.response_body}</code></pre>` : html`<p class="empty">The response had no body.</p>`}`,
  });
}
