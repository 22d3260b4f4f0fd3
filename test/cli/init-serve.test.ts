// `hublet init` and `hublet serve`'s run functions, whose job is a data dir: init makes one in a temporary directory
// (and changes nothing the second time); serve refuses a TLS certificate it cannot read before it touches the data dir.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInit } from '../../src/cli/commands/init/init.js';
import { runServe } from '../../src/cli/commands/serve/serve.js';
import { fakeIO } from '../helpers/cli-inprocess.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-cli-init-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('hublet init', () => {
  it('creates the data dir, its database and the admin token once; the second time it only says so', async () => {
    const data = path.join(tmp, 'data');
    const first = fakeIO();
    await runInit({ data, json: false, env: {} }, first.io);
    const lines = first.stdout().split('\n');
    expect(lines[0]).toBe(`created a hublet data dir in ${data} (database ${path.join(data, 'hublet.sqlite')})`);
    expect(first.stdout()).toMatch(/hlp_\w+/);
    expect(lines.at(-2)).toBe(`next: hublet serve --data ${data}  (or, without a server: hublet --data ${data} COMMAND)`);

    const again = fakeIO();
    await runInit({ data, json: true, env: {} }, again.io);
    expect(JSON.parse(again.stdout())).toEqual({
      data_dir: data,
      database: path.join(data, 'hublet.sqlite'),
      created: false,
      admin_token: null,
    });
  });
});

describe('hublet serve', () => {
  it('a certificate that cannot be read stops the start with a configuration error, the data dir untouched', async () => {
    const data = path.join(tmp, 'never');
    const fake = fakeIO();
    const config = { dataDir: data, port: '0', tlsCert: path.join(tmp, 'missing.pem'), tlsKey: path.join(tmp, 'missing-key.pem') };
    await expect(runServe({ config, env: {} }, fake.io)).rejects.toThrow(
      `tlsCert (HUBLET_TLS_CERT): cannot read ${path.join(tmp, 'missing.pem')}: no such file`,
    );
    expect(fs.existsSync(data)).toBe(false);
    expect(fake.stdout()).toBe('');
  });
});
