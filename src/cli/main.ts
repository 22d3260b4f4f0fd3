// The `hublet` executable: one program that is the server (`serve`) and its command-line client. It builds the I/O from
// the process, runs the program (program.ts) and exits with its code once the output is out.
import './threadpool.js';
import { processIO } from './io.js';
import { EXIT } from './output.js';
import { run } from './program.js';

/** Resolves once everything written to stdout and stderr has been handed to the OS (pipes are asynchronous). */
function flushed(): Promise<void> {
  const drain = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()));
  return Promise.all([drain(process.stdout), drain(process.stderr)]).then(() => undefined);
}

// A reader that goes away (`hublet api … | head`) is not an error of ours.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(EXIT.ok);
  throw err;
});

// `serve` returns once a signal has stopped the server; every other command when it is done.
run(process.argv, processIO(), process.env).then(async (code) => {
  await flushed();
  process.exit(code);
});
