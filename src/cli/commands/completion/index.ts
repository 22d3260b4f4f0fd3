// `hublet completion bash|zsh|fish`: prints a shell completion script generated from the program's command tree
// (commands, subcommands, options, option choices). The scripts are generated here rather than by a library: the
// maintained ones (@bomb.sh/tab, tabtab, omelette) emit a stub that runs the program again on every TAB, which for
// hublet means starting Node and loading the CLI each time; the tree is fixed, so a script that carries it answers at once.
import { Argument, type Command } from 'commander';
import type { IO } from '../../io.js';
import { withExamples } from '../examples.js';
import type { Factory } from '../factory.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionTree } from './tree.js';
import { zshScript } from './zsh.js';

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript };

function rootOf(command: Command): Command {
  let c = command;
  while (c.parent) c = c.parent;
  return c;
}

/** Prints the script for `shell` that completes `program`'s commands. */
export function runCompletion(opts: { shell: keyof typeof SCRIPTS; program: Command }, io: IO): void {
  io.stdout.write(SCRIPTS[opts.shell](completionTree(opts.program)));
}

export function registerCompletion(program: Command, f: Factory): void {
  withExamples(
    program
      .command('completion')
      .description('print a shell completion script for bash, zsh or fish (commands, subcommands, options and their values)'),
    [
      '# bash: now, and in every new shell',
      'source <(hublet completion bash)',
      "echo 'source <(hublet completion bash)' >> ~/.bashrc",
      '# zsh (after compinit), or saved as _hublet in a directory of fpath',
      'source <(hublet completion zsh)',
      'hublet completion zsh > ~/.zfunc/_hublet   # with ~/.zfunc in $fpath',
      '# fish',
      'hublet completion fish > ~/.config/fish/completions/hublet.fish',
    ],
  )
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(Object.keys(SCRIPTS)))
    .action((shell: keyof typeof SCRIPTS, _flags: unknown, command: Command) => runCompletion({ shell, program: rootOf(command) }, f.io));
}
