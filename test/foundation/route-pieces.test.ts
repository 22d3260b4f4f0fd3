// The shared route pieces stay shared (docs/design.md, "Shared route pieces"): page-numbered lists go through
// pagedList, path parameters come from http/route-params.ts, the web pages register through typed() with schemas.
// A source check, like the dependency rules: it reads src/, it runs nothing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../../src');
const files = (fs.readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => path.join('src', f));
const text = (f: string) => fs.readFileSync(path.resolve(src, '..', f), 'utf8');
const routeFiles = files.filter((f) => /routes\.ts$/.test(f));

describe('shared route pieces', () => {
  it('route files read page numbers only through pagedList (`since` and cursor lists read per_page alone)', () => {
    expect(routeFiles.length).toBeGreaterThan(15);
    const offenders = routeFiles.filter((f) => /setPageLinks|parsePaging\(request\.query\)\s*;\s*\n[^\n]*\boffset\b/.test(text(f)));
    expect(offenders).toEqual([]);
    expect(files.filter((f) => !f.endsWith('pagination.ts') && /\bsetPageLinks\b/.test(text(f)))).toEqual([]);
  });

  it('path parameters are declared once, in http/route-params.ts', () => {
    // An object schema whose properties are all path parameters, each a string: a params schema written by hand.
    const name = '(?:username|org|owner|repo|gist_id|hook_id|delivery_id|migration_id|comment_id|sha|filename)';
    const local = new RegExp(`properties: \\{ ${name}: \\{ type: 'string' \\}(?:, ${name}: \\{ type: 'string' \\})* \\}`);
    expect(files.filter((f) => f !== path.join('src', 'http', 'route-params.ts') && local.test(text(f)))).toEqual([]);
  });

  it('every web page family is a folder whose routes register through typed() with a schema per route, none over 300 lines', () => {
    const families = files.filter((f) => f.startsWith(path.join('src', 'web')) && f.endsWith('-routes.ts'));
    expect(families.length).toBeGreaterThanOrEqual(4);
    for (const f of families) {
      const t = text(f);
      // A family in a folder of its own, its route file short enough to read at once.
      expect(t.split('\n').length, f).toBeLessThanOrEqual(300);
      if (!f.endsWith('asset-routes.ts')) expect(path.dirname(f), f).not.toBe(path.join('src', 'web'));
      expect(t, f).toMatch(/typed\(/);
      const routes = t.match(/\bapp\.(get|post|put|patch|delete)\(/g) ?? [];
      const schemas = t.match(/\bschema: (?:\{|[a-z]\w*Schema\b)/g) ?? [];
      expect(schemas.length, f).toBeGreaterThanOrEqual(routes.length - (f.endsWith('asset-routes.ts') ? 1 : 0));
    }
  });
});
