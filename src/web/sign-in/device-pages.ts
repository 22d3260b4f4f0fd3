// The device flow's pages at /login/device: the code form ("Enter code", "Continue"), the authorization page naming
// the app, the code and the scopes ("Authorize", "Cancel"), and what the person sees once they decided.
import { flash, input, tokenInput } from '../forms.js';
import { html, type Html } from '../html.js';
import { page } from '../layout.js';
import { scopeItems } from './oauth-pages.js';

function devicePage(base: string, title: string, body: Html): Html {
  return page({ title: `${title} · hublet`, base, noindex: true, body: html`<div class="form-page">${body}</div>` });
}

export function deviceCodePage(o: { base: string; token: string; typed?: string; error?: string }): Html {
  return devicePage(
    o.base,
    'Device activation',
    html`<h1>Device activation</h1>
<p>Enter the code displayed on your device.</p>
${flash(o.error)}<form class="form" method="post" action="${o.base}/login/device">
${tokenInput(o.token)}
${input({ label: 'Enter code', name: 'user_code', value: o.typed ?? '', autocomplete: 'off', required: true, autofocus: true, hint: 'Eight letters, such as WDJB-MJHT.' })}
<button type="submit" class="primary">Continue</button>
</form>`,
  );
}

export interface DeviceAuthorizeOptions {
  base: string;
  token: string;
  login: string;
  appName: string;
  /** Who registered the app: a login, or none (built in, or made by a site admin). */
  appOwner: string | null;
  homepageUrl: string | null;
  userCode: string;
  scopes: readonly string[];
}

export function deviceAuthorizePage(o: DeviceAuthorizeOptions): Html {
  const by = o.appOwner ? html` by <strong>${o.appOwner}</strong>` : '';
  const homepage = o.homepageUrl ? html`<p class="meta">${o.homepageUrl}</p>` : '';
  return devicePage(
    o.base,
    `Authorize ${o.appName}`,
    html`<h1>Device activation</h1>
<p><strong>${o.appName}</strong>${by} wants to access your <strong>${o.login}</strong> account.</p>${homepage}
<p>Code: <span class="user-code">${o.userCode}</span></p>
<p>Check that it is the code your device shows.</p>
<ul class="scopes">${scopeItems(o.scopes)}</ul>
<form class="form" method="post" action="${o.base}/login/device/authorize">
${tokenInput(o.token)}<input type="hidden" name="user_code" value="${o.userCode}">
<button type="submit" name="authorize" value="1" class="primary">Authorize</button>
<button type="submit" name="authorize" value="0">Cancel</button>
</form>`,
  );
}

export function deviceDonePage(base: string, appName: string, approved: boolean): Html {
  return approved
    ? devicePage(
        base,
        'Device activated',
        html`<h1>Congratulations, you're all set!</h1><p>Your device is now connected to <strong>${appName}</strong>. You can close this window.</p>`,
      )
    : devicePage(
        base,
        'Authorization cancelled',
        html`<h1>Authorization cancelled</h1><p><strong>${appName}</strong> was not given access to your account. You can close this window.</p>`,
      );
}
