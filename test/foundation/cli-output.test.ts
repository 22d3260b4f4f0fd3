// The CLI writes every byte of a large answer to a pipe before it exits, and a reader that leaves early is no error.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, sandbox, type Sandbox } from '../helpers/cli.js';

let box: Sandbox;
let data: string;
beforeAll(() => {
  box = sandbox();
  data = path.join(box.root, 'data');
});
beforeAll(async () => {
  const init = await runCli(['init', '--data', data], { env: box.env, timeoutMs: 60_000 });
  expect(init.code, init.stderr).toBe(0);
});
afterAll(() => box?.cleanup());

describe('hublet api output', () => {
  it('prints a response of over a megabyte whole through a pipe', async () => {
    const content = 'line of text\n'.repeat(120_000); // ~1.5 MB: the API returns the first 1 MiB inline
    const input = path.join(box.root, 'gist.json');
    fs.writeFileSync(input, JSON.stringify({ files: { 'big.txt': { content } } }));
    const created = await runCli(['--data', data, 'api', '/gists', '--input', input], { env: box.env, timeoutMs: 60_000 });
    expect(created.code, created.stderr).toBe(0);
    const id = JSON.parse(created.stdout).id as string;

    const read = await runCli(['--data', data, 'api', `/gists/${id}`], { env: box.env, timeoutMs: 60_000 });
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout.length).toBeGreaterThan(1024 * 1024);
    const gist = JSON.parse(read.stdout);
    expect(gist.files['big.txt'].truncated).toBe(true);
    expect(gist.files['big.txt'].content).toHaveLength(1024 * 1024);
  });
});
