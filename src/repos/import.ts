// Importing an existing git repository from a path on the server's machine (site admins): every branch and tag, its HEAD.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { requireSiteAdmin } from '../core/grants.js';
import { findAccount } from '../accounts/store.js';
import { initBare, readRefs, removeRepo } from '../git/bare.js';
import { requireGit } from '../git/smart-http.js';
import type { ServiceContext } from '../core/context.js';
import { ValidationFailed } from '../core/errors.js';
import { primaryLanguage, setHead } from './git-data.js';
import { pickDefaultBranch } from './push.js';
import type { ImportBody } from './schemas.js';
import { createRepository, type ResolvedRepository } from './service.js';

const run = promisify(execFile);

/** Runs git without prompts or the server's own git configuration getting in the way. */
function git(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run('git', ['-c', 'safe.directory=*', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
}

const invalid = (field: string, message: string) => new ValidationFailed([{ resource: 'Repository', field, code: 'invalid', message }]);

/**
 * Creates `owner/name` from the git repository at `path` (site admins only): all branches and tags are fetched into a
 * new bare repository, the source's HEAD branch becomes the default branch, and a `repository` `created` event is
 * recorded (an import is not a push: no `push` events).
 */
export async function importRepository(ctx: ServiceContext, input: ImportBody): Promise<ResolvedRepository> {
  requireSiteAdmin(ctx.actor);
  requireGit();
  const owner = await findAccount(ctx.db, input.owner);
  if (!owner) throw invalid('owner', `no user or organization named ${input.owner}`);
  const source = input.path;
  if (!path.isAbsolute(source) || /[\0\n\r]/.test(source)) throw invalid('path', 'path must be an absolute path on the server');
  if (!fs.existsSync(source) || !fs.statSync(source).isDirectory()) throw invalid('path', `${source} is not a directory on the server`);

  const staged = await stageGitData(ctx.config.dataDir, source);
  try {
    return await createRepository(
      ctx,
      null,
      { name: input.name, private: input.private, description: input.description },
      { imported: { owner, ...staged } },
    );
  } finally {
    removeRepo(staged.stagingDir); // gone already when the import moved it into place
  }
}

/** A repository's git data fetched into a staging directory beside the repositories, for `createRepository`'s `imported`. */
interface StagedGitData {
  stagingDir: string;
  defaultBranch: string;
  language: string | null;
}

/** Runs git with `input` on its stdin. */
function gitWithInput(args: string[], input: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      ['-c', 'safe.directory=*', ...args],
      { env: { PATH: process.env.PATH, HOME: process.env.HOME, GIT_CONFIG_NOSYSTEM: '1' } },
      (err) => (err ? reject(err) : resolve()),
    );
    child.stdin?.end(input);
  });
}

/** Takes over the bare repository at `source` as `staging` (a rename): false when they are on different file systems. */
async function adopt(source: string, staging: string): Promise<boolean> {
  try {
    await fs.promises.rename(source, staging);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EXDEV') return false;
    throw err;
  }
}

/**
 * Fetches every branch and tag of the git repository at `source` into a new bare repository under
 * `<data>/git/repos/.import-*` (the same file system, so the import renames it into place in its transaction). The
 * default branch is `preferred` when the source has it, else the source's HEAD branch, else the usual pick. No `source`:
 * an empty repository. With `adopt`, `source` is a bare repository of the caller's own, already checked (an unpacked
 * migration archive's, with its configuration, hooks and alternates removed): it is moved to the staging place instead
 * of fetched from, and keeps only its branches and tags. A source git cannot read is the 422 of field `path`; the
 * staging directory is then gone, and otherwise it is the caller's to remove (`removeRepo`) once the import is done either way.
 */
export async function stageGitData(
  dataDir: string,
  source: string | null,
  preferred?: string | null,
  opts: { adopt?: boolean } = {},
): Promise<StagedGitData> {
  const staging = path.join(dataDir, 'git', 'repos', `.import-${crypto.randomUUID()}`);
  try {
    let head: string | undefined;
    await fs.promises.mkdir(path.dirname(staging), { recursive: true });
    if (source && opts.adopt && (await adopt(source, staging))) {
      head = /^ref: refs\/heads\/(\S+)$/m.exec(await fs.promises.readFile(path.join(staging, 'HEAD'), 'utf8').catch(() => ''))?.[1];
      await initBare(staging); // its configuration is hublet's (an existing repository keeps its objects and refs)
      const refs = (await git(['--git-dir', staging, 'for-each-ref', '--format=%(refname)'])).stdout.split('\n').filter(Boolean);
      const others = refs.filter((r) => !r.startsWith('refs/heads/') && !r.startsWith('refs/tags/'));
      if (others.length) await gitWithInput(['--git-dir', staging, 'update-ref', '--stdin'], others.map((r) => `delete ${r}\n`).join(''));
    } else {
      await initBare(staging);
      if (source) {
        try {
          const symref = await git(['ls-remote', '--symref', source, 'HEAD']);
          head = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(symref.stdout)?.[1];
          await git([
            '--git-dir',
            staging,
            'fetch',
            '--quiet',
            '--no-tags',
            source,
            '+refs/heads/*:refs/heads/*',
            '+refs/tags/*:refs/tags/*',
          ]);
        } catch (err) {
          const stderr = String((err as { stderr?: string }).stderr ?? '').trim();
          throw invalid('path', `${source} is not a readable git repository${stderr ? `: ${stderr.split('\n')[0]}` : ''}`);
        }
      }
    }
    const refs = await readRefs(staging);
    const has = (b: string | null | undefined): b is string => Boolean(b && refs[`refs/heads/${b}`]);
    const defaultBranch = has(preferred) ? preferred : has(head) ? head : pickDefaultBranch(Object.keys(refs), preferred || 'main');
    await setHead(staging, defaultBranch);
    const tip = refs[`refs/heads/${defaultBranch}`];
    const language = tip ? await primaryLanguage(staging, tip, {}).catch(() => null) : null;
    return { stagingDir: staging, defaultBranch, language };
  } catch (err) {
    removeRepo(staging);
    throw err;
  }
}
