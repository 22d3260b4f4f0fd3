#!/usr/bin/env node
// Checks the local links of the documentation: README.md, docs/*.md and deploy/README.md.
//
// For every Markdown link or image (`[text](target)`, `![alt](target)`, `[label]: target`) outside code, a target that
// is not a URL (http:, https:, mailto:) must name a file or directory inside the repository, and an anchor
// (`file.md#anchor`, `#anchor`) must be the GitHub slug of one of that Markdown file's headings (lowercased, punctuation
// other than `-` and `_` dropped, spaces turned into `-`, `-1`, `-2`… for repeated headings). Prints one line per broken
// link (`file:line: problem`) and exits 1 if there is any; prints nothing and exits 0 when every link resolves.
//
// Usage: node scripts/check-doc-links.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const docsDir = path.join(root, 'docs');
const files = [
  path.join(root, 'README.md'),
  ...fs
    .readdirSync(docsDir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => path.join(docsDir, f)),
  path.join(root, 'deploy', 'README.md'),
].filter((f) => fs.existsSync(f));

/** The lines of a Markdown file outside fenced code blocks, with inline code spans blanked; [line number, text]. */
function proseLines(text) {
  const out = [];
  let fence = null;
  text.split('\n').forEach((line, i) => {
    const opens = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opens && opens[1][0] === fence[0] && opens[1].length >= fence.length) fence = null;
      return;
    }
    if (opens) {
      fence = opens[1];
      return;
    }
    if (/^( {4}|\t)/.test(line) && !/^\s*([-*+]|\d+\.)\s/.test(line) && out.at(-1)?.[1].trim() === '') return;
    out.push([i + 1, line.replace(/(`+)(?:(?!\1).)*?\1/g, (m) => ' '.repeat(m.length))]);
  });
  return out;
}

/** GitHub's anchor for a heading's text (the rule of github-slugger). */
function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

const anchorCache = new Map();
/** Every anchor a Markdown file's headings give (ATX headings outside code). */
function anchorsOf(file) {
  if (!anchorCache.has(file)) {
    const seen = new Map();
    const anchors = new Set();
    let fence = null;
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const opens = /^\s*(`{3,}|~{3,})/.exec(line);
      if (fence) {
        if (opens && opens[1][0] === fence[0] && opens[1].length >= fence.length) fence = null;
        continue;
      }
      if (opens) {
        fence = opens[1];
        continue;
      }
      const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      if (!h) continue;
      const base = slug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    anchorCache.set(file, anchors);
  }
  return anchorCache.get(file);
}

/** The link targets on one line of prose. */
function targetsOn(line) {
  const targets = [];
  for (const m of line.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]);
  const def = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
  if (def) targets.push(def[1]);
  return targets;
}

const problems = [];
for (const file of files) {
  const rel = path.relative(root, file);
  for (const [lineNo, line] of proseLines(fs.readFileSync(file, 'utf8'))) {
    for (const target of targetsOn(line)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const hash = target.indexOf('#');
      const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
      const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
      const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), pathPart);
      const where = `${rel}:${lineNo}: ${target}`;
      if (resolved !== root && !resolved.startsWith(root + path.sep)) {
        problems.push(`${where}: points outside the repository`);
        continue;
      }
      if (!fs.existsSync(resolved)) {
        problems.push(`${where}: no such file`);
        continue;
      }
      if (anchor === null || anchor === '') continue;
      if (!resolved.endsWith('.md')) {
        problems.push(`${where}: an anchor on a file that is not Markdown`);
        continue;
      }
      if (!anchorsOf(resolved).has(anchor)) problems.push(`${where}: no heading with that anchor in ${path.relative(root, resolved)}`);
    }
  }
}

for (const p of problems) process.stdout.write(`${p}\n`);
process.exitCode = problems.length > 0 ? 1 : 0;
