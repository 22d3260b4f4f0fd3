// What a gist may hold, decided once for the API (plan.ts) and for `git push` (push.ts): file names (and git's order of
// them), the kinds of tree entries, the number of files and their sizes. Both report the same messages.

/** Limits a gist's files must meet. */
export interface FileLimits {
  maxFiles: number;
  maxFileBytes: number;
}

/** One thing wrong with a gist's files: GitHub's error code and the message the API and a refused push both show. */
export interface FileProblem {
  code: 'invalid' | 'missing_field';
  message: string;
}

const MAX_NAME_BYTES = 255;

/**
 * The name hublet gives the `n`th file sent without a name (a missing or blank one). A name of this form sent
 * explicitly is an ordinary name, as on GitHub (`echo x | gh gist create` sends `gistfile0.txt`): automatic names skip
 * the names already taken.
 */
export function automaticName(n: number): string {
  return `gistfile${n}.txt`;
}

/** Git orders tree entries by the bytes of their names; so do responses. */
export function byName(a: { filename: string }, b: { filename: string }): number {
  return Buffer.compare(Buffer.from(a.filename), Buffer.from(b.filename));
}

/** Why a name cannot be a gist file's name, or null when it can. */
function fileNameProblem(name: string): string | null {
  if (name.includes('/') || name.includes('\\'))
    return `${JSON.stringify(name)}: file names cannot contain slashes (gists have no directories)`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this check's purpose
  if (/[\u0000-\u001f\u007f]/.test(name)) return `${JSON.stringify(name)}: file names cannot contain control characters`;
  if (name === '.' || name === '..') return `${JSON.stringify(name)} is not a valid file name`;
  if (name.toLowerCase() === '.git') return `${JSON.stringify(name)} is reserved by git`;
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) return `file names can be at most ${MAX_NAME_BYTES} bytes long`;
  return null;
}

/** Why a file set's size is not acceptable: none, too many files, a file too large. */
function fileSetProblems(files: { filename: string; size: number }[], limits: FileLimits): FileProblem[] {
  const problems: FileProblem[] = [];
  if (files.length === 0) problems.push({ code: 'missing_field', message: 'a gist needs at least one file' });
  if (files.length > limits.maxFiles) problems.push({ code: 'invalid', message: `a gist can hold at most ${limits.maxFiles} files` });
  for (const f of files) {
    if (f.size > limits.maxFileBytes) {
      problems.push({
        code: 'invalid',
        message: `${JSON.stringify(f.filename)} is larger than the limit of ${limits.maxFileBytes} bytes for a gist file`,
      });
    }
  }
  return problems;
}

/** Why a tree entry of this git mode cannot be in a gist (pushes only: the API writes regular files alone). */
function entryKindProblem(mode: string): string | null {
  if (mode === '40000' || mode === '040000') return 'Gist does not support directories.';
  if (mode !== '100644' && mode !== '100755') return 'Gists hold regular files only (no symbolic links or submodules).';
  return null;
}

/**
 * Everything wrong with one revision of a gist: entry kinds, the names of files that are new in it (names in `kept`,
 * the files of the revision it follows, were accepted before and stay), and the size of the set. What the API would
 * refuse for the same change.
 */
export function revisionProblems(
  files: { filename: string; size: number; mode?: string }[],
  kept: ReadonlySet<string>,
  limits: FileLimits,
): FileProblem[] {
  const problems: FileProblem[] = [];
  for (const f of files) {
    const kind = f.mode === undefined ? null : entryKindProblem(f.mode);
    if (kind) {
      problems.push({ code: 'invalid', message: kind });
      continue;
    }
    const name = kept.has(f.filename) ? null : fileNameProblem(f.filename);
    if (name) problems.push({ code: 'invalid', message: name });
  }
  return [...problems, ...fileSetProblems(files, limits)];
}
