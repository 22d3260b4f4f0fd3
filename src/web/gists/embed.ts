// The embed script (`/gist/<id>.js`, GitHub's `<script src=…>` snippet): it writes the rendered gist, or one file of it
// (`?file=NAME`), into the page that includes it, with a link to its own stylesheet, whose rules stay inside the box.
import type { SingleGist } from '../../gists/present.js';
import type { Urls } from '../../core/urls.js';
import { html } from '../html.js';
import { gistLinks } from '../links.js';
import type { ImageLinks } from '../markdown.js';
import { shownFiles } from './gist-page.js';
import { renderFile } from '../render-file.js';
import { embedStylesheet } from '../styles.js';

/** The script's text, or null when `file` names no file of the gist. */
export function embedScript(view: SingleGist, urls: Urls, file: string | undefined, images: ImageLinks): string | null {
  const links = gistLinks(urls, view.owner.login, view.gist.id);
  const all = shownFiles(view, links);
  const files = file === undefined ? all : all.filter((f) => f.filename === file);
  if (!files.length && file !== undefined) return null;
  const stylesheet = html`<link rel="stylesheet" href="${urls.base}/-/embed.css?v=${embedStylesheet.version}">`;
  const box = html`<div class="hublet-embed">
${files.map((f) => renderFile(f, all, images, 3))}<div class="embed-meta"><a href="${links.page}">${view.owner.login}/${all[0]?.filename ?? view.gist.id}</a>, hosted with hublet</div>
</div>`;
  // JSON string literals are valid JavaScript strings; `<` is escaped so no `</script>` or `<!--` can appear in the text.
  const literal = (s: string) =>
    JSON.stringify(s)
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029');
  return `document.write(${literal(stylesheet.text)});\ndocument.write(${literal(box.text)});\n`;
}
