#!/usr/bin/env bash
# Instructions per request of POST /gists (and GET /gists/{id}, a cached read, as a control) for two builds of hublet,
# counted by valgrind's callgrind: a count does not depend on how loaded the machine is, unlike requests per second.
#
# Usage: scripts/bench/callgrind-ab.sh BEFORE AFTER [OUT.json]
#   BEFORE, AFTER: a git revision (checked out into a temporary worktree whose node_modules links to this checkout's,
#   then built with scripts/build-dist.mjs --force: the revision's dependencies must be installed here) or a directory
#   that holds a built dist/hublet. OUT defaults to bench/results/callgrind-post-ab.json.
#   Example: scripts/bench/callgrind-ab.sh 8cdb34e HEAD
# Environment: N (measured requests per batch, 500), WARM (warm-up requests of each kind, 1000: V8 still optimises
#   functions as they turn hot for thousands of requests, and its compiling is part of what a batch counts), REPEATS (2),
#   MODES ("dist jit interpreter"): dist runs dist/hublet as shipped: V8 compiles on background threads and sizes its
#   heap from timings, so how much of the work runs unoptimised and when the heap is collected depend on the machine's
#   load, and counts vary by ±10% from run to run. jit and interpreter run the same source through bin/hublet under
#   node --single-threaded --predictable-gc-schedule --no-memory-reducer (compilation on the main thread when a function
#   turns hot, a fixed garbage-collection schedule: counts that repeat), interpreter with --no-opt as well (bytecode and
#   Sparkplug only). `node --jitless` is no option: hublet cannot start without WebAssembly (undici's llhttp needs it).
#   QUIET_SEC (10: the idle window checked before each batch), TAIL_SEC (30: the wait after a batch's last request
#   before the dump, so the work the batch set off in V8's background threads is counted), KEEP (a directory: the POST
#   and GET dumps are copied there, for callgrind_annotate).
#
# Each run starts the server on a fresh SQLite data dir under callgrind (all threads counted together, so the SQLite
# and file-system work in libuv's pool is in), creates a user and a gist-scoped token through the admin API, warms up
# with WARM creates and WARM reads, waits until the server is quiet, then zeroes the counters (callgrind_control -z),
# sends N creates one after another over one keep-alive connection, waits TAIL_SEC and dumps (callgrind_control -d):
# the dump holds those N requests only. The same for N reads of one gist. The idle server must cost nothing, or a
# batch's count would grow with its wall-clock time (valgrind stretches it ~50×, more on a loaded machine): the job
# worker polls the database every 250 ms, so a preload (NODE_OPTIONS=--require, written below) stretches every 250 ms
# timer, the worker's tick and the server's only timer that fires while idle, to an hour (nothing these requests do
# enqueues a job). "Quiet" is an idle window of QUIET_SEC below 1 M instructions a second (V8 may still be compiling
# after the warm-up); every run records the idle rate it started from. Each batch's count is split into main thread,
# TurboFan and other threads (callgrind_annotate). Runs alternate before/after; the modes run side by side. Under
# valgrind a run takes 5–25 minutes.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
for tool in valgrind callgrind_control node git; do
  command -v "$tool" >/dev/null || { echo "callgrind-ab: $tool is missing (apt-get install valgrind)" >&2; exit 1; }
done
work=$(mktemp -d /tmp/callgrind-ab.XXXXXX)
worktrees=()
cleanup() {
  for wt in "${worktrees[@]}"; do git -C "$root" worktree remove --force "$wt" || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# A directory with dist/hublet is used as it is; anything else is a revision to check out and build. Sets $built.
side() {
  local arg=$1 name=$2
  if [ -x "$arg/dist/hublet" ]; then built=$(cd "$arg" && pwd); return; fi
  built="$work/$name"
  git -C "$root" worktree add --detach "$built" "$arg" >&2
  worktrees+=("$built")
  ln -s "$root/node_modules" "$built/node_modules"
  (cd "$built" && node scripts/build-dist.mjs --force >&2)
}
[ $# -ge 2 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
side "$1" before; before=$built
side "$2" after; after=$built
out=${3:-$root/bench/results/callgrind-post-ab.json}

cat >"$work/quiet-job-worker.cjs" <<'PRELOAD'
// Preloaded by scripts/bench/callgrind-ab.sh into the measured server: a 250 ms timer (the job worker's periodic tick)
// waits an hour instead, so the counted instructions are the requests' own.
const original = globalThis.setTimeout;
const stretched = function setTimeout(fn, ms, ...args) {
  return original.call(this, fn, ms === 250 ? 3_600_000 : ms, ...args);
};
Object.defineProperties(stretched, Object.getOwnPropertyDescriptors(original));
globalThis.setTimeout = stretched;
PRELOAD

node - "$before" "$after" "$out" "$work" <<'JS'
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const [, , beforeDir, afterDir, outFile, work] = process.argv;
const N = Number(process.env.N ?? 500);
const WARM = Number(process.env.WARM ?? 1000);
const REPEATS = Number(process.env.REPEATS ?? 2);
const MODES = (process.env.MODES ?? 'dist jit interpreter').split(/\s+/).filter(Boolean);
const QUIET_SEC = Number(process.env.QUIET_SEC ?? 10);
const TAIL_SEC = Number(process.env.TAIL_SEC ?? 30);
const QUIET_RATE = 1_000_000;
const KEEP = process.env.KEEP;
const ADMIN = 'callgrindab0000000000000000000000000admin';
const CREATE_BODY = JSON.stringify({ description: 'created under callgrind', public: true, files: { 'a.txt': { content: 'first file\n' }, 'b.md': { content: '# second\n' } } });

const sides = { before: beforeDir, after: afterDir };
const commitOf = (dir) => {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
};

/** Sends one request and checks its status; returns the parsed body (or null). */
async function call(url, method, p, token, body, expected) {
  const res = await fetch(url + p, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.service+json', ...(body ? { 'content-type': 'application/json' } : {}) },
    body,
  });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${method} ${p}: ${res.status} (expected ${expected}): ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** The newest callgrind dump in dir. */
function lastDump(dir) {
  const dumps = fs.readdirSync(dir).filter((f) => /^callgrind\.out\.\d+$/.test(f)).sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()));
  return path.join(dir, dumps.at(-1));
}

/** The total instruction count of a callgrind dump. */
function dumpTotal(file) {
  const m = /^(?:totals|summary): (\d+)/m.exec(fs.readFileSync(file, 'utf8'));
  if (!m) throw new Error(`no totals in ${file}`);
  return Number(m[1]);
}

const control = (flag, pid) => execFileSync('callgrind_control', [flag, String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

/**
 * Where a dump's instructions went: the main thread (JavaScript, V8's runtime, main-thread GC) and every other thread
 * (libuv's pool: SQLite, file writes; V8's compiler and GC helpers); and, across both, TurboFan (V8's optimising
 * compiler, on background threads unless --single-threaded: it keeps compiling functions as they turn hot, thousands
 * of requests after start).
 */
function breakdown(file, total) {
  const out = execFileSync('callgrind_annotate', ['--inclusive=yes', '--auto=no', file], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  const inclusive = (re) => {
    const line = out.split('\n').find((l) => re.test(l));
    return line ? Number(line.trim().split(/\s+/)[0].replaceAll(',', '')) : 0;
  };
  const mainThread = inclusive(/\?\?\?:main \[/);
  // Its compile jobs on background threads; under --single-threaded the whole compile runs inside CompileOptimized.
  const turbofan = inclusive(/v8::internal::OptimizedCompilationJob::ExecuteJob\(/) || inclusive(/v8::internal::Compiler::CompileOptimized\(/);
  return { mainThread, otherThreads: total - mainThread, turbofan };
}

/**
 * Zeroes the counters, runs fn, waits tailSec, dumps: the instructions fn's requests cost the server, and how long
 * the requests took.
 */
async function counted(pid, dir, fn, tailSec, keepAs) {
  control('-z', pid);
  const t0 = performance.now();
  await fn();
  const seconds = (performance.now() - t0) / 1000;
  await sleep(tailSec * 1000);
  control('-d', pid);
  const file = lastDump(dir);
  if (KEEP && keepAs) {
    fs.mkdirSync(KEEP, { recursive: true });
    fs.copyFileSync(file, path.join(KEEP, `${keepAs}.callgrind`));
  }
  const instructions = dumpTotal(file);
  return { instructions, seconds: Math.round(seconds * 10) / 10, ...(keepAs ? breakdown(file, instructions) : {}) };
}

/** The command that runs a side's hublet in a mode. */
function hubletCommand(sideDir, mode) {
  const source = path.join(sideDir, 'bin', 'hublet');
  const predictable = ['--single-threaded', '--predictable-gc-schedule', '--no-memory-reducer'];
  switch (mode) {
    case 'dist':
      return [path.join(sideDir, 'dist', 'hublet')];
    case 'jit':
      return [process.execPath, ...predictable, source];
    case 'interpreter':
      return [process.execPath, ...predictable, '--no-opt', source];
    default:
      throw new Error(`unknown mode ${mode}: dist, jit or interpreter`);
  }
}

async function run(sideName, mode, repeat) {
  const dir = fs.mkdtempSync(path.join(work, `${sideName}-${mode}-${repeat}-`));
  const command = hubletCommand(sides[sideName], mode);
  const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${dir}/callgrind.out`, ...command, '--data', `${dir}/data`, 'serve', '--port', '0', '--log-level', 'warn'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      HUBLET_ADMIN_TOKEN: ADMIN,
      HUBLET_RATE_LIMIT: '10000000',
      HUBLET_RATE_LIMIT_ANONYMOUS: '10000000',
      NODE_OPTIONS: `--require ${path.join(work, 'quiet-job-worker.cjs')}`,
    },
  });
  let log = '';
  child.stderr.on('data', (d) => { log += d; });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /hublet listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}${log.slice(-2000)}`)));
  });
  try {
    const login = 'bench';
    await call(url, 'POST', '/admin/users', ADMIN, JSON.stringify({ login }), 201);
    const { token } = await call(url, 'POST', `/admin/users/${login}/authorizations`, ADMIN, JSON.stringify({ scopes: ['gist'] }), 201);
    const { id } = await call(url, 'POST', '/gists', token, CREATE_BODY, 201);
    const create = () => call(url, 'POST', '/gists', token, CREATE_BODY, 201);
    const read = () => call(url, 'GET', `/gists/${id}`, token, undefined, 200);
    for (let i = 0; i < WARM; i++) await create();
    for (let i = 0; i < WARM; i++) await read();
    // Waits for an idle window below QUIET_RATE (six tries at most); returns the last window's rate.
    const quiet = async () => {
      let rate = Infinity;
      for (let i = 0; i < 6 && rate >= QUIET_RATE; i++) {
        const c = await counted(child.pid, dir, () => sleep(QUIET_SEC * 1000), 0);
        rate = Math.round(c.instructions / c.seconds);
      }
      return rate;
    };
    const keep = `${sideName}-${mode}-${repeat}`;
    const per = (c, idleBefore) => {
      const perRequest = (x) => Math.round(x / N);
      return {
        ...c,
        requests: N,
        idleBefore,
        perRequest: perRequest(c.instructions),
        mainThreadPerRequest: perRequest(c.mainThread),
        turbofanPerRequest: perRequest(c.turbofan),
        withoutTurbofanPerRequest: perRequest(c.instructions - c.turbofan),
      };
    };
    const postIdle = await quiet();
    const post = per(await counted(child.pid, dir, async () => { for (let i = 0; i < N; i++) await create(); }, TAIL_SEC, `${keep}-post`), postIdle);
    const getIdle = await quiet();
    const get = per(await counted(child.pid, dir, async () => { for (let i = 0; i < N; i++) await read(); }, TAIL_SEC, `${keep}-get`), getIdle);
    return { side: sideName, commit: commitOf(sides[sideName]), mode, command: command.map((c) => (c.startsWith('/') ? path.relative(sides[sideName], c) : c)).join(' '), repeat, post, get };
  } finally {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(60_000).then(() => child.kill('SIGKILL'))]);
  }
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
// The modes run side by side (one server each under valgrind: two cores' worth), each mode's runs one after another:
// the counts do not depend on the load.
const runs = [];
await Promise.all(
  MODES.map(async (mode) => {
    for (let repeat = 1; repeat <= REPEATS; repeat++) {
      for (const sideName of repeat % 2 ? ['before', 'after'] : ['after', 'before']) {
        const r = await run(sideName, mode, repeat);
        const line = (c) => `${c.perRequest.toLocaleString()} Ir/req (main thread ${c.mainThreadPerRequest.toLocaleString()}, TurboFan ${c.turbofanPerRequest.toLocaleString()}; ${c.seconds} s)`;
        console.error(`${sideName} ${mode} #${repeat}: POST ${line(r.post)}; GET ${line(r.get)}; idle before ${r.post.idleBefore.toLocaleString()} / ${r.get.idleBefore.toLocaleString()} Ir/s`);
        runs.push(r);
      }
    }
  }),
);
runs.sort((a, b) => MODES.indexOf(a.mode) - MODES.indexOf(b.mode) || a.repeat - b.repeat);

const summary = {};
for (const mode of MODES) {
  summary[mode] = {};
  for (const kind of ['post', 'get']) {
    const of = (s, field) => runs.filter((r) => r.mode === mode && r.side === s).map((r) => r[kind][field]);
    const compare = (field) => {
      const b = of('before', field);
      const a = of('after', field);
      return { before: Math.round(mean(b)), after: Math.round(mean(a)), ratio: Math.round((mean(a) / mean(b)) * 1000) / 1000, beforeRuns: b, afterRuns: a };
    };
    summary[mode][kind] = {
      total: compare('perRequest'),
      withoutTurbofan: compare('withoutTurbofanPerRequest'),
      mainThread: compare('mainThreadPerRequest'),
      turbofan: compare('turbofanPerRequest'),
    };
  }
}

const result = {
  format:
    'callgrind-ab v2: instructions (valgrind callgrind Ir, every thread of the server process) per request. A batch is N requests sent one after another over one keep-alive connection, counted from callgrind_control -z before the first to callgrind_control -d TAIL_SEC s after the last (so the JIT work the batch set off is in), after WARM creates and WARM reads and after an idle window of QUIET_SEC s below 1 M Ir/s (runs[].post|get.idleBefore, Ir/s). POST /gists creates a public gist of 2 small files; GET /gists/{id} reads one gist again and again (answered from the response cache). The server runs with a preload that stretches 250 ms timers (the job worker\'s periodic poll) to an hour, so the idle server costs ~0. runs[].post|get: instructions, seconds (the requests only), perRequest = instructions / N; mainThreadPerRequest: the main thread (JavaScript, V8 runtime, main-thread GC; callgrind_annotate --inclusive of main), the rest being other threads (libuv\'s pool: SQLite, file writes; V8\'s compiler and GC helpers); turbofanPerRequest: V8\'s optimising compiler wherever it ran (inclusive of OptimizedCompilationJob::ExecuteJob, its background jobs in dist mode; of Compiler::CompileOptimized, the whole compile on the main thread, in jit mode), still compiling functions as they turn hot thousands of requests after start; withoutTurbofanPerRequest = perRequest - turbofanPerRequest. summary[mode][kind].total, .withoutTurbofan, .mainThread, .turbofan: each side\'s mean over its runs of perRequest, withoutTurbofanPerRequest, mainThreadPerRequest, turbofanPerRequest, and ratio = after / before. Modes: dist = dist/hublet as shipped (V8 compiles on background threads and sizes its heap from timings: counts vary by about ±10% with the machine\'s load); jit = bin/hublet (the same source through tsx) under node --single-threaded --predictable-gc-schedule --no-memory-reducer (optimising compiler on the main thread, fixed GC schedule: repeatable); interpreter = the same plus --no-opt (no optimising compiler). Produced by scripts/bench/callgrind-ab.sh.',
  at: new Date().toISOString(),
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${execFileSync('valgrind', ['--version'], { encoding: 'utf8' }).trim()}, SQLite`,
  settings: { N, WARM, REPEATS, MODES, QUIET_SEC, TAIL_SEC },
  before: { dir: beforeDir, commit: commitOf(beforeDir) },
  after: { dir: afterDir, commit: commitOf(afterDir) },
  summary,
  runs,
};
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, `${JSON.stringify(result, null, 2)}\n`);
console.error(JSON.stringify(summary, null, 2));
console.error(`callgrind-ab: wrote ${outFile}`);
JS
