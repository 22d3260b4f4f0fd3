// One shape per area and one-way boundaries: every area folder exports one area that the app lists, and the dependency
// rules of `make deps` (.dependency-cruiser.cjs) refuse, by name, each kind of import that would break them.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as accounts from '../../src/accounts/area.js';
import * as audit from '../../src/audit/area.js';
import * as gists from '../../src/gists/area.js';
import * as graphql from '../../src/graphql/area.js';
import * as migrations from '../../src/migrations/area.js';
import * as repos from '../../src/repos/area.js';
import { AREAS } from '../../src/server/app.js';
import * as web from '../../src/web/area.js';
import * as webhooks from '../../src/webhooks/area.js';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

describe('areas', () => {
  it('each area folder exports one area, and the app wires every one of them', async () => {
    const folders: Record<string, Record<string, unknown>> = { accounts, repos, webhooks, migrations, gists, audit, graphql, web };
    for (const [folder, mod] of Object.entries(folders)) {
      const exported = Object.entries(mod).filter(([name]) => name.endsWith('Area'));
      expect(exported, folder).toHaveLength(1);
      expect(AREAS, folder).toContain(exported[0][1]);
    }
    expect(AREAS).toHaveLength(Object.keys(folders).length);
    expect(new Set(AREAS.map((a) => a.name)).size).toBe(AREAS.length);
  });
});

/** Runs the project's dependency rules over a copy of src/ with extra lines appended to some files. */
async function cruiseWith(additions: Record<string, string>): Promise<{ failed: boolean; output: string }> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'hublet-deps-'));
  try {
    await fs.promises.cp(path.join(root, 'src'), path.join(dir, 'src'), { recursive: true });
    for (const file of ['tsconfig.json', '.dependency-cruiser.cjs', 'package.json'])
      await fs.promises.copyFile(path.join(root, file), path.join(dir, file));
    await fs.promises.symlink(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    for (const [file, line] of Object.entries(additions)) await fs.promises.appendFile(path.join(dir, file), `\n${line}\n`);
    // What `make deps` runs.
    const args = ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'];
    try {
      const { stdout, stderr } = await run(path.join(root, 'node_modules/.bin/depcruise'), args, { cwd: dir });
      return { failed: false, output: stdout + stderr };
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      return { failed: true, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

describe('dependency rules (make deps)', () => {
  it('pass on src/ as it is', async () => {
    const r = await cruiseWith({});
    expect(r.output).not.toMatch(/error/);
    expect(r.failed).toBe(false);
  }, 60_000);

  it('refuse, each by its name, an import that breaks a boundary', async () => {
    const r = await cruiseWith({
      'src/jobs/queue.ts': "import { gistsArea } from '../gists/area.js'; export const a = gistsArea;",
      'src/gists/counts.ts': "import { repositoriesArea } from '../repos/area.js'; export const b = repositoriesArea;",
      'src/migrations/queues.ts': "import { webhooksArea } from '../webhooks/area.js'; export const c = webhooksArea;",
      'src/core/ids.ts': "import { accountsArea } from '../accounts/area.js'; export const d = accountsArea;",
      'src/http/typed.ts': "import { gistsArea } from '../gists/area.js'; export const d2 = gistsArea;",
      'src/accounts/logins.ts': "import { AREAS } from '../server/app.js'; export const e = AREAS;",
      'src/web/links.ts': "import { gistRepoDir } from '../gists/git.js'; export const f = gistRepoDir;",
      'src/graphql/links.ts': "import { webArea } from '../web/area.js'; export const g = webArea;",
      'src/gists/plan.ts': "import { connect } from '../db/connect.js'; export const p = connect;",
      'src/audit/actions.ts': "import { webhooksArea } from '../webhooks/area.js'; export const q = webhooksArea;",
    });
    expect(r.failed).toBe(true);
    const found = (rule: string, from: string, to: string) =>
      new RegExp(`${rule}: ${from.replaceAll('.', '[.]')} → ${to.replaceAll('.', '[.]')}`).test(r.output);
    expect(found('layer-events-jobs-imports-downwards', 'src/jobs/queue.ts', 'src/gists/area.ts'), r.output).toBe(true);
    expect(found('layer-http-imports-downwards', 'src/http/typed.ts', 'src/gists/area.ts'), r.output).toBe(true);
    expect(found('areas-never-import-areas', 'src/gists/counts.ts', 'src/repos/area.ts'), r.output).toBe(true);
    expect(found('migrations-imports-only-repos', 'src/migrations/queues.ts', 'src/webhooks/area.ts'), r.output).toBe(true);
    expect(found('layer-core-imports-downwards', 'src/core/ids.ts', 'src/accounts/area.ts'), r.output).toBe(true);
    expect(found('layer-accounts-imports-downwards', 'src/accounts/logins.ts', 'src/server/app.ts'), r.output).toBe(true);
    expect(found('web-reads-areas-through-their-read-side', 'src/web/links.ts', 'src/gists/git.ts'), r.output).toBe(true);
    expect(found('front-ends-never-import-each-other', 'src/graphql/links.ts', 'src/web/area.ts'), r.output).toBe(true);
    expect(found('plans-only-decide', 'src/gists/plan.ts', 'src/db/connect.ts'), r.output).toBe(true);
    expect(found('areas-never-import-areas', 'src/audit/actions.ts', 'src/webhooks/area.ts'), r.output).toBe(true);
  }, 60_000);

  it('refuse a cycle between files, and one between folders', async () => {
    const files = await cruiseWith({ 'src/jobs/queue.ts': "import { JobWorker } from './worker.js'; export const g = JobWorker;" });
    expect(files.failed).toBe(true);
    expect(files.output).toMatch(/no-module-cycles: src\/jobs\/(queue|worker)\.ts → \n\s+src\/jobs\/(worker|queue)\.ts →/);
    // events/store.ts -> jobs -> events/emit.ts: no file reaches itself, but the folders do.
    const folders = await cruiseWith({
      'src/jobs/queue.ts': "import { EventLog } from '../events/emit.js'; export const h = EventLog;",
      'src/events/store.ts': "import { renewLease } from '../jobs/queue.js'; export const i = renewLease;",
    });
    expect(folders.failed).toBe(true);
    expect(folders.output).not.toMatch(/no-module-cycles/);
    expect(folders.output).toMatch(/no-folder-cycles: src\/(events|jobs) → \n\s+src\/(jobs|events) →/);
  }, 60_000);

  it('keep config.ts at the bottom: it imports only leaves, which import nothing of src/', async () => {
    const r = await cruiseWith({
      'src/net/allowed-hosts.ts': "import { KEY_BYTES } from '../secrets/secret-box.js'; export const j = KEY_BYTES;",
      'src/config.ts': "import { PUBLIC } from './core/grants.js'; export const k = PUBLIC;",
    });
    expect(r.failed).toBe(true);
    expect(r.output).toMatch(/leaves-import-nothing: src\/net\/allowed-hosts\.ts → src\/secrets\/secret-box\.ts/);
    expect(r.output).toMatch(/layer-db-root-files-imports-downwards: src\/config\.ts → src\/core\/grants\.ts/);
  }, 60_000);
});
