// `gh repo fork` (Debian's gh 2.23, unchanged) against `hublet serve` over TLS, set up by gh-harness.ts: a fork without
// and with `--clone`, into an organization under another name, and gh's refusal of one's own repository. gh 2.23 forks
// a named repository through REST alone (POST /repos/{owner}/{repo}/forks, then git); we assert on what it printed,
// on the clone it made and on the server's state.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGhHarness, type GhHarness } from './gh-harness.js';
import { run, succeeded } from './tools.js';

let h: GhHarness;
/** erin's token: erin owns the repositories dave forks. */
let erin: string;

/** Runs stock git with gh's environment (the test CA, no prompts) and expects exit 0; answers its stdout. */
const git = async (args: string[], cwd: string) => succeeded(`git ${args.join(' ')}`, await run('git', args, { env: h.ghEnv, cwd }));

beforeAll(async () => {
  h = await startGhHarness('dave');
  await h.admin('POST', '/admin/users', { login: 'erin' }, 201);
  erin = (await h.admin('POST', '/admin/users/erin/authorizations', { scopes: ['repo'] }, 201)).token;
  await h.admin('POST', '/admin/organizations', { login: 'acme', admin: 'dave' }, 201);
  for (const name of ['tool', 'lib'])
    expect(
      (await h.api('POST', '/user/repos', { token: erin, body: { name, description: `erin's ${name}`, auto_init: true } })).status,
    ).toBe(201);
});
afterAll(async () => h?.close());

describe('gh repo fork', () => {
  it('OWNER/REPO --clone=false: the fork in the caller’s account, silent when not on a terminal', async () => {
    const r = await h.gh(['repo', 'fork', 'erin/tool', '--clone=false']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('');
    const fork = await h.api('GET', '/repos/dave/tool');
    expect(fork.status).toBe(200);
    expect(fork.body).toMatchObject({
      full_name: 'dave/tool',
      fork: true,
      description: "erin's tool",
      parent: { full_name: 'erin/tool' },
      source: { full_name: 'erin/tool' },
    });
    expect((await h.api('GET', '/repos/erin/tool')).body.forks_count).toBe(1);
  });

  it('OWNER/REPO --clone: clones the fork over HTTPS, with the parent as `upstream`, fetched', async () => {
    const r = await h.gh(['repo', 'fork', 'erin/lib', '--clone']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("Cloning into 'lib'...");
    const dir = path.join(h.work, 'lib');
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toBe("# lib\nerin's lib\n");
    expect(await git(['remote', '-v'], dir)).toBe(
      [
        `origin\thttps://${h.host}/dave/lib.git (fetch)`,
        `origin\thttps://${h.host}/dave/lib.git (push)`,
        `upstream\thttps://${h.host}/erin/lib.git (fetch)`,
        `upstream\thttps://${h.host}/erin/lib.git (push)`,
        '',
      ].join('\n'),
    );
    expect(await git(['log', '--format=%s|%an'], dir)).toBe('Initial commit|erin\n');
    expect(await git(['rev-parse', 'upstream/main'], dir)).toBe(await git(['rev-parse', 'origin/main'], dir));
    expect((await h.api('GET', '/repos/dave/lib')).body).toMatchObject({ fork: true, parent: { full_name: 'erin/lib' } });
  });

  it('--org ORG --fork-name NAME --default-branch-only: the fork in the organization, under that name', async () => {
    const r = await h.gh([
      'repo',
      'fork',
      'erin/tool',
      '--org',
      'acme',
      '--fork-name',
      'toolkit',
      '--default-branch-only',
      '--clone=false',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect((await h.api('GET', '/repos/acme/toolkit')).body).toMatchObject({
      full_name: 'acme/toolkit',
      fork: true,
      owner: { login: 'acme', type: 'Organization' },
      parent: { full_name: 'erin/tool' },
    });
    expect((await h.api('GET', '/repos/erin/tool/forks')).body.map((f: any) => f.full_name)).toEqual(['acme/toolkit', 'dave/tool']);
  });

  it('one’s own repository: the server answers with the repository itself and gh refuses', async () => {
    expect((await h.api('POST', '/user/repos', { body: { name: 'own', auto_init: true } })).status).toBe(201);
    const r = await h.gh(['repo', 'fork', 'dave/own', '--clone=false']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('failed to fork: dave/own cannot be forked\n');
    expect((await h.api('GET', '/repos/dave/own')).body).toMatchObject({ fork: false, forks_count: 0 });
  });
});
