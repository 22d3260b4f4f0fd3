// The text editor `gist edit` opens, found as gh finds it (GH_EDITOR, its config, then git's and the shell's:
// GIT_EDITOR, VISUAL, EDITOR, else nano): HUBLET_EDITOR first, then the same. The editor runs through `sh -c` (as git
// runs it, so `code --wait` works) on a copy of the file in a private temporary directory named like the gist file
// (so the editor picks its syntax); it gets the terminal when the command has one.
import { spawn, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IO } from '../../io.js';
import { CliExit, EXIT } from '../../output.js';

/** The editor command: HUBLET_EDITOR > GIT_EDITOR > VISUAL > EDITOR > nano. */
export function editorCommand(env: NodeJS.ProcessEnv): string {
  for (const name of ['HUBLET_EDITOR', 'GIT_EDITOR', 'VISUAL', 'EDITOR']) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return 'nano';
}

/** A file being edited: where it is, and removing it (with its directory) once its content is safe elsewhere. */
export interface Draft {
  file: string;
  read(): Buffer;
  remove(): void;
}

/** A stream's file descriptor when it has one (the process's own streams), so a child can share the terminal. */
function fdOf(stream: unknown): number | undefined {
  const fd = (stream as { fd?: unknown } | null)?.fd;
  return typeof fd === 'number' ? fd : undefined;
}

/** Writes `content` to a private temporary file named `filename` and runs the editor on it; the draft it leaves. */
export async function editDraft(
  opts: { editor: string; filename: string; content: Buffer; env: NodeJS.ProcessEnv },
  io: IO,
): Promise<Draft> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-gist-edit-'));
  const file = path.join(dir, opts.filename);
  fs.writeFileSync(file, opts.content, { mode: 0o600 });
  const draft: Draft = { file, read: () => fs.readFileSync(file), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
  const stdio: StdioOptions = [fdOf(io.stdin) ?? 'ignore', fdOf(io.stdout) ?? 'pipe', fdOf(io.stderr) ?? 'pipe'];
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn('sh', ['-c', `${opts.editor} "$@"`, opts.editor, file], { env: opts.env, stdio });
      // Without a terminal to share, what the editor says goes to stderr (stdout is the command's output).
      child.stdout?.on('data', (chunk: Buffer) => io.stderr.write(chunk));
      child.stderr?.on('data', (chunk: Buffer) => io.stderr.write(chunk));
      child.on('error', (err) => reject(new CliExit(EXIT.error, `hublet: cannot run the editor (${opts.editor}): ${err.message}`)));
      child.on('close', (code, signal) => {
        if (code === 0) resolve();
        else
          reject(
            new CliExit(EXIT.error, `hublet: the editor (${opts.editor}) failed (${signal ?? `exit ${code}`}); the gist is unchanged`),
          );
      });
    });
  } catch (err) {
    draft.remove();
    throw err;
  }
  return draft;
}
