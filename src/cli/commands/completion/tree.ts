// The program's command tree as the completion scripts need it: each visible command's path, subcommands and options
// (with whether an option takes a value, its choices, and whether that value is a file), read off commander's own
// help model so that completion offers exactly what --help lists.
import type { Command, Option } from 'commander';

export interface CompletionOption {
  /** `-o` and `--output`, as given. */
  names: string[];
  description: string;
  /** The option is followed by a value (`--org ORG`); an optional value (`[x]`) counts as none. */
  takesValue: boolean;
  /** The values it accepts, when commander knows them. */
  choices: string[];
  /** Its value names a file or directory (`<file>`, `<dir>`, `<path>`): the shell completes file names. */
  fileValue: boolean;
}

export interface CompletionNode {
  /** The subcommand words from the program to this command (empty for the program). */
  path: string[];
  name: string;
  description: string;
  /** This command's own options (the help option included). */
  options: CompletionOption[];
  /** Every option valid at this command: its own and its ancestors' (commander reads a program option anywhere). */
  allOptions: CompletionOption[];
  commands: CompletionNode[];
}

function optionOf(o: Option): CompletionOption {
  return {
    names: [o.short, o.long].filter((n): n is string => Boolean(n)),
    description: o.description,
    takesValue: o.required,
    choices: o.argChoices ?? [],
    fileValue: o.required && /<(file|dir|path)>/.test(o.flags),
  };
}

function nodeOf(cmd: Command, path: string[], inherited: CompletionOption[]): CompletionNode {
  const help = cmd.createHelp();
  const options = help.visibleOptions(cmd).map(optionOf);
  // The help option is every command's own; the ancestors' copies are left out.
  const allOptions = [...inherited.filter((o) => !o.names.includes('--help')), ...options];
  const commands = help.visibleCommands(cmd).map((c) => nodeOf(c, [...path, c.name()], allOptions));
  return { path, name: cmd.name(), description: cmd.description(), options, allOptions, commands };
}

/** The tree under the program `root`, as its help shows it. */
export function completionTree(root: Command): CompletionNode {
  return nodeOf(root, [], []);
}

/** Every node, the program first, each before its subcommands. */
export function allNodes(node: CompletionNode): CompletionNode[] {
  return [node, ...node.commands.flatMap(allNodes)];
}
