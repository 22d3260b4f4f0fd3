// The stylesheets, served as static files (/-/web.css for pages, /-/embed.css for embedded gists): our own small CSS,
// light and dark by prefers-color-scheme. The embed's rules are the file rules scoped under .hublet-embed, so they
// never touch the page that includes it.
import crypto from 'node:crypto';

const LIGHT = `
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --subtle: #f6f8fa; --link: #0969da;
  --add: #dafbe1; --del: #ffebe9; --hunk: #ddf4ff; --badge: #fff8c5;
  --k: #cf222e; --s: #0a3069; --t: #6639ba; --c: #59636e; --n: #0550ae; --b: #953800; --v: #116329;`;
const DARK = `
  --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d; --subtle: #151b23; --link: #4493f8;
  --add: #12361c; --del: #3d1214; --hunk: #0c2d6b; --badge: #272115;
  --k: #ff7b72; --s: #a5d6ff; --t: #d2a8ff; --c: #9198a1; --n: #79c0ff; --b: #ffa657; --v: #7ee787;`;

/** What a rendered file looks like (file box, code, Markdown, images, diffs), under a scope selector. */
function fileRules(scope: string): string {
  const rules = `
S .file { border: 1px solid var(--border); border-radius: 6px; margin: 0 0 16px; background: var(--bg); color: var(--fg); overflow: hidden; }
S .file-head { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; justify-content: space-between; padding: 8px 12px; background: var(--subtle); border-bottom: 1px solid var(--border); font-size: 14px; }
S .file-name { font-weight: 600; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; margin: 0; font-size: 14px; }
S .file-info { color: var(--muted); font-size: 12px; }
S .file-head a { color: var(--link); }
S .code { display: flex; overflow-x: auto; font: 12px/20px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
S .code pre { margin: 0; padding: 8px 12px; white-space: pre; tab-size: 4; }
S .lines { color: var(--muted); text-align: right; user-select: none; border-right: 1px solid var(--border); min-width: 2em; }
S .notice { padding: 16px; margin: 0; color: var(--muted); }
S .notice a { color: var(--link); text-decoration: underline; }
S .image { padding: 16px; text-align: center; }
S .image img { max-width: 100%; height: auto; }
S .markdown { padding: 16px 24px; overflow-wrap: break-word; line-height: 1.5; font-size: 15px; }
S .markdown a { color: var(--link); text-decoration: underline; }
S .markdown .align-left { text-align: left; }
S .markdown .align-center { text-align: center; }
S .markdown .align-right { text-align: right; }
S .markdown img { max-width: 100%; }
S .markdown pre { background: var(--subtle); padding: 12px; border-radius: 6px; overflow-x: auto; font-size: 12px; }
S .markdown code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
S .markdown :not(pre) > code { background: var(--subtle); padding: 0.1em 0.3em; border-radius: 4px; }
S .markdown table { border-collapse: collapse; display: block; overflow-x: auto; }
S .markdown th, S .markdown td { border: 1px solid var(--border); padding: 4px 12px; }
S .markdown blockquote { margin: 0; padding: 0 1em; color: var(--muted); border-left: 4px solid var(--border); }
S .markdown .task-list-item { list-style: none; }
S .markdown h1, S .markdown h2 { border-bottom: 1px solid var(--border); padding-bottom: 0.3em; }
S .diff { width: 100%; border-collapse: collapse; font: 12px/20px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
S .diff td { padding: 0 8px; white-space: pre-wrap; overflow-wrap: anywhere; vertical-align: top; }
S .diff .num { width: 1%; min-width: 3em; color: var(--muted); text-align: right; user-select: none; }
S .diff .add { background: var(--add); }
S .diff .del { background: var(--del); }
S .diff .hunk td { background: var(--hunk); color: var(--fg); }
S .hljs-keyword, S .hljs-meta .hljs-keyword, S .hljs-doctag, S .hljs-template-tag, S .hljs-template-variable, S .hljs-type, S .hljs-variable.language_ { color: var(--k); }
S .hljs-title, S .hljs-title.class_, S .hljs-title.function_ { color: var(--t); }
S .hljs-attr, S .hljs-attribute, S .hljs-literal, S .hljs-meta, S .hljs-number, S .hljs-operator, S .hljs-variable, S .hljs-selector-attr, S .hljs-selector-class, S .hljs-selector-id { color: var(--n); }
S .hljs-regexp, S .hljs-string, S .hljs-meta .hljs-string { color: var(--s); }
S .hljs-built_in, S .hljs-symbol { color: var(--b); }
S .hljs-comment, S .hljs-code, S .hljs-formula { color: var(--c); }
S .hljs-name, S .hljs-quote, S .hljs-selector-tag, S .hljs-selector-pseudo { color: var(--v); }
S .hljs-section { color: var(--n); font-weight: bold; }
S .hljs-bullet { color: var(--b); }
S .hljs-emphasis { font-style: italic; }
S .hljs-strong { font-weight: bold; }
S .hljs-addition { color: var(--v); background: var(--add); }
S .hljs-deletion { color: var(--k); background: var(--del); }
`;
  return rules.replaceAll('S ', `${scope} `);
}

const PAGE_CSS = `:root { color-scheme: light dark; ${LIGHT} }
@media (prefers-color-scheme: dark) { :root { ${DARK} } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; }
a { color: var(--link); text-decoration: none; }
a:hover, a:focus { text-decoration: underline; }
p a, .meta a, .description a { text-decoration: underline; }
.site { display: flex; gap: 16px; align-items: center; padding: 12px 24px; background: var(--subtle); border-bottom: 1px solid var(--border); }
.site .home { font-weight: 600; font-size: 16px; color: var(--fg); }
main { max-width: 1012px; margin: 0 auto; padding: 24px 16px 48px; }
h1 { font-size: 20px; font-weight: 400; margin: 0 0 4px; overflow-wrap: anywhere; }
h1 strong { font-weight: 600; }
h2 { font-size: 16px; margin: 24px 0 8px; }
.badge { display: inline-block; font-size: 12px; border: 1px solid var(--border); border-radius: 2em; padding: 0 8px; margin-left: 8px; vertical-align: middle; color: var(--fg); background: var(--badge); }
.description { margin: 4px 0 8px; overflow-wrap: anywhere; }
.meta { color: var(--muted); margin: 0 0 16px; font-size: 13px; }
.actions { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: end; margin: 0 0 24px; padding: 12px; border: 1px solid var(--border); border-radius: 6px; background: var(--subtle); }
.actions label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: 2px; }
.actions input { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; width: 22em; max-width: 100%; padding: 4px 6px; border: 1px solid var(--border); border-radius: 6px; background: var(--bg); color: var(--fg); }
.actions .links { display: flex; gap: 12px; flex-wrap: wrap; align-items: center; }
.list { list-style: none; margin: 0; padding: 0; }
.list li { border-bottom: 1px solid var(--border); padding: 12px 0; }
.list .files { color: var(--muted); font-size: 13px; overflow-wrap: anywhere; }
.pages { display: flex; gap: 16px; margin-top: 16px; }
.site-search input { font: inherit; width: 16em; max-width: 40vw; padding: 3px 8px; border: 1px solid var(--border); border-radius: 6px; background: var(--bg); color: var(--fg); }
.search-form { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 12px 0 16px; }
.search-form label { font-weight: 600; }
.search-form input, .search-form select { font: inherit; padding: 5px 8px; border: 1px solid var(--border); border-radius: 6px; background: var(--bg); color: var(--fg); }
.search-form input { flex: 1; min-width: 12em; }
.snippet { margin: 8px 0 0; border: 1px solid var(--border); border-radius: 6px; background: var(--subtle); overflow: hidden; }
.snippet figcaption { padding: 4px 8px; border-bottom: 1px solid var(--border); color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.snippet pre { margin: 0; padding: 6px 8px; font: 12px/20px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
mark { background: #fff8c5; color: var(--fg); font-weight: 600; border-radius: 2px; }
@media (prefers-color-scheme: dark) { mark { background: #6e5a00; } }
.search-help ul { padding-left: 20px; }
.revision { margin: 0 0 32px; }
.revision h2 { font-weight: 400; }
.empty { color: var(--muted); }
.muted { color: var(--muted); font-weight: 400; }
.facts { list-style: none; margin: 0 0 16px; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 16px; color: var(--muted); }
.topics { display: flex; flex-wrap: wrap; gap: 6px; list-style: none; margin: 0 0 12px; padding: 0; }
.topics li { font-size: 12px; border-radius: 2em; padding: 0 10px; background: var(--hunk); color: var(--fg); }
.tree { width: 100%; border-collapse: collapse; margin: 0 0 16px; border: 1px solid var(--border); }
.tree td { padding: 6px 12px; border-top: 1px solid var(--border); }
.crumbs { font-size: 16px; margin: 0 0 12px; overflow-wrap: anywhere; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.notice-bar { padding: 8px 12px; border: 1px solid var(--border); border-radius: 6px; background: var(--badge); }
.site nav { flex: 1; }
.viewer { display: flex; gap: 12px; align-items: center; }
.viewer form { margin: 0; }
.form-page { max-width: 420px; margin: 0 auto; }
.form-page.wide { max-width: 720px; }
.form .field { margin: 0 0 16px; display: flex; flex-direction: column; gap: 4px; }
.form label, .form legend { font-weight: 600; }
.form input[type=text], .form input[type=password], .form input[type=email], .form input[type=url], .form input[type=date], .form select, .form textarea { font: inherit; padding: 5px 8px; border: 1px solid var(--border); border-radius: 6px; background: var(--bg); color: var(--fg); }
.form fieldset { border: 1px solid var(--border); border-radius: 6px; margin: 0 0 16px; padding: 8px 12px; }
.form .check { display: flex; gap: 6px; align-items: baseline; font-weight: 400; }
.hint { margin: 0; color: var(--muted); font-size: 12px; }
.field-error { margin: 0; color: var(--k); font-size: 12px; }
.flash { padding: 8px 12px; border-radius: 6px; border: 1px solid var(--border); }
.flash-error { background: var(--del); }
.flash-notice { background: var(--add); }
button, .button { font: inherit; padding: 5px 16px; border: 1px solid var(--border); border-radius: 6px; background: var(--subtle); color: var(--fg); cursor: pointer; display: inline-block; }
button.primary { background: #1f883d; color: #ffffff; border-color: #1a7f37; }
button.danger { color: var(--k); }
.secret-value { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; padding: 8px 12px; border: 1px solid var(--border); border-radius: 6px; background: var(--add); overflow-wrap: anywhere; }
.user-code { font: 600 28px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; letter-spacing: 4px; }
.avatar { float: right; border-radius: 50%; border: 1px solid var(--border); }
.gist-actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 0 0 16px; }
.gist-actions form { margin: 0; display: inline; }
.counted { display: inline-flex; align-items: stretch; }
.counted > form > button, .counted > a.button { border-radius: 6px 0 0 6px; }
.counted .count { border: 1px solid var(--border); border-left: 0; border-radius: 0 6px 6px 0; padding: 5px 10px; font-weight: 600; }
.gist-editor { max-width: 1012px; }
.gist-file { display: flex; flex-direction: column; }
textarea.code-editor { font: 12px/20px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; tab-size: 4; width: 100%; resize: vertical; white-space: pre; }
.form-actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.comments { margin: 32px 0 0; }
.comment { border: 1px solid var(--border); border-radius: 6px; margin: 0 0 16px; }
.comment-head { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 8px 12px; background: var(--subtle); border-bottom: 1px solid var(--border); border-radius: 6px 6px 0 0; color: var(--muted); }
.comment-head strong { color: var(--fg); }
.comment-avatar, .menu-avatar { border-radius: 50%; vertical-align: middle; }
.comment-actions { margin-left: auto; display: flex; gap: 12px; }
.comment-body { padding: 8px 16px; }
.comment-form textarea { width: 100%; resize: vertical; }
.menu { position: relative; }
.menu summary { cursor: pointer; display: flex; gap: 6px; align-items: center; }
.menu-items { position: absolute; right: 0; z-index: 10; min-width: 200px; display: flex; flex-direction: column; gap: 2px; padding: 8px 0; margin-top: 4px; background: var(--bg); border: 1px solid var(--border); border-radius: 6px; }
.menu-items a, .menu-items button { padding: 4px 16px; text-align: left; border: 0; background: none; color: var(--fg); border-radius: 0; width: 100%; }
.menu-items a:hover, .menu-items a:focus, .menu-items button:hover, .menu-items button:focus { background: var(--subtle); }
button.copy { font-size: 12px; padding: 2px 8px; margin-top: 2px; }
footer { max-width: 1012px; margin: 0 auto; padding: 16px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--border); }
.settings-nav { display: flex; flex-wrap: wrap; gap: 16px; margin: 0 0 16px; border-bottom: 1px solid var(--border); padding: 0 0 8px; }
.settings-nav a[aria-current=page] { font-weight: 600; }
.bio { white-space: pre-line; overflow-wrap: anywhere; }
.avatar, .avatar-preview { object-fit: cover; background: var(--subtle); }
.avatar-preview { border-radius: 50%; border: 1px solid var(--border); flex: none; }
.picture-settings { display: flex; flex-wrap: wrap; gap: 16px 24px; align-items: flex-start; margin: 0 0 24px; }
.picture-settings input[type=file] { font: inherit; color: var(--fg); }
.picture-remove { display: flex; gap: 8px; align-items: baseline; margin: 8px 0 0; }
.token-actions { display: flex; flex-wrap: wrap; gap: 8px; }
.list.tokens form { margin: 6px 0 0; }
.token-expiry.expired { color: var(--k); }
.hook-events .event-list { display: grid; grid-template-columns: repeat(auto-fill, minmax(210px, 1fr)); gap: 2px 12px; margin: 8px 0 0 24px; font-size: 13px; overflow-wrap: anywhere; }
.hook-events:has(input[name=event_choice][value=push]:checked) .event-list, .hook-events:has(input[name=event_choice][value=all]:checked) .event-list { display: none; }
.hook-tabs, .delivery-filter { display: flex; gap: 16px; margin: 0 0 16px; }
.hook-tabs a[aria-current=page], .delivery-filter a[aria-current=page] { font-weight: 600; color: var(--fg); }
.hook-url code, .list.hooks code { overflow-wrap: anywhere; }
.hook-actions { display: flex; gap: 16px; font-size: 13px; }
a.button.danger { color: var(--k); }
.delivery-state.ok { color: var(--v); }
.delivery-state.failed { color: var(--k); }
.delivery-tools { display: flex; flex-wrap: wrap; gap: 16px; align-items: center; justify-content: space-between; }
.delivery-tools form, .danger-zone { margin: 0 0 16px; }
.table-scroll { overflow-x: auto; margin: 0 0 16px; }
.deliveries, .headers, .migrations, .audit-log { width: 100%; border-collapse: collapse; font-size: 13px; }
.deliveries th, .deliveries td, .headers th, .headers td, .migrations th, .migrations td, .audit-log th, .audit-log td { text-align: left; vertical-align: top; padding: 6px 8px; border-top: 1px solid var(--border); }
.audit-fields { display: grid; grid-template-columns: max-content 1fr; gap: 2px 8px; margin: 4px 0 0; }
.audit-fields dd { margin: 0; overflow-wrap: anywhere; }
.headers th { font-weight: 600; white-space: nowrap; }
.headers td { overflow-wrap: anywhere; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.deliveries td code, .deliveries time { white-space: nowrap; font-size: 12px; }
pre.payload { background: var(--subtle); color: var(--fg); border: 1px solid var(--border); border-radius: 6px; padding: 12px; overflow: auto; max-height: 32em; font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
.inline-form { border-top: 1px solid var(--border); padding-top: 16px; }
.inline-form input[type=datetime-local] { font: inherit; padding: 5px 8px; border: 1px solid var(--border); border-radius: 6px; background: var(--bg); color: var(--fg); max-width: 16em; }
ul.plain { list-style: none; margin: 0; padding: 0; }
.state { font-weight: 600; }
.state-failed { color: var(--k); }
.state-exported { color: var(--v); }
${fileRules('')}`;

const EMBED_CSS = `.hublet-embed { ${LIGHT} color-scheme: light; font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0 0 16px; }
@media (prefers-color-scheme: dark) { .hublet-embed { ${DARK} color-scheme: dark; } }
.hublet-embed a { color: var(--link); }
.hublet-embed .embed-meta { font-size: 12px; color: var(--muted); padding: 4px 0; }
${fileRules('.hublet-embed')}`;

/** A stylesheet with the version that names it (its bytes' hash), so pages can link it for a long cache life. */
export interface Stylesheet {
  body: Buffer;
  version: string;
}

function sheet(css: string): Stylesheet {
  const body = Buffer.from(css);
  return { body, version: crypto.hash('sha256', body, 'hex').slice(0, 12) };
}

export const pageStylesheet: Stylesheet = sheet(PAGE_CSS);
export const embedStylesheet: Stylesheet = sheet(EMBED_CSS);
