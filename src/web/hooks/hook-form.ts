// The webhook form in GitHub's words ("Payload URL", "Content type", "Secret", "SSL verification", "Which events would
// you like to trigger this webhook?", "Active", "Add webhook"/"Update webhook"), and hublet's "Signature format"
// (config.signature_format): its values from a hook, from the defaults or from what was posted, and what they ask of
// the webhooks service. The secret is never shown back: the field is always empty, and on a hook that has one, leaving
// it empty keeps it (PATCH …/config's rule). A signature format is posted to the service as given: a value the form
// does not offer is the service's 422, shown under the field.
import type { FieldError } from '../../core/errors.js';
import type { HookRow, SignatureFormat } from '../../db/tables/webhooks.js';
import type { HookEdit } from '../../webhooks/service.js';
import { field, fieldValues, flash, input, tokenInput, type FormBody, formErrors, type FormErrors } from '../forms.js';
import { html, type Html } from '../html.js';
import { settingsPage } from '../settings/settings-layout.js';
import type { HooksPlace } from './hook-places.js';

const ALL = '*';
/** "Content type" offers media types; the API's config names them `json` and `form`. */
const MEDIA_TYPES = [
  { value: 'form', type: 'application/x-www-form-urlencoded' },
  { value: 'json', type: 'application/json' },
] as const;

/** "Signature format": the API's `signature_format` values, each named by the header that carries its signature. */
const SIGNATURE_FORMATS = [
  { value: 'github', label: 'GitHub (X-Hub-Signature-256)' },
  { value: 'standard', label: 'Standard Webhooks (webhook-signature)' },
  { value: 'github,standard', label: 'Both' },
] as const satisfies readonly { value: SignatureFormat; label: string }[];

type Choice = 'push' | 'all' | 'some';

/** What the form shows: a hook's, the defaults, or what was posted (the secret never). */
export interface HookFormValues {
  url: string;
  contentType: 'json' | 'form';
  insecureSsl: '0' | '1';
  /** The API's `signature_format`, or what was posted ('' when nothing was: the service's default, or no change). */
  signatureFormat: string;
  choice: Choice;
  events: string[];
  active: boolean;
  removeSecret: boolean;
}

function choiceOf(events: readonly string[]): Choice {
  if (events.includes(ALL)) return 'all';
  return events.length === 1 && events[0] === 'push' ? 'push' : 'some';
}

/** A new hook: the API's defaults (form content, certificates verified, the scope's default events, active). */
export function newHookValues(place: HooksPlace): HookFormValues {
  const events = [...place.scope.defaultEvents];
  return {
    url: '',
    contentType: 'form',
    insecureSsl: '0',
    signatureFormat: 'github',
    choice: choiceOf(events),
    events,
    active: true,
    removeSecret: false,
  };
}

export function hookValues(hook: HookRow): HookFormValues {
  const events = JSON.parse(hook.events) as string[];
  return {
    url: hook.url,
    contentType: hook.content_type,
    insecureSsl: hook.insecure_ssl,
    signatureFormat: hook.signature_format,
    choice: choiceOf(events),
    events,
    active: Boolean(hook.active),
    removeSecret: false,
  };
}

/** What a person posted, as the form shows it again (a choice the form does not offer is its default). */
export function postedValues(body: FormBody): HookFormValues {
  const type = field(body, 'content_type');
  const choice = field(body, 'event_choice');
  return {
    url: field(body, 'url'),
    contentType: MEDIA_TYPES.find((m) => m.type === type)?.value ?? 'form',
    insecureSsl: field(body, 'insecure_ssl') === '1' ? '1' : '0',
    signatureFormat: field(body, 'signature_format'),
    choice: choice === 'push' || choice === 'all' ? choice : 'some',
    events: fieldValues(body, 'events'),
    active: field(body, 'active') !== '',
    removeSecret: field(body, 'remove_secret') !== '',
  };
}

function eventsOf(v: HookFormValues): string[] {
  if (v.choice === 'push') return ['push'];
  if (v.choice === 'all') return [ALL];
  return v.events;
}

/**
 * `signature_format` as posted, for the service to judge by the API's schema (the type says what it takes; a forged
 * value is refused there, with the API's message). None posted: not given.
 */
function signatureFormatOf(v: HookFormValues): { signature_format?: SignatureFormat } {
  return v.signatureFormat ? { signature_format: v.signatureFormat as SignatureFormat } : {};
}

/** POST …/hooks's body: what the service makes the hook from (an empty secret is none). */
export function createBody(v: HookFormValues, secret: string) {
  const config = {
    url: v.url,
    content_type: v.contentType,
    insecure_ssl: v.insecureSsl,
    ...(secret ? { secret } : {}),
    ...signatureFormatOf(v),
  };
  return { name: 'web' as const, config, events: eventsOf(v), active: v.active };
}

/** The change of a hook: the secret given replaces it, none keeps it, "Remove the secret" removes it. */
export function hookEdit(v: HookFormValues, secret: string): HookEdit {
  const kept = secret ? { secret } : v.removeSecret ? { secret: null } : {};
  return {
    config: { url: v.url, content_type: v.contentType, insecure_ssl: v.insecureSsl, ...kept, ...signatureFormatOf(v) },
    events: eventsOf(v),
    active: v.active,
  };
}

const LABELS = {
  url: { field: 'url', label: 'Payload URL' },
  config: { field: 'url', label: 'Payload URL' },
  content_type: { field: 'content_type', label: 'Content type' },
  secret: { field: 'secret', label: 'Secret' },
  insecure_ssl: { field: 'insecure_ssl', label: 'SSL verification' },
  signature_format: { field: 'signature_format', label: 'Signature format' },
  events: { field: 'events', label: 'Events' },
  active: { field: 'active', label: 'Active' },
};

/** The service's 422, each problem under its field. */
export function hookFormErrors(errors: readonly FieldError[]): FormErrors {
  return formErrors(errors, LABELS);
}

/** A field's error below it, and the attributes that tie it to its control (a group of controls: described only). */
function problem(errors: FormErrors, name: string, group = false): { attrs: Html | ''; text: Html | '' } {
  const message = errors[name];
  if (!message) return { attrs: '', text: '' };
  const id = `field-${name}-error`;
  const attrs = group ? html` aria-describedby="${id}"` : html` aria-invalid="true" aria-describedby="${id}"`;
  return { attrs, text: html`<p class="field-error" id="${id}">${message}</p>` };
}

const checked = (on: boolean) => (on ? html` checked` : '');

function radio(name: string, value: string, current: string, label: string): Html {
  const id = `field-${name}-${value}`;
  return html`<label class="check" for="${id}"><input type="radio" id="${id}" name="${name}" value="${value}"${checked(value === current)}> ${label}</label>`;
}

function contentTypeField(v: HookFormValues, errors: FormErrors): Html {
  const p = problem(errors, 'content_type');
  const options = MEDIA_TYPES.map(
    (m) => html`<option value="${m.type}"${m.value === v.contentType ? html` selected` : ''}>${m.type}</option>`,
  );
  return html`<div class="field"><label for="field-content_type">Content type</label>
<select id="field-content_type" name="content_type"${p.attrs}>${options}</select>${p.text}</div>`;
}

function sslField(v: HookFormValues, errors: FormErrors): Html {
  const p = problem(errors, 'insecure_ssl', true);
  return html`<fieldset class="field"${p.attrs}><legend>SSL verification</legend>
<p class="hint">By default, we verify SSL certificates when delivering payloads.</p>
${radio('insecure_ssl', '0', v.insecureSsl, 'Enable SSL verification')}
${radio('insecure_ssl', '1', v.insecureSsl, 'Disable (not recommended)')}${p.text}</fieldset>`;
}

/** "Signature format": which headers sign each delivery (a value posted that it does not offer: none chosen). */
function signatureFormatField(v: HookFormValues, errors: FormErrors): Html {
  const p = problem(errors, 'signature_format', true);
  const choices = SIGNATURE_FORMATS.map((f) => radio('signature_format', f.value, v.signatureFormat, f.label));
  return html`<fieldset class="field"${p.attrs}><legend>Signature format</legend>
<p class="hint">The headers that sign each payload with the secret: GitHub’s, Standard Webhooks’ (webhook-id, webhook-timestamp, webhook-signature) or both.</p>
${choices}${p.text}</fieldset>`;
}

function eventsField(place: HooksPlace, v: HookFormValues, errors: FormErrors): Html {
  const p = problem(errors, 'events', true);
  const names = [...place.scope.eventNames].sort();
  const chosen = new Set(v.choice === 'some' ? v.events : []);
  const boxes = names.map(
    (name) => html`<label class="check"><input type="checkbox" name="events" value="${name}"${checked(chosen.has(name))}> ${name}</label>`,
  );
  const push = place.scope.eventNames.has('push') ? radio('event_choice', 'push', v.choice, 'Just the push event.') : '';
  return html`<fieldset class="field hook-events"${p.attrs}><legend>Which events would you like to trigger this webhook?</legend>
${push}
${radio('event_choice', 'all', v.choice, 'Send me everything.')}
${radio('event_choice', 'some', v.choice, 'Let me select individual events.')}
<div class="event-list">${boxes}</div>${p.text}</fieldset>`;
}

export interface HookFormOptions {
  base: string;
  csrf: string;
  place: HooksPlace;
  values: HookFormValues;
  errors?: FormErrors;
  /** The hook being edited (its id and whether it has a secret), or none for a new one. */
  hook?: { id: number; hasSecret: boolean };
  /** Links above the form (the hook's tabs). */
  tabs?: Html;
  notice?: Html | '';
}

/** "Add webhook" (a new hook) or the hook's settings with "Update webhook" and "Delete webhook". */
export function hookFormPage(o: HookFormOptions): Html {
  const errors = o.errors ?? {};
  const v = o.values;
  const action = `${o.base}${o.place.home}${o.hook ? `/${o.hook.id}` : ''}`;
  const secretHint = o.hook?.hasSecret
    ? 'This hook has a secret. Leave this empty to keep it; a new one replaces it.'
    : 'Used to sign every payload (see Signature format). Leave empty for none.';
  const removeSecret = o.hook?.hasSecret
    ? html`<div class="field"><label class="check"><input type="checkbox" name="remove_secret" value="1"${checked(v.removeSecret)}> Remove the secret</label></div>`
    : '';
  const remove = o.hook ? html`<p class="danger-zone"><a class="button danger" href="${action}/delete">Delete webhook</a></p>` : '';
  return settingsPage({
    base: o.base,
    title: `${o.place.title} / ${o.hook ? 'Manage webhook' : 'Add webhook'}`,
    current: o.place.home,
    nav: o.place.nav,
    body: html`${o.tabs ?? ''}${o.notice ?? ''}${flash(errors[''])}
<p class="hint">We’ll send a POST request to the URL below with details of any subscribed events.</p>
<form class="form" method="post" action="${action}">
${tokenInput(o.csrf)}
${input({ label: 'Payload URL', name: 'url', type: 'url', value: v.url, required: true, autofocus: !o.hook, error: errors.url })}
${contentTypeField(v, errors)}
${input({ label: 'Secret', name: 'secret', type: 'password', autocomplete: 'new-password', hint: secretHint, error: errors.secret })}
${removeSecret}
${signatureFormatField(v, errors)}
${sslField(v, errors)}
${eventsField(o.place, v, errors)}
<div class="field"><label class="check"><input type="checkbox" name="active" value="1"${checked(v.active)}${problem(errors, 'active').attrs}> Active</label>
<p class="hint">We will deliver event details when this hook is triggered.</p>${problem(errors, 'active').text}</div>
<button type="submit" class="primary">${o.hook ? 'Update webhook' : 'Add webhook'}</button>
</form>
${remove}`,
  });
}
