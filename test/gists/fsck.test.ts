// `hublet admin fsck`: a clean data dir exits 0; a damaged object, a moved ref, a missing repository directory and
// database bytes that are not their blob are each named (exit 1); --repair moves a lagging branch back.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, sandbox, type Sandbox } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { git, withCredentials } from './git-tools.js';

let s: TestServer;
let sb: Sandbox;
let alice: { login: string; token: string };
let bob: { login: string; token: string };

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  sb = sandbox();
  alice = await s.userWithToken('alice');
  bob = await s.userWithToken('bob');
});
afterAll(async () => {
  await s?.close();
  sb?.cleanup();
});

const fsck = (...args: string[]) =>
  runCli(['--data', s.dataDir, '--database', s.databaseUrl, 'admin', 'fsck', ...args], { env: sb.env, timeoutMs: 60_000 });
const bare = (id: string) => path.join(s.dataDir, 'git', 'gists', `${id}.git`);
const blobOf = (file: { raw_url: string }) => file.raw_url.split('/raw/')[1].split('/')[0];

async function gist(files: Record<string, string>, token = alice.token): Promise<any> {
  const r = await s.api('POST', '/gists', {
    token,
    body: { public: true, files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, { content: v }])) },
  });
  expect(r.status).toBe(201);
  return r.body;
}

describe('hublet admin fsck', () => {
  let a: any, b: any, c: any, repo: any;

  it('exits 0 on a sound data dir: gists (edited, pushed, forked) and repositories', async () => {
    a = await gist({ 'a.txt': 'a\n', 'shared.txt': 'shared\n' });
    b = await gist({ 'b.txt': 'b1\n' });
    expect((await s.api('PATCH', `/gists/${b.id}`, { token: alice.token, body: { files: { 'b.txt': { content: 'b2\n' } } } })).status).toBe(
      200,
    );
    c = await gist({ 'c.txt': 'c\n' });
    const dir = path.join(sb.root, 'push');
    await git(['clone', '-q', c.git_pull_url, dir], sb.root);
    fs.writeFileSync(path.join(dir, 'pushed.txt'), 'pushed\n');
    await git(['add', '-A'], dir);
    await git(['commit', '-q', '-m', 'push'], dir);
    await git(['push', '-q', withCredentials(c.git_push_url, 'alice', alice.token), 'main'], dir);
    expect((await s.api('POST', `/gists/${a.id}/forks`, { token: bob.token })).status).toBe(201);
    repo = (await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'proj', auto_init: true } })).body;
    expect((await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'empty' } })).status).toBe(201);

    const r = await fsck();
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toBe('checked 4 gists and 2 repositories: no problems\n');
  });

  it('names each problem (exit 1): an empty object file, a moved branch, a missing repository, bytes that are not their blob', async () => {
    // a: the blob of a.txt emptied, as a crash of an older version could leave it.
    const blob = blobOf(a.files['a.txt']);
    const objectFile = path.join(bare(a.id), 'objects', blob.slice(0, 2), blob.slice(2));
    const saved = fs.readFileSync(objectFile);
    fs.chmodSync(objectFile, 0o644);
    fs.writeFileSync(objectFile, '');
    // b: the branch back at the first revision.
    const first = (await s.api('GET', `/gists/${b.id}`)).body.history[1].version as string;
    fs.writeFileSync(path.join(bare(b.id), 'refs', 'heads', 'main'), `${first}\n`);
    // The repository's directory gone.
    fs.rmSync(path.join(s.dataDir, 'git', 'repos', `${repo.id}.git`), { recursive: true });
    // c: the database's bytes of a file changed behind git's back.
    await s.db
      .updateTable('gist_files')
      .set({ content: Buffer.from('tampered\n') })
      .where('gist_id', '=', c.id)
      .where('filename', '=', 'c.txt')
      .execute();
    // A stray directory is only a note.
    fs.mkdirSync(path.join(s.dataDir, 'git', 'gists', `${'f'.repeat(32)}.git`));

    const r = await fsck();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/admin fsck found \d+ problems/);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^gist ${a.id}: git fsck: .*${blob.slice(2)}.*empty`)));
    const bHead = (await s.api('GET', `/gists/${b.id}`)).body.history[0].version as string;
    expect(lines).toContain(`gist ${b.id}: its branch main points at ${first}, the database's head is ${bHead}`);
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^repository alice/proj \\(id ${repo.id}\\): its repository .* is missing$`)),
    );
    expect(lines).toContain(`gist ${c.id}: file "c.txt": the database's bytes are not blob ${blobOf(c.files['c.txt'])}`);
    expect(lines).toContainEqual(expect.stringMatching(/^note: .*ffffffff.*\.git: a gist repository no gist refers to/));
    expect(
      lines.filter((l) => /^(gist|repository) /.test(l)).every((l) => [a.id, b.id, c.id, 'alice/proj'].some((x) => l.includes(x))),
    ).toBe(true);
    expect(lines[lines.length - 1]).toMatch(/^checked 4 gists and 2 repositories: \d+ problems$/);

    // --repair moves the branch back to the head; the other problems stay.
    const repaired = await fsck('--repair', '--no-git-fsck');
    expect(repaired.code).toBe(1);
    expect(repaired.stdout).toContain(`note: gist ${b.id}: branch main moved from ${first} to the database's head ${bHead}`);
    expect(fs.readFileSync(path.join(bare(b.id), 'refs', 'heads', 'main'), 'utf8')).toBe(`${bHead}\n`);
    expect(repaired.stdout).not.toContain(`gist ${b.id}: its branch`);
    expect(repaired.stdout).not.toContain('git fsck:');

    // Put the rest back: clean again.
    fs.writeFileSync(objectFile, saved);
    await s.db
      .updateTable('gist_files')
      .set({ content: Buffer.from('c\n') })
      .where('gist_id', '=', c.id)
      .where('filename', '=', 'c.txt')
      .execute();
    await git(['init', '-q', '--bare', '--initial-branch=main', path.join(s.dataDir, 'git', 'repos', `${repo.id}.git`)], sb.root);
    const clean = await fsck();
    expect({ code: clean.code, stderr: clean.stderr }).toEqual({ code: 0, stderr: '' });
    expect(clean.stdout).toMatch(/checked 4 gists and 2 repositories: no problems\n$/);
  });

  it('is local only', async () => {
    const r = await runCli(['--server', s.url, 'admin', 'fsck'], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no remote mode');
  });
});
