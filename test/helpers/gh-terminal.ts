// Runs a program at a pseudo-terminal, as a person at a terminal would, through util-linux `script` (no native module):
// what it prints is collected, the test types into it, and the cursor-position queries (ESC[6n, a Device Status
// Report) that survey's prompts in gh send are answered as a terminal does (ESC[row;colR). A missing `script` fails
// the test with what to install.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

const SCRIPT = '/usr/bin/script';
const ROWS = 40;
const COLUMNS = 120;
const QUERY = '\x1b[6n';
/** How long the program prints nothing before a prompt counts as waiting for keys. */
const QUIET_MS = 300;

export interface Terminal {
  /** Everything the program printed so far, escape sequences and all. */
  raw(): string;
  /** What a person sees of it: escape sequences removed, line endings as \n. */
  text(): string;
  /** Resolves with the first match of `pattern` in text(); rejects with the whole output after `timeoutMs` or at exit. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /**
   * Waits for a prompt and for the terminal queries it sends (`queries`, counted since the last answer: survey's
   * prompts send 2, for the terminal's size and the cursor's position), then for the program to fall quiet (its
   * keyboard read begun), then types `keys` (a carriage return is Enter). Keys typed earlier can be lost: survey reads
   * a query's reply with a buffered reader of its own and drops what came after it, and before its raw mode an Enter
   * arrives as a line feed, which is no Enter to it.
   */
  answer(prompt: RegExp, keys: string, opts?: { queries?: number; timeoutMs?: number }): Promise<RegExpMatchArray>;
  /** The program's end: script's exit code is the program's (-e). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): void;
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `argv` at a terminal of 40 rows and 120 columns, with exactly `env` (and TERM) as its environment. */
export function startAtTerminal(argv: string[], opts: { env: Record<string, string | undefined>; cwd?: string }): Terminal {
  if (!fs.existsSync(SCRIPT))
    throw new Error(`util-linux \`script\` is missing at ${SCRIPT}: apt-get install -y util-linux (it gives the program a terminal)`);
  const env: NodeJS.ProcessEnv = { TERM: 'xterm-256color' };
  for (const [k, v] of Object.entries(opts.env)) if (v !== undefined) env[k] = v;
  const command = `stty rows ${ROWS} cols ${COLUMNS}; exec ${argv.map(quote).join(' ')}`;
  const child = spawn(SCRIPT, ['-qfec', command, '/dev/null'], { cwd: opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let raw = '';
  let lastOutput = Date.now();
  /** Terminal queries seen (and answered) so far. */
  let queries = 0;
  let done = false;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of listeners) l();
  };
  const onOutput = (chunk: string) => {
    raw += chunk;
    lastOutput = Date.now();
    // Each query gets its reply: the cursor somewhere inside the terminal (survey only lays its prompt out by it).
    const seen = raw.split(QUERY).length - 1;
    for (; queries < seen; queries++) child.stdin.write(`\x1b[${ROWS - 5};1R`);
    notify();
  };
  child.stdout.setEncoding('utf8').on('data', onOutput);
  child.stderr.setEncoding('utf8').on('data', onOutput);
  child.stdin.on('error', () => {});
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      done = true;
      child.stdin.destroy();
      resolve({ code, signal });
      notify();
    });
  });
  const text = () => stripVTControlCharacters(raw).replace(/\r\n?/g, '\n');

  /** Resolves with what `check` finds, once it finds something; rejects saying `what` at exit or after `timeoutMs`. */
  const until = <T>(check: () => T | undefined, what: string, timeoutMs: number) =>
    new Promise<T>((resolve, reject) => {
      const finish = (then: () => void) => {
        clearTimeout(timer);
        listeners.delete(look);
        then();
      };
      const look = () => {
        const found = check();
        if (found !== undefined) finish(() => resolve(found));
        else if (done) finish(() => reject(new Error(`the program exited before ${what}; it printed:\n${text()}`)));
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`no ${what} after ${timeoutMs} ms; the program printed:\n${text()}`))),
        timeoutMs,
      );
      listeners.add(look);
      look();
    });

  let queriesBefore = 0;
  const terminal: Terminal = {
    raw: () => raw,
    text,
    waitFor: (pattern, timeoutMs = 30_000) => until(() => pattern.exec(text()) ?? undefined, `printing ${pattern}`, timeoutMs),
    async answer(prompt, keys, o = {}) {
      const timeoutMs = o.timeoutMs ?? 30_000;
      const m = await terminal.waitFor(prompt, timeoutMs);
      const wanted = queriesBefore + (o.queries ?? 0);
      await until(() => (queries >= wanted ? true : undefined), `${o.queries} terminal queries after ${prompt}`, timeoutMs);
      while (Date.now() - lastOutput < QUIET_MS) await pause(QUIET_MS / 3);
      queriesBefore = queries;
      child.stdin.write(keys);
      return m;
    },
    exited,
    kill: () => {
      if (!done) child.kill('SIGKILL');
    },
  };
  return terminal;
}
