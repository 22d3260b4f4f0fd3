// bin/hublet, the development entry point, runs the TypeScript sources through tsx right after `npm install`.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { ROOT } from '../helpers/cli.js';

const run = promisify(execFile);

describe('bin/hublet', () => {
  it('prints the version and the command groups from the sources', async () => {
    const bin = path.join(ROOT, 'bin', 'hublet');
    const version = await run(bin, ['--version'], { cwd: '/' });
    expect(version.stdout.trim()).toBe(pkg.version);
    const help = await run(bin, ['--help'], { cwd: '/' });
    for (const group of ['serve', 'api', 'admin', 'auth']) expect(help.stdout).toMatch(new RegExp(`^\\s+${group}\\b`, 'm'));
  });
});
