// The "Public profile" settings page (/settings/profile) in GitHub's words: "Profile picture" with "Upload new picture"
// (a multipart form that needs no JavaScript) and "Remove", then "Name", "Public email", "Bio", "URL", "Company",
// "Location" and "Update profile"; what was typed kept and every problem under its field after a refusal.
import type { UserRow } from '../../db/schema.js';
import { field, flash, input, tokenInput, type FormBody, type FormErrors } from '../forms.js';
import { html, type Html } from '../html.js';
import { settingsPage } from './settings-layout.js';
import { PICTURE_FIELD } from './avatar-upload.js';

export interface ProfileSettingsOptions {
  base: string;
  csrf: string;
  user: UserRow;
  /** The uploaded picture's SHA-256, or null (the identicon shows). */
  picture: string | null;
  /** The profile form as posted (a refused update), else the stored profile is shown. */
  submitted?: FormBody;
  errors?: FormErrors;
  /** The change just made (after the redirect). */
  notice?: string;
}

/** The ids a field's hint and error have, for aria-describedby (as forms.ts's `input` names them). */
function describedBy(name: string, hint: boolean, error: string | undefined): Html | '' {
  const ids = [hint ? `field-${name}-hint` : '', error ? `field-${name}-error` : ''].filter(Boolean).join(' ');
  return ids ? html` aria-describedby="${ids}"` : '';
}

function below(name: string, hint: string, error: string | undefined): Html {
  return html`<p class="hint" id="field-${name}-hint">${hint}</p>${error ? html`<p class="field-error" id="field-${name}-error">${error}</p>` : ''}`;
}

/** The bio: several lines, so a textarea (a line break after its tag, which HTML drops), labelled and described as `input` does. */
function bioField(value: string, error: string | undefined): Html {
  return html`<div class="field">
<label for="field-bio">Bio</label>
<textarea id="field-bio" name="bio" rows="3"${error ? html` aria-invalid="true"` : ''}${describedBy('bio', true, error)}>
${value}</textarea>
${below('bio', 'Tell us a little bit about yourself, in at most 160 characters.', error)}
</div>`;
}

function pictureSection(o: ProfileSettingsOptions, errors: FormErrors): Html {
  const version = o.picture ? `&v=${o.picture.slice(0, 16)}` : '';
  const error = errors[PICTURE_FIELD];
  const remove = o.picture
    ? html`<form class="form picture-remove" method="post" action="${o.base}/settings/profile/avatar/delete">${tokenInput(o.csrf)}
<button type="submit" class="danger">Remove</button> <span class="hint">Your identicon shows again.</span></form>`
    : '';
  return html`<h2>Profile picture</h2>
<div class="picture-settings"><img class="avatar-preview" src="${o.base}/avatars/${o.user.login}?s=200${version}" alt="Your profile picture" width="200" height="200">
<div><form class="form" method="post" action="${o.base}/settings/profile/avatar" enctype="multipart/form-data">
${tokenInput(o.csrf)}
<div class="field">
<label for="field-${PICTURE_FIELD}">Upload new picture</label>
<input id="field-${PICTURE_FIELD}" name="${PICTURE_FIELD}" type="file" accept="image/png,image/jpeg,image/gif,image/webp" required${error ? html` aria-invalid="true"` : ''}${describedBy(PICTURE_FIELD, true, error)}>
${below(PICTURE_FIELD, 'A PNG, JPEG, GIF or WebP picture of at most 1 MB, shown as it is (browsers scale it).', error)}
</div>
<button type="submit">Upload new picture</button>
</form>
${remove}</div></div>`;
}

export function profileSettingsPage(o: ProfileSettingsOptions): Html {
  const errors = o.errors ?? {};
  const u = o.user;
  const value = (name: string, stored: string | null) => (o.submitted ? field(o.submitted, name) : (stored ?? ''));
  const text = (label: string, name: string, stored: string | null, hint: string, extra: { type?: 'email'; autocomplete?: string } = {}) =>
    input({ label, name, value: value(name, stored), hint, error: errors[name], ...extra });
  return settingsPage({
    base: o.base,
    title: 'Public profile',
    current: '/settings/profile',
    body: html`${flash(o.notice, 'notice')}${flash(errors[''])}${pictureSection(o, errors)}
<h2>Profile</h2>
<form class="form" method="post" action="${o.base}/settings/profile">
${tokenInput(o.csrf)}
${text('Name', 'name', u.name, 'Your name may appear where you contribute or are mentioned. You can remove it at any time.', { autocomplete: 'name' })}
${text('Public email', 'email', u.email, 'Shown on your profile and in the API. It is also the address you can sign in with; leave it empty to show none.', { type: 'email', autocomplete: 'email' })}
${bioField(value('bio', u.bio), errors.bio)}
${text('URL', 'blog', u.blog, 'Your website or blog.', { autocomplete: 'url' })}
${text('Company', 'company', u.company, 'Where you work.', { autocomplete: 'organization' })}
${text('Location', 'location', u.location, 'Where you are.')}
<p class="hint">Everything here is public: anyone can see it on your profile and through the API.</p>
<button type="submit" class="primary">Update profile</button>
</form>
<p>Your password is under <a href="${o.base}/settings/security">Password and authentication</a>.</p>`,
  });
}
