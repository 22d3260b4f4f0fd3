// The "Examples:" block every command's --help ends with (gh's EXAMPLES): command lines shown as `$ hublet …`, and
// `# …` lines that say what the next ones do.
import type { Command } from 'commander';

/**
 * Adds an Examples block after `command`'s help. Each line is a command line (`hublet …`, printed after `$ `) or a
 * comment (`# …`, printed as it is).
 */
export function withExamples<C extends Command>(command: C, lines: string[]): C {
  const body = lines.map((l) => (l.startsWith('#') ? `  ${l}` : `  $ ${l}`)).join('\n');
  command.addHelpText('after', `\nExamples:\n${body}\n`);
  return command;
}
