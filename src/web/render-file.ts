// One gist file as markup: Markdown rendered (GFM, sanitized; its images by markdown.ts's rule), code highlighted by its
// language, images shown (inline as data: URLs, which the pages' CSP allows), binary and very large files as a notice.
import { isBinary } from '../gists/reads.js';
import { grammarFor, highlightCode } from './highlight.js';
import { html, type Html } from './html.js';
import { renderMarkdown, type ImageLinks } from './markdown.js';

/** Text past this is cut (the raw URL serves all of it). */
const TEXT_LIMIT_BYTES = 512 * 1024;
/** Images up to this size are shown inline; larger ones are linked. */
const IMAGE_LIMIT_BYTES = 1024 * 1024;

export interface ShownFile {
  filename: string;
  size: number;
  language: string | null;
  content: Buffer;
  /** Where the file's bytes are served (the API's raw_url). */
  rawUrl: string;
}

const IMAGE_TYPES: [RegExp, string, (b: Buffer) => boolean][] = [
  [/\.png$/i, 'image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  [/\.jpe?g$/i, 'image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  [/\.gif$/i, 'image/gif', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  [/\.webp$/i, 'image/webp', (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'],
  [/\.svg$/i, 'image/svg+xml', (b) => /<svg[\s>]/i.test(b.subarray(0, 4096).toString('utf8'))],
];

/** The image type of a file whose name and first bytes agree on one (an SVG shown as an image runs no script). */
function imageType(filename: string, content: Buffer): string | null {
  for (const [name, type, magic] of IMAGE_TYPES) if (name.test(filename) && magic(content)) return type;
  return null;
}

function isMarkdown(f: ShownFile): boolean {
  return f.language === 'Markdown' || /\.(md|markdown|mdown|mkdn|mkd)$/i.test(f.filename);
}

/** The first `limit` bytes as text, ending at a line break when there is one (never inside a character). */
function textPrefix(content: Buffer, limit: number): string {
  if (content.length <= limit) return content.toString('utf8');
  let end = limit;
  while (end > 0 && (content[end] & 0xc0) === 0x80) end--;
  const lineEnd = content.lastIndexOf(0x0a, end - 1);
  return content.subarray(0, lineEnd > 0 ? lineEnd + 1 : end).toString('utf8');
}

function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} Bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function dataUrl(type: string, content: Buffer): string {
  return `data:${type};base64,${content.toString('base64')}`;
}

/** Text with line numbers beside it (a final line break ends the last line; it starts no new one). */
function codeBlock(text: string, grammar: string | undefined): Html {
  const shown = text.endsWith('\n') ? text.slice(0, -1) : text;
  const numbers = Array.from({ length: shown.split('\n').length }, (_, i) => i + 1).join('\n');
  return html`<div class="code"><pre class="lines" aria-hidden="true">${numbers}</pre><pre><code class="hljs">${highlightCode(shown, grammar)}</code></pre></div>`;
}

/** Images a Markdown file names that are other files of the same gist (by relative path or raw_url), as data: URLs. */
function siblingImages(files: readonly ShownFile[]): (src: string) => string | null {
  return (src) => {
    const name = decodeURIComponentSafe(src.replace(/^\.\//, ''));
    const file = files.find((f) => f.filename === name || f.rawUrl === src);
    if (!file || file.size > IMAGE_LIMIT_BYTES) return null;
    const type = imageType(file.filename, file.content);
    return type ? dataUrl(type, file.content) : null;
  };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The body of a file's box (without its header). */
function fileBody(f: ShownFile, siblings: readonly ShownFile[], images: ImageLinks): Html {
  const raw = html`<a href="${f.rawUrl}">view the raw file</a>`;
  const type = imageType(f.filename, f.content);
  if (type) {
    if (f.size > IMAGE_LIMIT_BYTES) return html`<p class="notice">This image is too large to show here: ${raw}.</p>`;
    return html`<div class="image"><img src="${dataUrl(type, f.content)}" alt="${f.filename}"></div>`;
  }
  if (isBinary(f.content)) return html`<p class="notice">Binary file not shown: ${raw}.</p>`;
  const cut = f.content.length > TEXT_LIMIT_BYTES;
  const text = textPrefix(f.content, TEXT_LIMIT_BYTES);
  const notice = cut ? html`<p class="notice">This file is ${humanSize(f.size)}; only its beginning is shown: ${raw}.</p>` : '';
  if (isMarkdown(f) && !cut)
    return html`<div class="markdown">${renderMarkdown(text, { own: siblingImages(siblings), links: images })}</div>`;
  return html`${notice}${codeBlock(text, grammarFor(f.language, f.filename))}`;
}

/** An anchor for a file: its name in lowercase letters, digits and dashes (GitHub's `#file-readme-md`). */
function fileAnchor(filename: string): string {
  return `file-${filename
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;
}

/** A file's box: its name, language and size, a raw link, and its rendered content (Markdown images by `images`). */
export function renderFile(f: ShownFile, siblings: readonly ShownFile[], images: ImageLinks, headingLevel: 2 | 3 = 2): Html {
  const info = [f.language, humanSize(f.size)].filter(Boolean).join(' · ');
  const name = headingLevel === 2 ? html`<h2 class="file-name">${f.filename}</h2>` : html`<h3 class="file-name">${f.filename}</h3>`;
  return html`<section class="file" id="${fileAnchor(f.filename)}" aria-label="${f.filename}">
<div class="file-head">${name}<span class="file-info">${info}</span><a href="${f.rawUrl}">Raw</a></div>
${fileBody(f, siblings, images)}
</section>
`;
}
