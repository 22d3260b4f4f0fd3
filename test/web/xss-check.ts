// What "nothing ran" means for a page showing XSS payloads, in Debian's Chromium: the `window.__xss` flag that every
// payload (FLAG) would set stays unset, no dialog opened, the page logged no problem, and the sanitizer left no script
// of a user's, no handler, `javascript:` URL, style, frame or form of a user's, nothing positioned over the page.
import { expect } from 'vitest';
import type { Visit } from './browser.js';

/** The payloads' body: sets the flag and opens a dialog, naming where it came from. */
export const FLAG = (where: string) => `window.__xss='${where}';alert('${where}')`;

/** Everything that would show a payload got through, on the page as the browser built it. */
export async function expectNothingRan(v: Visit, allowedScripts = 0): Promise<void> {
  const { page } = v;
  // Let any timer, image error or toggle event fire first.
  await page.mouse.move(200, 300);
  await page.waitForTimeout(100);
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  expect(v.dialogs).toEqual([]);
  expect(v.problems).toEqual([]);
  const found = await page.evaluate(() => {
    const all = [...document.querySelectorAll('*')];
    return {
      // The page's own script (/-/web.js) is the one script a page has; an embedding page has hublet's embed script.
      scripts: document.querySelectorAll('script:not([src*="/-/web.js"])').length,
      handlers: all.flatMap((el) => [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => `${el.tagName} ${a.name}`)),
      javascriptUrls: all.flatMap((el) =>
        [...el.attributes].filter((a) => /^\s*javascript:/i.test(a.value)).map((a) => `${el.tagName} ${a.name}`),
      ),
      styled: all.filter((el) => el.hasAttribute('style')).map((el) => el.tagName),
      // Forms are the site's own (search, star, comment); none may come from what a user wrote.
      frames:
        document.querySelectorAll('iframe, object, embed, base, meta[http-equiv], style').length +
        document.querySelectorAll(':is(.markdown, .file, .description, .comment-body, .file-name, .list) form').length,
      fixed: all
        .filter(
          (el) =>
            ['fixed', 'absolute', 'sticky'].includes(getComputedStyle(el).position) &&
            !el.classList.contains('visually-hidden') &&
            !el.classList.contains('menu-items'),
        )
        .map((el) => el.tagName),
      hidden: getComputedStyle(document.body).display === 'none',
    };
  });
  expect(found).toEqual({ scripts: allowedScripts, handlers: [], javascriptUrls: [], styled: [], frames: 0, fixed: [], hidden: false });
}
