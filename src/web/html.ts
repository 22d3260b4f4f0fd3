// HTML templating for the web pages: the `html` tagged template escapes every interpolated value unless it is already
// Html (a fragment built by `html` itself, or the output of the sanitizer or highlighter marked with `trustedHtml`).

/** A fragment of markup that is safe to place in a page as it is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Markup that a maintained library produced or checked (sanitize-html, highlight.js): placed as it is. */
export function trustedHtml(text: string): Html {
  return new Html(text);
}

function fragment(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(fragment).join('');
  return escapeHtml(String(value));
}

/** A template whose values are escaped (Html values and arrays of them are placed as they are). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += fragment(values[i]) + strings[i + 1];
  return new Html(out);
}
