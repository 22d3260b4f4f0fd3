// `git fsck --full` of one bare repository, reduced to what it finds wrong; and the shape of a data-dir check's findings.
import { spawn } from 'node:child_process';
import { inSpan } from '../tracing/spans.js';

/** One thing a check found, about one gist or repository (`subject`), or a note that needs no action. */
export interface Finding {
  subject: string;
  message: string;
}

export interface CheckReport {
  /** Inconsistencies: data the API or git would show wrongly, or not at all. */
  problems: Finding[];
  /** Worth knowing, nothing wrong for users: directories nobody refers to, repairs made. */
  notes: Finding[];
  /** How many gists or repositories were checked. */
  checked: number;
}

/**
 * Runs `git fsck --full` (every object inflated and hashed, connectivity from every ref) and returns its complaints:
 * an empty list when git finds the repository sound (exit 0; its notices and warnings are not damage). Throws when
 * git cannot be run at all. A span `git fsck` while traces are on.
 */
export function gitFsck(dir: string): Promise<string[]> {
  return inSpan('git fsck', {}, () => spawnFsck(dir));
}

function spawnFsck(dir: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', dir, 'fsck', '--full', '--no-dangling', '--no-progress'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, GIT_CONFIG_NOSYSTEM: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'ENOENT' ? new Error('git is not on PATH: cannot run git fsck') : err),
    );
    child.on('close', (code) => {
      if (code === 0) return resolve([]);
      const lines = out
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !/^(notice|warning|Checking|dangling )/i.test(l));
      resolve(lines.length ? lines : [`git fsck failed (exit ${code})`]);
    });
  });
}

/** Runs `task` over `items`, at most `limit` at a time, in order of the items. */
export async function eachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++]);
    }),
  );
}
