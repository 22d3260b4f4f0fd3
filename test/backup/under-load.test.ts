// `hublet admin backup` of a running `serve` under a continuous load of gist PATCHes and git pushes, restored into a
// new data dir (and, on PostgreSQL, a new empty database): `admin fsck` finds it clean, and a server on it serves every
// gist revision, the repository's pushes, the org hook (signed with the original secret) and the export archive that
// were acknowledged before the backup began. A second backup into the same folder shares the unchanged git objects.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { onPostgres, scratchPostgresDatabase, type TestDatabase } from '../helpers/database.js';
import { serveProcesses } from '../helpers/serve-process.js';
import { signaturesValid, startReceiver, type Receiver } from '../webhooks/receiver.js';
import { git, withCredentials } from '../gists/git-tools.js';
import { archiveDigest, call, until } from './support.js';

// Real processes (two servers, the CLI three times, git) on a loaded two-core machine; nothing is timed.
vi.setConfig({ testTimeout: 300_000 });

const ADMIN = `hlp_backup${Date.now().toString(36)}`;
const SECRET = 'backup-hook-secret-5d2e81';
const ENV = { HUBLET_ADMIN_TOKEN: ADMIN, HUBLET_RATE_LIMIT: '1000000', HUBLET_RATE_LIMIT_ANONYMOUS: '1000000' };
const fx = serveProcesses();
let rcv: Receiver;
const scratch: TestDatabase[] = [];
beforeAll(async () => {
  rcv = await startReceiver();
});
afterAll(async () => {
  await rcv?.close();
  for (const d of scratch) await d.drop();
});

interface Revision {
  gist: string;
  version: string;
  files: Record<string, string>;
}

/** What a gist response says a revision holds: its version and each file's content. */
function revisionOf(gist: string, body: any): Revision {
  const files: Record<string, string> = {};
  for (const [name, f] of Object.entries(body.files as Record<string, { content: string }>)) files[name] = f.content;
  return { gist, version: body.history[0].version, files };
}

describe('admin backup of a running server, then admin restore', () => {
  it('restores every write acknowledged before the backup began, fsck-clean; a second backup links unchanged objects', async () => {
    const live = await fx.freshDataDir('live');
    const liveArgs = ['--data', live.dir, ...live.args];
    const server = await fx.serve(['--port', '0', '--log-level', 'warn', ...liveArgs], ENV, 60_000);
    const api = (method: string, p: string, body?: unknown) => call(server.url, ADMIN, method, p, body);
    const sb = fx.sandbox;

    // Gists with a few revisions each.
    const acknowledged: Revision[] = [];
    const gists: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await api('POST', '/gists', { public: i !== 1, files: { 'notes.md': { content: `# gist ${i}\n` } } });
      expect(created.status).toBe(201);
      gists.push(created.body.id);
      acknowledged.push(revisionOf(created.body.id, created.body));
      for (let r = 1; r < 3; r++) {
        const edited = await api('PATCH', `/gists/${created.body.id}`, { files: { [`r${r}.txt`]: { content: `revision ${r}\n` } } });
        expect(edited.status).toBe(200);
        acknowledged.push(revisionOf(created.body.id, edited.body));
      }
    }
    // An organization with a repository (pushed to with stock git), a hook with a secret, and an export archive.
    expect((await api('POST', '/admin/organizations', { login: 'acme', admin: 'admin' })).status).toBe(201);
    expect((await api('POST', '/orgs/acme/repos', { name: 'tools', auto_init: true })).status).toBe(201);
    const repoUrl = (base: string) => withCredentials(`${base}/acme/tools.git`, 'admin', ADMIN);
    const work = path.join(sb.root, 'work');
    await git(['clone', '-q', repoUrl(server.url), work], sb.root);
    let pushes = 0;
    const push = async (): Promise<string> => {
      fs.writeFileSync(path.join(work, `f${pushes % 4}.txt`), `push ${pushes++}\n`);
      await git(['add', '-A'], work);
      await git(['commit', '-q', '-m', `push ${pushes}`], work);
      await git(['push', '-q', 'origin', 'HEAD:main'], work);
      return (await git(['rev-parse', 'HEAD'], work)).trim();
    };
    let pushed = await push();
    const hook = await api('POST', '/orgs/acme/hooks', {
      name: 'web',
      events: ['push'],
      config: { url: `${rcv.url}/acme`, content_type: 'json', secret: SECRET },
    });
    expect(hook.status).toBe(201);
    const migration = await api('POST', '/orgs/acme/migrations', { repositories: ['tools'] });
    expect(migration.status).toBe(201);
    await until(
      async () => (await api('GET', `/orgs/acme/migrations/${migration.body.id}`)).body.state,
      (s) => s === 'exported' || s === 'failed',
      'the export',
    );
    const archivePath = `/orgs/acme/migrations/${migration.body.id}/archive`;
    const archiveSha = await archiveDigest(server.url, ADMIN, archivePath);

    // The load: two PATCH writers and a pusher, until the backup is done.
    let began = false;
    let stop = false;
    let during = 0;
    const refused: string[] = [];
    const writer = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const id = gists[(n + i) % gists.length];
        const r = await api('PATCH', `/gists/${id}`, { files: { [`load${n}.txt`]: { content: `writer ${n} write ${i}\n` } } });
        if (r.status !== 200) refused.push(`${r.status} ${r.text}`);
        else if (!began) acknowledged.push(revisionOf(id, r.body));
        else during++;
      }
    };
    const pusher = async () => {
      while (!stop) {
        const sha = await push();
        if (!began) pushed = sha;
        else during++;
      }
    };
    const load = Promise.all([writer(0), writer(1), pusher()]);
    await until(
      async () => acknowledged.length,
      (n) => n >= 12,
      'the load to get going',
    );
    const backups = path.join(sb.root, 'backups');
    began = true;
    const backup = await runCli([...liveArgs, 'admin', 'backup', '--to', backups, '--include-secret-key'], {
      env: sb.env,
      timeoutMs: 180_000,
    });
    stop = true;
    await load;
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(refused).toEqual([]);
    expect(during).toBeGreaterThan(0); // the backup really ran beside writes
    const first = /^backup written to (\S+): /.exec(backup.stdout)![1];
    expect(path.dirname(first)).toBe(backups);
    expect(fs.readdirSync(backups)).toEqual([path.basename(first)]);

    // A second backup into the same folder: git objects unchanged since the first are the same files (hard links).
    const second = await runCli([...liveArgs, 'admin', 'backup', '--to', backups], { env: sb.env, timeoutMs: 180_000 });
    expect(second.code, second.stderr).toBe(0);
    const secondDir = /^backup written to (\S+): /.exec(second.stdout)![1];
    const firstVersion = acknowledged[0].version;
    const object = path.join('git', 'gists', `${gists[0]}.git`, 'objects', firstVersion.slice(0, 2), firstVersion.slice(2));
    expect(fs.statSync(path.join(secondDir, object)).ino).toBe(fs.statSync(path.join(first, object)).ino);
    const manifest = JSON.parse(fs.readFileSync(path.join(secondDir, 'manifest.json'), 'utf8'));
    expect(manifest.linked.from).toBe(path.basename(first));
    expect(manifest.linked.files).toBeGreaterThan(0);
    expect(manifest.secret_key).toBeNull();

    // Restore the backup taken under load into a new data dir (and a new, empty database on PostgreSQL).
    const restored = path.join(sb.root, 'restored');
    const target = onPostgres ? await scratchPostgresDatabase(process.env.HUBLET_TEST_DATABASE_URL!, 'hublet_restore') : undefined;
    if (target) scratch.push(target);
    const restoredArgs = ['--data', restored, ...(target ? ['--database', target.url] : [])];
    const restore = await runCli(['admin', 'restore', '--from', first, ...restoredArgs], { env: sb.env, timeoutMs: 180_000 });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`restored ${first}`);
    expect(fs.readFileSync(path.join(restored, 'secret.key'), 'utf8')).toBe(fs.readFileSync(path.join(live.dir, 'secret.key'), 'utf8'));
    expect(fs.statSync(path.join(restored, 'secret.key')).mode & 0o777).toBe(0o600);

    const fsck = await runCli([...restoredArgs, 'admin', 'fsck'], { env: sb.env, timeoutMs: 180_000 });
    expect({ code: fsck.code, stdout: fsck.stdout, stderr: fsck.stderr }).toEqual({
      code: 0,
      stdout: 'checked 3 gists and 1 repositories: no problems\n',
      stderr: '',
    });

    // A server on the restored installation serves what was acknowledged before the backup began.
    await server.stop();
    const again = await fx.serve(['--port', '0', '--log-level', 'warn', ...restoredArgs], ENV, 60_000);
    for (const rev of acknowledged) {
      const r = await call(again.url, ADMIN, 'GET', `/gists/${rev.gist}/${rev.version}`);
      expect(r.status, `${rev.gist} at ${rev.version}`).toBe(200);
      expect(revisionOf(rev.gist, r.body).files).toEqual(rev.files);
    }
    const copy = path.join(sb.root, 'restored-clone');
    await git(['clone', '-q', repoUrl(again.url), copy], sb.root);
    await git(['merge-base', '--is-ancestor', pushed, 'HEAD'], copy); // the last push acknowledged before, or later ones
    expect(await git(['fsck', '--no-progress'], copy)).toBe('');

    const mark = rcv.received.length;
    expect((await call(again.url, ADMIN, 'POST', `/orgs/acme/hooks/${hook.body.id}/pings`)).status).toBe(204);
    const ping = await until(
      async () => rcv.received.slice(mark).find((r) => r.headers['x-service-event'] === 'ping'),
      (r) => r !== undefined,
      'the ping',
    );
    expect(signaturesValid(ping!, SECRET)).toBe(true);
    expect(await archiveDigest(again.url, ADMIN, archivePath)).toBe(archiveSha);
  });
});
