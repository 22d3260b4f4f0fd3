// The I/O a command runs with, as gh's iostreams: stdout, stderr, stdin, which of them are terminals, the process's stop signals.
// main.ts builds the real one from `process`; tests build a fake one and run the program in-process.
import tty from 'node:tty';

export interface IO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  /** stdout is a terminal. */
  isTTY: boolean;
  stdinIsTTY: boolean;
  /** stderr is a terminal (progress lines are drawn only then). */
  stderrIsTTY: boolean;
  /** The terminal's width in columns, when there is a terminal. */
  columns: number | undefined;
  /** Resolves with the signal's name once the process is asked to stop (SIGINT or SIGTERM); listens from the first call on. */
  stopSignal(): Promise<string>;
}

/** The process's own I/O. */
export function processIO(): IO {
  let stop: Promise<string> | undefined;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Read only by the commands that read stdin: other commands never open it.
    get stdin() {
      return process.stdin;
    },
    isTTY: Boolean(process.stdout.isTTY),
    stdinIsTTY: tty.isatty(0),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    columns: process.stdout.isTTY ? process.stdout.columns : process.stderr.isTTY ? process.stderr.columns : undefined,
    stopSignal: () =>
      (stop ??= new Promise((resolve) => {
        process.once('SIGINT', () => resolve('SIGINT'));
        process.once('SIGTERM', () => resolve('SIGTERM'));
      })),
  };
}

/** Everything a stream gives until its end (stdin for `-`); the stream's error, if any, is thrown. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}
