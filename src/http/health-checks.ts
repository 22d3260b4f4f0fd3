// What GET /_health/ready checks, all at once and each within 2 s: the database answers, the schema migrations applied
// are exactly the ones this hublet knows, the data dir takes a new file, the archive store answers; and `serve` stopping.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { archiveStore } from '../blob/index.js';
import type { AppContext } from '../core/context.js';
import { schemaMigrations } from '../db/schema-migrations/index.js';

interface CheckResult {
  status: 'pass' | 'fail';
  error?: string;
}

export interface ReadyReport {
  status: 'pass' | 'fail';
  checks: Record<string, CheckResult>;
}

type Checked = Pick<AppContext, 'db' | 'config'>;

/** Each check's budget: a check that does not answer in time fails (and the answer never waits longer). */
const CHECK_TIMEOUT_MS = 2000;

/** The object the archive check looks up: its absence is the usual answer, and proves the store answers. */
const PROBE_KEY = 'health-check';

const CHECKS: Record<string, (ctx: Checked) => Promise<void>> = {
  async database({ db }) {
    await sql`select 1`.execute(db);
  },
  async migrations({ db }) {
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const applied = new Set(rows.rows.map((r) => r.name));
    const missing = Object.keys(schemaMigrations).filter((name) => !applied.has(name));
    if (missing.length) throw new Error(`not applied: ${missing.sort().join(', ')}`);
    const unknown = [...applied].filter((name) => !(name in schemaMigrations));
    if (unknown.length) throw new Error(`applied by a newer hublet: ${unknown.sort().join(', ')}`);
  },
  async data_dir({ config }) {
    const file = path.join(config.dataDir, `.health-${process.pid}-${crypto.randomBytes(6).toString('hex')}`);
    await fs.promises.writeFile(file, 'ok\n', { flag: 'wx' });
    await fs.promises.unlink(file);
  },
  async archive_store({ config }) {
    // `none`: nothing to reach (starting a migration is refused, as configured).
    await archiveStore(config)?.stat(PROBE_KEY);
  },
};

/** Why a check failed, fit for an anonymous caller: an errno code alone (no path, no address), else the message. */
function reason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^E[A-Z0-9]+$/.test(code)) return code;
  const message = err instanceof Error ? err.message : String(err);
  return message.slice(0, 300) || 'failed';
}

async function run(check: (ctx: Checked) => Promise<void>, ctx: Checked): Promise<CheckResult & { cause?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(ctx), timeout]);
    return { status: 'pass' };
  } catch (err) {
    return { status: 'fail', error: reason(err), cause: err };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The app's readiness: the checks' report, one run at a time however many callers ask at once (a burst of probes costs
 * one run); once `serve` is stopping, a failing report without running anything. A change of state is logged once
 * (failing: a warning naming each failed check and its full error), not each probe.
 */
export class Readiness {
  private stoppingOn: string | undefined;
  private running: Promise<ReadyReport> | undefined;
  private lastStatus: ReadyReport['status'] = 'pass';

  /** `ctx` is read at each run: its config may be replaced after listen. */
  constructor(private readonly ctx: AppContext) {}

  /** From now on the report fails (`serve` received `signal` and is about to stop accepting requests). */
  stop(signal: string): void {
    this.stoppingOn ??= signal;
  }

  report(): Promise<ReadyReport> {
    if (this.stoppingOn !== undefined) {
      return Promise.resolve({
        status: 'fail',
        checks: { shutdown: { status: 'fail', error: `the server is stopping (${this.stoppingOn})` } },
      });
    }
    this.running ??= this.runAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async runAll(): Promise<ReadyReport> {
    const names = Object.keys(CHECKS);
    const results = await Promise.all(names.map((name) => run(CHECKS[name], this.ctx)));
    const checks: Record<string, CheckResult> = {};
    const causes: Record<string, string> = {};
    results.forEach(({ cause, ...result }, i) => {
      checks[names[i]] = result;
      if (cause !== undefined) causes[names[i]] = cause instanceof Error ? cause.message : String(cause);
    });
    const status = results.every((r) => r.status === 'pass') ? 'pass' : 'fail';
    if (status !== this.lastStatus) {
      if (status === 'fail') this.ctx.log.warn({ checks: causes }, `not ready: ${Object.keys(causes).join(', ')} failing`);
      else this.ctx.log.info('ready again: every check passes');
      this.lastStatus = status;
    }
    return { status, checks };
  }
}
