// Web cases: the gist page (`/gist/<id>`, a browser's request) at 50 connections against the same-bytes baseline.
import { atLeast } from '../goals.js';
import { httpCase } from '../http-case.js';

/** The gist the page shows: Markdown, Python and JSON, about 2 KB, as a small real gist. */
const FILES: Record<string, { content: string }> = {
  'README.md': {
    content: `# Notes\n\n${'Some words about this snippet, and how to run it. '.repeat(14)}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n`,
  },
  'main.py': { content: `def main():\n${'    print("hello, world")  # greet\n'.repeat(20)}\nmain()\n` },
  'config.json': { content: `{\n${Array.from({ length: 24 }, (_, i) => `  "key${i}": "value number ${i}"`).join(',\n')}\n}\n` },
};

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'accept-language': 'en' };

const gistPage = httpCase({
  name: 'GET /gist/{id} page (3 files, Markdown + highlighted code), 50 connections',
  goals: [atLeast('ratio', 0.4, '× baseline')],
  async setup(ctx) {
    const gist = await ctx.api('POST', '/gists', { description: 'bench page', public: true, files: FILES });
    return [{ path: `/gist/${gist.id as string}`, headers: BROWSER }];
  },
});

export const webCases = [gistPage];
