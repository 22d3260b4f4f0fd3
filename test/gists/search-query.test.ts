// Gist search's pure parts: the tokenizer, the query parser (words, phrases, exclusions, every qualifier and GitHub's
// range forms, the problems it names), a gist's indexed document (binary files, the 384 KB cut) and the snippet.
import { describe, expect, it } from 'vitest';
import { extensionWord, languageWord, MAX_INDEXED_FILE_BYTES, searchDocument } from '../../src/gists/search-document.js';
import { hasCriteria, parseRange, parseSearchQuery, searchTokens, type GistSearchQuery } from '../../src/gists/search-query.js';
import { snippetFor } from '../../src/gists/search-snippet.js';

function parsed(q: string): GistSearchQuery {
  const r = parseSearchQuery(q);
  if (!r.ok) throw new Error(`${q}: ${r.problem}`);
  return r.query;
}

function problem(q: string): string {
  const r = parseSearchQuery(q);
  if (r.ok) throw new Error(`${q} parsed: ${JSON.stringify(r.query)}`);
  return r.problem;
}

describe('searchTokens', () => {
  it('cuts at anything but letters and digits, lowercases, drops accents, and skips words over 100 characters', () => {
    expect(searchTokens('def parse_Config(path): # Ünïcode café')).toEqual(['def', 'parse', 'config', 'path', 'unicode', 'cafe']);
    expect(searchTokens('hello.txt x86_64 192.168.0.1')).toEqual(['hello', 'txt', 'x86', '64', '192', '168', '0', '1']);
    expect(searchTokens(`short ${'a'.repeat(101)} ${'b'.repeat(100)}`)).toEqual(['short', 'b'.repeat(100)]);
    expect(searchTokens('"*NEAR( )-')).toEqual(['near']);
  });
});

describe('parseSearchQuery', () => {
  it('reads words, phrases in quotes and exclusions (NOT word, -word); AND is the default', () => {
    const q = parsed('Fetch "async await" -jquery NOT legacy AND retry');
    expect(q.phrases).toEqual([['fetch'], ['async', 'await'], ['retry']]);
    expect(q.excluded).toEqual([['jquery'], ['legacy']]);
    expect(parsed('foo.bar').phrases).toEqual([['foo', 'bar']]);
    expect(parsed('"unterminated phrase').phrases).toEqual([['unterminated', 'phrase']]);
  });

  it('reads every qualifier case-insensitively, in name and value, and a repeated one as any of its values', () => {
    const q = parsed('USER:Alice user:bob Language:Python language:"Jupyter Notebook" Extension:.PY filename:Makefile fork:ONLY');
    expect(q).toMatchObject({
      phrases: [],
      users: ['alice', 'bob'],
      languages: ['python', 'jupyter-notebook'],
      extensions: ['py'],
      filenames: ['makefile'],
      fork: 'only',
    });
    expect(parsed('cat fork:true').fork).toBe('include');
    expect(parsed('cat fork:false').fork).toBe('exclude');
    expect(parsed('cat').fork).toBe('include');
    expect(parsed('cat anon:true')).toMatchObject({ phrases: [['cat']], fork: 'include' });
    // Not a qualifier: searched as words.
    expect(parsed('http://example.com').phrases).toEqual([['http', 'example', 'com']]);
  });

  it('reads GitHub’s range forms for stars: and size:', () => {
    expect(parsed('stars:>10').stars).toEqual({ min: 11 });
    expect(parsed('stars:>=10').stars).toEqual({ min: 10 });
    expect(parsed('stars:<10').stars).toEqual({ max: 9 });
    expect(parsed('stars:<=10').stars).toEqual({ max: 10 });
    expect(parsed('stars:7').stars).toEqual({ min: 7, max: 7 });
    expect(parsed('size:10..50').size).toEqual({ min: 10, max: 50 });
    expect(parsed('size:10..*').size).toEqual({ min: 10 });
    expect(parsed('size:*..50').size).toEqual({ max: 50 });
    expect(parsed('stars:>1 stars:<5').stars).toEqual({ min: 2, max: 4 });
    expect(parseRange('99999999999999999999')).toBeUndefined();
    expect(parseRange('<0')).toBeUndefined();
    expect(parseRange('5..1')).toBeUndefined();
  });

  it('names what is wrong with a query it cannot run', () => {
    expect(problem('stars:>abc')).toBe('stars:>abc is not a number or a range of numbers (such as stars:>10, stars:10..50 or stars:<=5).');
    expect(problem('size:big')).toMatch(/^size:big is not a number or a range/);
    expect(problem('fork:maybe')).toBe('fork:maybe is not one of fork:true, fork:only or fork:false.');
    expect(problem('cat OR dog')).toBe('OR is not supported in gist search: every word must match.');
    expect(problem('cat -language:go')).toBe('Excluding a qualifier (-language:…) is not supported in gist search.');
    expect(problem('user:')).toBe('user: needs a value (such as user:octocat).');
    expect(problem('x'.repeat(257))).toBe('The search is longer than 256 characters.');
  });

  it('parses hostile input into words or nothing, never into syntax', () => {
    for (const q of ['"', '*', 'NEAR(', 'AND', '-', '(', ')', '{a b}:c', '^x', 'a:"', '-"', "'; drop table gists; --"]) {
      const r = parseSearchQuery(q);
      expect(r.ok, q).toBe(true);
      if (r.ok) for (const p of [...r.query.phrases, ...r.query.excluded].flat()) expect(p, q).toMatch(/^[\p{L}\p{N}]+$/u);
    }
    expect(parsed('user:a\u0000b filename:"x\ny"')).toMatchObject({ users: ['a'], phrases: [['b']], filenames: ['x y'] });
    expect(hasCriteria(parsed('"'))).toBe(false);
    expect(hasCriteria(parsed('NEAR('))).toBe(true);
  });
});

describe('searchDocument', () => {
  it('indexes description, file names and text, not a binary file’s bytes, and a file’s first 384 KB only', () => {
    const long = Buffer.concat([Buffer.from(`${'filler '.repeat(MAX_INDEXED_FILE_BYTES / 7)}`), Buffer.from(' beyondlimit')]);
    const doc = searchDocument({
      ownerId: 7,
      public: false,
      description: 'Quick Sort',
      files: [
        { filename: 'sort.py', language: 'Python', content: Buffer.from('def quicksort(xs): pass') },
        { filename: 'logo.png', language: null, content: null },
        { filename: 'big.txt', language: 'Text', content: long },
      ],
    });
    expect(doc).toMatchObject({
      ownerId: 7,
      public: false,
      description: ['quick', 'sort'],
      filenames: ['sort', 'py', 'logo', 'png', 'big', 'txt'],
    });
    expect(doc.content.slice(0, 4)).toEqual(['def', 'quicksort', 'xs', 'pass']);
    expect(doc.content).toContain('filler');
    expect(doc.content).not.toContain('beyondlimit');
    // Languages and extensions as index words (hex), whatever the case; a binary file's too.
    expect(doc.languages).toEqual([languageWord('python'), languageWord('TEXT')]);
    expect(doc.extensions).toEqual(['py', 'png', 'txt'].map(extensionWord));
    expect(languageWord('Jupyter Notebook')).toBe(languageWord('jupyter-notebook'));
    expect(languageWord('C++')).toMatch(/^[0-9a-f]+$/);
  });

  it('stops taking new words past the index budget, whatever the files hold', () => {
    const words = Array.from({ length: 120_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
    const doc = searchDocument({
      ownerId: 1,
      public: true,
      description: '',
      files: [{ filename: 'a', language: null, content: Buffer.from(words) }],
    });
    expect(doc.content.length).toBeGreaterThan(50_000);
    expect(doc.content.length).toBeLessThan(120_000);
  });
});

describe('snippetFor', () => {
  it('picks the line with the most searched words, files before the description, and marks them', () => {
    const s = snippetFor(
      [
        { filename: 'a.py', text: 'import os\nparse the config\nparse and load the Config file\n' },
        { filename: null, text: 'config parser' },
      ],
      ['parse', 'config'],
    );
    expect(s).toEqual({
      filename: 'a.py',
      line: 2,
      parts: [
        { text: 'parse', match: true },
        { text: ' the ', match: false },
        { text: 'config', match: true },
      ],
    });
  });

  it('falls back to the description, cuts a long line around its first match, and is null without a match', () => {
    expect(
      snippetFor(
        [
          { filename: 'a', text: 'nothing' },
          { filename: null, text: 'Café notes' },
        ],
        ['cafe'],
      ),
    ).toEqual({
      filename: null,
      line: 0,
      parts: [
        { text: 'Café', match: true },
        { text: ' notes', match: false },
      ],
    });
    const long = snippetFor([{ filename: 'x', text: `${'a '.repeat(300)}needle${' b'.repeat(300)}` }], ['needle'])!;
    const text = long.parts.map((p) => p.text).join('');
    expect(text.length).toBe(200);
    expect(long.parts.find((p) => p.match)?.text).toBe('needle');
    expect(snippetFor([{ filename: 'a', text: 'nothing here' }], ['needle'])).toBeNull();
  });
});
