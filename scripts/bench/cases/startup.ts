// Start-up: `hublet --version`, and `hublet serve` on a fresh data dir until it prints that it listens (median of N runs).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { atMost, describeGoals } from '../goals.js';
import { hubletCommand } from '../processes.js';
import { rowOf } from '../stats.js';
import type { BenchCase, BenchContext, CaseResult } from '../types.js';

const GOALS = { version: [atMost('value', 150, ' ms')], serve: [atMost('value', 500, ' ms')] };

/** Milliseconds from spawn until `done` says so (or the process exits 0 when no pattern is given). */
function timeRun(args: string[], env: NodeJS.ProcessEnv, until?: RegExp): Promise<number> {
  const { cmd, args: pre } = hubletCommand();
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, [...pre, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let elapsed: number | undefined;
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (until && elapsed === undefined && until.test(out)) {
        elapsed = performance.now() - t0;
        child.kill('SIGTERM');
      }
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (until) return elapsed === undefined ? reject(new Error(`exited with ${code} before ready: ${out}`)) : resolve(elapsed);
      return code === 0 ? resolve(performance.now() - t0) : reject(new Error(`exited with ${code}: ${out}`));
    });
  });
}

async function startupCase(ctx: BenchContext, what: 'version' | 'serve'): Promise<CaseResult> {
  const runs = ctx.quick ? 3 : 11;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-bench-start-'));
  // The single executable unpacks its sqlite3 addon into the cache on first use: one untimed run fills it.
  const env = { ...process.env, XDG_CACHE_HOME: path.join(root, 'cache'), HUBLET_LOG_LEVEL: 'warn' };
  try {
    const once = (i: number) =>
      what === 'version'
        ? timeRun(['--version'], env)
        : timeRun(['--data', path.join(root, `data-${i}`), 'serve', '--port', '0'], env, /hublet listening on/);
    await once(-1);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await once(i));
    // Each run is a round: the row shows their median with min–max.
    return rowOf({
      case: what === 'version' ? `${hubletCommand().label} --version` : `${hubletCommand().label} serve until ready (fresh data dir)`,
      unit: 'ms',
      rounds: times.map((t) => ({ value: Math.round(t * 10) / 10 })),
      goals: GOALS[what],
      target: describeGoals(GOALS[what]),
      note: `median of ${runs} runs`,
    });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export const startupCases: BenchCase[] = [
  {
    name: 'hublet --version',
    target: describeGoals(GOALS.version),
    goals: GOALS.version,
    noServer: true,
    run: (ctx) => startupCase(ctx, 'version'),
  },
  {
    name: 'hublet serve until ready',
    target: describeGoals(GOALS.serve),
    goals: GOALS.serve,
    noServer: true,
    run: (ctx) => startupCase(ctx, 'serve'),
  },
];
