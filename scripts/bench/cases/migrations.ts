// Migration export: 10 repositories of incompressible git data (500 MB in all; QUICK: 5 MB), from the start request to
// `exported`, against `git clone --mirror` + `tar czf` of the same repositories in the same round; and the server's RSS
// growth. The data is made once; each round restarts the server (so its peak RSS is this round's) and exports it again.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repositoryDir } from '../../../src/repos/git-data.js';
import { atMost, describeGoals } from '../goals.js';
import { peakRssMiB } from '../processes.js';
import { rowOf, type Round } from '../stats.js';
import type { BenchCase } from '../types.js';

const REPOS = 10;
const MB = 1024 * 1024;
const GOALS = [atMost('ratio', 1.5, '× the time of git clone --mirror + tar czf'), atMost('rssGrowthMiB', 100, ' MiB', 'RSS growth ')];
const TARGET = describeGoals(GOALS);

function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; input?: NodeJS.ReadableStream | (() => AsyncIterable<Buffer>) } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, stdio: [opts.input ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}: ${err}`))));
    if (typeof opts.input === 'function') {
      const source = opts.input();
      (async () => {
        for await (const chunk of source) if (!child.stdin!.write(chunk)) await new Promise((r) => child.stdin!.once('drain', r));
        child.stdin!.end();
      })().catch(reject);
    }
  });
}

/** A bare repository with one commit of `files` random 1 MB-or-smaller files, written by `git fast-import` uncompressed. */
async function randomRepo(dir: string, bytes: number): Promise<void> {
  const fileSize = Math.min(MB, bytes);
  const files = Math.ceil(bytes / fileSize);
  await run('git', ['init', '--quiet', '--bare', '--initial-branch=main', dir]);
  await run('git', ['-c', 'core.compression=0', '-c', 'pack.compression=0', 'fast-import', '--quiet'], {
    cwd: dir,
    input: async function* () {
      for (let i = 0; i < files; i++) {
        const blob = crypto.randomBytes(fileSize);
        yield Buffer.from(`blob\nmark :${i + 1}\ndata ${blob.length}\n`);
        yield blob;
        yield Buffer.from('\n');
      }
      const lines = Array.from({ length: files }, (_, i) => `M 100644 :${i + 1} data/blob-${String(i).padStart(4, '0')}.bin\n`).join('');
      yield Buffer.from(`commit refs/heads/main\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata 12\nrandom data\n${lines}\n`);
    },
  });
}

/** A line of /proc/<pid>/status (VmRSS, RssAnon, RssFile) in MiB. */
function statusMiB(pid: number, field = 'VmRSS'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

const rssMiB = (pid: number) => statusMiB(pid);

/** Downloads a migration's archive (the 302 to its signed URL, then the bytes) into `file`, streamed. */
async function downloadArchive(server: { url: string; adminToken: string }, archivePath: string, file: string): Promise<void> {
  const redirect = await fetch(`${server.url}${archivePath}`, {
    headers: { authorization: `Bearer ${server.adminToken}` },
    redirect: 'manual',
  });
  const location = redirect.headers.get('location');
  if (redirect.status !== 302 || !location) throw new Error(`GET ${archivePath}: ${redirect.status}`);
  const res = await fetch(location);
  if (res.status !== 200 || !res.body) throw new Error(`GET ${location}: ${res.status}`);
  const { Readable } = await import('node:stream');
  const { pipeline } = await import('node:stream/promises');
  await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), fs.createWriteStream(file));
}

// The time is reported as a ratio to `git clone --mirror` of the same repositories, which hardlinks a local path's objects
// (an import writes every byte and hashes it twice: unpacking, then git fsck); the goal is the memory's.
const IMPORT_GOALS = [atMost('rssGrowthMiB', 100, ' MiB', 'RSS growth ')];
const IMPORT_TARGET = describeGoals(IMPORT_GOALS);

/**
 * Migration import: the archive the export case makes (10 repositories of incompressible git data, 500 MB; QUICK: 5 MB),
 * streamed to POST /admin/migrations/import, against `git clone --mirror` of the same repositories in the same round;
 * and the server's RSS growth. Each round restarts the server, imports, measures, then deletes what it imported.
 */
const migrationImportCase: BenchCase = {
  name: 'migration import: 10 repositories, 500 MB of git data',
  target: IMPORT_TARGET,
  goals: IMPORT_GOALS,
  freshServer: true,
  async run(ctx) {
    const total = (Number(process.env.HUBLET_BENCH_MIGRATION_MB) || (ctx.quick ? 5 : 500)) * MB;
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-bench-import-'));
    const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;
    try {
      const names = Array.from({ length: REPOS }, (_, i) => `data-${i}`);
      for (const name of names) {
        const source = path.join(work, 'sources', `${name}.git`);
        await randomRepo(source, total / REPOS);
        await ctx.api('POST', '/admin/repos/import', { owner: 'admin', name, path: source });
        fs.rmSync(source, { recursive: true, force: true });
      }
      let m = await ctx.api('POST', '/user/migrations', { repositories: names });
      while (m.state !== 'exported') {
        if (m.state === 'failed') throw new Error(`export failed: ${m.failure_reason}`);
        await new Promise((r) => setTimeout(r, 100));
        m = await ctx.api('GET', `/user/migrations/${m.id}`);
      }
      const archive = path.join(work, 'archive.tar.gz');
      await downloadArchive(ctx.server, `/user/migrations/${m.id}/archive`, archive);
      const archiveMB = round(fs.statSync(archive).size / MB, 1);
      const removeAll = async () => {
        for (const name of names) await ctx.api('DELETE', `/repos/admin/${name}`);
      };
      await removeAll();
      const { request } = await import('undici');
      const rounds: Round[] = [];
      let lastPeak: number | null = null;
      for (let r = 0; r < ctx.rounds; r++) {
        await ctx.server.restart();
        const rssBefore = rssMiB(ctx.server.pid);
        const t0 = performance.now();
        const res = await request(`${ctx.server.url}/admin/migrations/import`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${ctx.server.adminToken}`,
            'content-type': 'application/gzip',
            accept: 'application/vnd.service+json',
          },
          body: fs.createReadStream(archive, { highWaterMark: 256 * 1024 }),
        });
        const answer = (await res.body.json()) as { counts?: { model_name: string; imported: number }[] };
        if (res.statusCode !== 201) throw new Error(`import: ${res.statusCode} ${JSON.stringify(answer)}`);
        const hubletSeconds = (performance.now() - t0) / 1000;
        const peakAfter = peakRssMiB(ctx.server.pid) ?? NaN;
        const imported = answer.counts?.find((c) => c.model_name === 'repository')?.imported;
        if (imported !== REPOS) throw new Error(`imported ${imported} repositories, not ${REPOS}`);

        // The baseline: the same repositories mirrored one after another from where the import put them.
        const staging = path.join(work, 'baseline');
        const t1 = performance.now();
        for (const name of names) {
          const repo = await ctx.api('GET', `/repos/admin/${name}`);
          await run('git', [
            'clone',
            '--quiet',
            '--mirror',
            repositoryDir(ctx.server.dataDir, repo.id as number),
            path.join(staging, `${name}.git`),
          ]);
        }
        const baselineSeconds = (performance.now() - t1) / 1000;
        fs.rmSync(staging, { recursive: true, force: true });
        await removeAll();
        rounds.push({
          value: round(total / MB / hubletSeconds, 1),
          ratio: round(hubletSeconds / baselineSeconds, 3),
          rssGrowthMiB: peakAfter - rssBefore,
          hubletSeconds: round(hubletSeconds),
          baselineSeconds: round(baselineSeconds),
          rssBefore,
          peakAfter,
        });
        lastPeak = peakAfter;
      }
      const each = rounds
        .map((r) => `import ${r.hubletSeconds} s vs ${r.baselineSeconds} s, RSS ${r.rssBefore} → ${r.peakAfter} MiB`)
        .join('; ');
      return rowOf({
        case: `migration import: 10 repositories, ${total / MB} MB of git data${ctx.quick ? ' (QUICK)' : ''}`,
        unit: 'MB/s',
        rounds,
        ratioOf: 'time',
        peakRssMiB: lastPeak,
        goals: IMPORT_GOALS,
        target: IMPORT_TARGET,
        note: `hublet import (unpack, git fsck, move into place) of a ${archiveMB} MB archive vs git clone --mirror, server RSS at rest → peak: ${each}`,
        details: { bytes: total, archiveMB },
      });
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  },
};

export const migrationCases: BenchCase[] = [
  {
    name: 'migration export: 10 repositories, 500 MB of git data',
    target: TARGET,
    goals: GOALS,
    freshServer: true,
    async run(ctx) {
      // HUBLET_BENCH_MIGRATION_MB overrides the size (experiments); the table's case is 500 MB.
      const total = (Number(process.env.HUBLET_BENCH_MIGRATION_MB) || (ctx.quick ? 5 : 500)) * MB;
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-bench-git-'));
      try {
        const names: string[] = [];
        const ids: number[] = [];
        for (let i = 0; i < REPOS; i++) {
          const name = `data-${i}`;
          const source = path.join(work, 'sources', `${name}.git`);
          await randomRepo(source, total / REPOS);
          const repo = await ctx.api('POST', '/admin/repos/import', { owner: 'admin', name, path: source });
          names.push(name);
          ids.push(repo.id as number);
          fs.rmSync(source, { recursive: true, force: true });
        }
        const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;
        const rounds: Round[] = [];
        const timelines: [number, number, number, number][][] = [];
        let lastPeak: number | null = null;
        for (let r = 0; r < ctx.rounds; r++) {
          // A server at rest: the imports' (or the last round's) work is not part of the peak measured from here.
          await ctx.server.restart();
          const rssBefore = rssMiB(ctx.server.pid);

          // The server's RSS through the export, for the record (when memory grows: copying git data, or packing).
          const timeline: [number, number, number, number][] = [];
          const sampler = setInterval(
            () =>
              timeline.push([
                Math.round(performance.now() - t0),
                rssMiB(ctx.server.pid),
                statusMiB(ctx.server.pid, 'RssAnon'),
                statusMiB(ctx.server.pid, 'RssFile'),
              ]),
            250,
          );
          const t0 = performance.now();
          let m = await ctx.api('POST', '/user/migrations', { repositories: names });
          while (m.state !== 'exported') {
            if (m.state === 'failed') throw new Error(`export failed: ${m.failure_reason}`);
            // A client polls now and then; polling every 25 ms added its own garbage (~45 MB of the server's peak) and CPU.
            await new Promise((r) => setTimeout(r, 100));
            m = await ctx.api('GET', `/user/migrations/${m.id}`);
          }
          const hubletSeconds = (performance.now() - t0) / 1000;
          clearInterval(sampler);
          const peakAfter = peakRssMiB(ctx.server.pid) ?? NaN;
          if (!m.archive_url) throw new Error('exported without an archive_url');

          // The baseline: the same repositories mirrored one after another, then one tar czf.
          const staging = path.join(work, 'baseline');
          const tarball = path.join(work, 'baseline.tar.gz');
          const t1 = performance.now();
          for (let i = 0; i < REPOS; i++) {
            await run('git', [
              'clone',
              '--quiet',
              '--mirror',
              repositoryDir(ctx.server.dataDir, ids[i]),
              path.join(staging, 'repositories', 'admin', `${names[i]}.git`),
            ]);
          }
          await run('tar', ['czf', tarball, '-C', staging, '.']);
          const baselineSeconds = (performance.now() - t1) / 1000;
          const archiveMB = round(fs.statSync(tarball).size / MB, 1);
          fs.rmSync(staging, { recursive: true, force: true });
          fs.rmSync(tarball, { force: true });

          rounds.push({
            value: round(total / MB / hubletSeconds, 1),
            ratio: round(hubletSeconds / baselineSeconds, 3),
            rssGrowthMiB: peakAfter - rssBefore,
            hubletSeconds: round(hubletSeconds),
            baselineSeconds: round(baselineSeconds),
            rssBefore,
            peakAfter,
            archiveMB,
          });
          timelines.push(timeline);
          lastPeak = peakAfter;
        }
        const each = rounds
          .map((r) => `export ${r.hubletSeconds} s vs ${r.baselineSeconds} s, RSS ${r.rssBefore} → ${r.peakAfter} MiB`)
          .join('; ');
        return rowOf({
          case: `migration export: 10 repositories, ${total / MB} MB of git data${ctx.quick ? ' (QUICK)' : ''}`,
          unit: 'MB/s',
          rounds,
          ratioOf: 'time',
          // The last round's peak (each round restarts the server; the spread of growth is in stats.rssGrowthMiB).
          peakRssMiB: lastPeak,
          goals: GOALS,
          target: TARGET,
          note: `hublet export vs clone --mirror + tar czf (${rounds[0]?.archiveMB} MB archive), server RSS at rest → peak: ${each}`,
          details: { bytes: total, rssTimelines: timelines },
        });
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
    },
  },
  migrationImportCase,
];
