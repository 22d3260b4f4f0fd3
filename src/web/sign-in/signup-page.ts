// The sign-up page of /signup, in GitHub's words: "Username", "Email address", "Password" and "Create account" (with
// the invitation carried along when sign-up needs one); and the page saying an invitation is needed.
import { field, flash, input, tokenInput, type FormBody, type FormErrors } from '../forms.js';
import { html, type Html } from '../html.js';
import { page } from '../layout.js';

export interface SignupPageOptions {
  base: string;
  csrf: string;
  /** The invitation token of the link followed ('' when sign-up is open). */
  invitation: string;
  submitted?: FormBody;
  errors?: FormErrors;
  /** A refusal above the form (too many sign-ups). */
  error?: string;
}

export function signupPage(o: SignupPageOptions): Html {
  const errors = o.errors ?? {};
  const invitation = o.invitation ? html`<input type="hidden" name="invitation" value="${o.invitation}">` : '';
  return page({
    title: 'Sign up · hublet',
    base: o.base,
    noindex: true,
    body: html`<div class="form-page"><h1>Create your account</h1>
${flash(o.error)}${flash(errors[''])}<form class="form" method="post" action="${o.base}/signup">
${tokenInput(o.csrf)}${invitation}
${input({ label: 'Username', name: 'login', value: field(o.submitted, 'login'), autocomplete: 'username', required: true, autofocus: true, error: errors.login, hint: 'Letters, digits and single hyphens; at most 39 characters.' })}
${input({ label: 'Email address', name: 'email', type: 'email', value: field(o.submitted, 'email'), autocomplete: 'email', required: true, error: errors.email })}
${input({ label: 'Password', name: 'password', type: 'password', autocomplete: 'new-password', required: true, error: errors.password, hint: 'At least 15 characters, not one of the most common passwords.' })}
<button type="submit" class="primary">Create account</button>
</form>
<p class="meta">Already have an account? <a href="${o.base}/login">Sign in</a>.</p></div>`,
  });
}

/** Sign-up needs an invitation, and this request has no good one. */
export function invitationNeededPage(base: string, message: string): Html {
  return page({
    title: 'An invitation is needed · hublet',
    base,
    noindex: true,
    body: html`<div class="form-page"><h1>An invitation is needed</h1><p>${message}</p>
<p class="meta">Already have an account? <a href="${base}/login">Sign in</a>.</p></div>`,
  });
}
