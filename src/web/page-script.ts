// The pages' one script of our own (`/-/web.js`, under the CSP's script-src 'self'; no framework): niceties only, every
// form works without it. Tab in a gist's file editor types a tab (Escape first, then Tab, leaves the editor, so the
// keyboard is never trapped), and each read-only field (clone URL, embed code) gets a "Copy" button.
import crypto from 'node:crypto';

const SCRIPT = `'use strict';
(function () {
  var released = null;
  document.addEventListener('keydown', function (e) {
    var t = e.target;
    if (!t || t.tagName !== 'TEXTAREA' || !t.classList.contains('code-editor')) return;
    if (e.key === 'Escape') { released = t; return; }
    if (e.key !== 'Tab' || e.shiftKey || e.ctrlKey || e.altKey || e.metaKey || released === t) { released = null; return; }
    e.preventDefault();
    var start = t.selectionStart, end = t.selectionEnd;
    t.setRangeText('\\t', start, end, 'end');
    t.dispatchEvent(new Event('input', { bubbles: true }));
  });
  document.querySelectorAll('input[readonly][data-copy]').forEach(function (input) {
    if (!navigator.clipboard) return;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy ' + input.getAttribute('data-copy'));
    button.addEventListener('click', function () {
      navigator.clipboard.writeText(input.value).then(function () {
        button.textContent = 'Copied';
        setTimeout(function () { button.textContent = 'Copy'; }, 2000);
      }, function () { input.select(); });
    });
    input.insertAdjacentElement('afterend', button);
  });
})();
`;

/** The script and its version (its bytes' hash), so pages can link it for a long cache life. */
export const pageScript = (() => {
  const body = Buffer.from(SCRIPT);
  return { body, version: crypto.hash('sha256', body, 'hex').slice(0, 12) };
})();
