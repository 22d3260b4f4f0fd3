// The new-gist page (`/gist/new`) and a gist's edit page (`/gist/<id>/edit`), in GitHub's words: "Gist description…",
// "Filename including extension…", "Add file", "Create secret gist" / "Create public gist", "Update secret gist" /
// "Update public gist". Everything works without JavaScript ("Add file" is a round trip keeping what was typed); each
// refusal sits under the field it concerns and is announced with it (aria-describedby).
import { html, type Html } from '../html.js';
import { FORM_TOKEN_SLOT, page } from '../layout.js';
import { flash } from '../forms.js';
import type { FileEntry, GistForm, GistFormErrors } from './gist-form.js';

export interface EditedGist {
  id: string;
  owner: string;
  title: string;
  public: boolean;
  /** Files the form cannot edit (binary): kept as they are. */
  binaryFiles: string[];
}

export interface GistFormPageData {
  base: string;
  /** Absent on the new-gist page. */
  gist?: EditedGist;
  form: GistForm;
  errors: GistFormErrors;
}

/** The error under a field and the attributes that tie it to the field. */
function problem(id: string, message: string | undefined): { attrs: Html | ''; note: Html | '' } {
  if (!message) return { attrs: '', note: '' };
  return {
    attrs: html` aria-invalid="true" aria-describedby="${id}-error"`,
    note: html`<p class="field-error" id="${id}-error">${message}</p>`,
  };
}

function fileBox(f: FileEntry, i: number, errors: GistFormErrors): Html {
  const nameId = `file-name-${i}`;
  const contentId = `file-content-${i}`;
  const name = problem(nameId, errors.names.get(i));
  const content = problem(contentId, errors.contents.get(i));
  const removal = f.original === '' ? 'Remove file' : 'Delete this file';
  // A textarea drops one line break right after its start tag: one is written there, so content starting with one keeps it.
  return html`<fieldset class="gist-file">
<legend class="visually-hidden">File ${i + 1}</legend>
<input type="hidden" name="file_original" value="${f.original}">
<div class="field"><label for="${nameId}">Filename including extension</label>
<input id="${nameId}" name="file_name" type="text" value="${f.name}" placeholder="Filename including extension…" autocomplete="off" spellcheck="false"${name.attrs}>${name.note}</div>
<div class="field"><label for="${contentId}">File contents</label>
<textarea id="${contentId}" name="file_content" rows="14" class="code-editor" spellcheck="false" autocomplete="off"${content.attrs}>
${f.content}</textarea>${content.note}</div>
<label class="check"><input type="checkbox" name="remove_file" value="${i}"${f.removed ? html` checked` : ''}> ${removal}</label>
</fieldset>`;
}

export function gistFormPage(d: GistFormPageData): Html {
  const { gist, form, errors } = d;
  const description = problem('gist-description', errors.description);
  const action = gist ? `${d.base}/gist/${gist.id}` : `${d.base}/gist`;
  const buttons = gist
    ? html`<button type="submit" class="primary" name="save" value="1">${gist.public ? 'Update public gist' : 'Update secret gist'}</button>
<a class="button" href="${d.base}/gist/${gist.id}">Cancel</a>`
    : html`<button type="submit" class="primary" name="visibility" value="secret">Create secret gist</button>
<button type="submit" name="visibility" value="public">Create public gist</button>`;
  const binary = gist?.binaryFiles.length
    ? html`<p class="hint">Kept as they are (binary files are changed with <code>git push</code>): ${gist.binaryFiles.join(', ')}.</p>`
    : '';
  const filesError = errors.files ? html`<p class="field-error" id="files-error" role="alert">${errors.files}</p>` : '';
  const body = html`<div class="form-page gist-editor">
<h1>${gist ? html`Editing <a href="${d.base}/gist/${gist.id}">${gist.owner} / ${gist.title}</a>` : 'New gist'}</h1>
${flash(errors.description || errors.files || errors.names.size || errors.contents.size ? 'The gist was not saved: see the problems below.' : '')}
<form class="form" method="post" action="${action}" novalidate>${FORM_TOKEN_SLOT}
<div class="field"><label for="gist-description">Gist description</label>
<input id="gist-description" name="description" type="text" value="${form.description}" placeholder="Gist description…" autocomplete="off"${description.attrs}>${description.note}</div>
${filesError}${form.files.map((f, i) => fileBox(f, i, errors))}${binary}
<div class="form-actions">${buttons}
<button type="submit" name="add_file" value="1">Add file</button></div>
</form></div>`;
  return page({
    title: gist ? `Editing ${gist.owner}/${gist.title} · hublet gist` : 'New gist · hublet',
    base: d.base,
    noindex: true,
    body,
  });
}

/** A question before something that cannot be undone (deleting a gist or a comment), answered by a POST. */
export function confirmPage(o: { base: string; title: string; question: string; action: string; button: string; cancel: string }): Html {
  const body = html`<div class="form-page">
<h1>${o.title}</h1>
<p>${o.question}</p>
<form class="form" method="post" action="${o.action}">${FORM_TOKEN_SLOT}
<div class="form-actions"><button type="submit" class="danger">${o.button}</button> <a class="button" href="${o.cancel}">Cancel</a></div>
</form></div>`;
  return page({ title: `${o.title} · hublet`, base: o.base, noindex: true, body });
}
