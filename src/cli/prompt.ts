// Questions to a person at a terminal, as gh asks them: only when stdin and stdout are both terminals (gh's
// IOStreams.CanPrompt), the question on stderr so stdout stays the command's output.
import readline from 'node:readline';
import type { IO } from './io.js';

/** Whether the command may ask: stdin and stdout are terminals. */
export const canPrompt = (io: IO): boolean => io.stdinIsTTY && io.isTTY;

/** One line typed on stdin after `question` (empty when stdin ends first). */
function ask(io: IO, question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: io.stdin, output: io.stderr, terminal: false });
    let answered = false;
    rl.once('line', (line) => {
      answered = true;
      rl.close();
      resolve(line);
    });
    rl.once('close', () => {
      if (!answered) resolve('');
    });
    io.stderr.write(question);
  });
}

/** `? QUESTION (y/N)`: true for y or yes, in any case; anything else, or nothing, is no. */
export async function confirm(io: IO, question: string): Promise<boolean> {
  const answer = await ask(io, `? ${question} (y/N) `);
  return /^\s*y(es)?\s*$/i.test(answer);
}
