// What every form of the site is made of: the page around it, its hidden authenticity token, labelled fields that keep
// what the person typed and show the error next to them, a service's refusals placed under those fields, and reading a
// submitted field (a repeated one counts as its last value; anything else a string or nothing).
import type { FieldError } from '../core/errors.js';
import { CSRF_FIELD } from './csrf.js';
import { html, type Html } from './html.js';

/** A submitted form (application/x-www-form-urlencoded, parsed by @fastify/formbody). */
export type FormBody = Record<string, string | string[] | undefined> | undefined;

/** The schema of every posted form: fields of strings (a repeated one: several); what each means, its route reads. */
export const formSchema = {
  body: { type: 'object', additionalProperties: { type: ['string', 'array'], items: { type: 'string' } } },
} as const;

/** A field of a submitted form as one string ('' when absent). */
export function field(body: FormBody, name: string): string {
  const value = body?.[name];
  if (Array.isArray(value)) return value.at(-1) ?? '';
  return typeof value === 'string' ? value : '';
}

/** Every value of a repeated field (checkboxes). */
export function fieldValues(body: FormBody, name: string): string[] {
  const value = body?.[name];
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

/** The hidden authenticity token every state-changing form carries (csrf.ts). */
export function tokenInput(token: string): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
}

export interface InputOptions {
  label: string;
  name: string;
  type?: 'text' | 'password' | 'email' | 'url' | 'date';
  value?: string;
  autocomplete?: string;
  required?: boolean;
  autofocus?: boolean;
  /** What is wrong with the submitted value, shown under the field and tied to it for screen readers. */
  error?: string | null;
  hint?: string;
}

/** A labelled input; its error (if any) below it, announced with it (aria-describedby). */
export function input(o: InputOptions): Html {
  const id = `field-${o.name}`;
  const described = [o.hint ? `${id}-hint` : '', o.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
<label for="${id}">${o.label}</label>
<input id="${id}" name="${o.name}" type="${o.type ?? 'text'}"${o.value !== undefined && o.type !== 'password' ? html` value="${o.value}"` : ''}${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ''}${o.required ? html` required` : ''}${o.autofocus ? html` autofocus` : ''}${o.error ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}>
${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}${o.error ? html`<p class="field-error" id="${id}-error">${o.error}</p>` : ''}
</div>`;
}

/** A message above a form (a refused sign-in, a saved change). */
export function flash(message: string | null | undefined, kind: 'error' | 'notice' = 'error'): Html | '' {
  if (!message) return '';
  return html`<p class="flash flash-${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${message}</p>`;
}

/** What a form shows next to each of its fields (by the field's name; '' above the form), one message each. */
export type FormErrors = Record<string, string>;

/** Where a service's field goes on a form, and the label that starts a message the service began with the field's name. */
export type FieldLabels = Record<string, { field: string; label: string }>;

/**
 * The problems a service reported (a 422's errors), each under its form field and worded with its label ("note can't
 * be blank" under Note: "Note can't be blank"); a field the form does not have goes above the form.
 */
export function formErrors(errors: readonly FieldError[], labels: FieldLabels): FormErrors {
  const out: FormErrors = {};
  for (const e of errors) {
    const name = e.field ?? '';
    const target = labels[name];
    const message = e.message ?? `${name} is invalid`;
    const worded = target && name && message.startsWith(name) ? target.label + message.slice(name.length) : message;
    const key = target?.field ?? '';
    out[key] = out[key] ? `${out[key]}; ${worded}` : worded;
  }
  return out;
}
