// Help that teaches: the top-level help's closing sections (how the mode is chosen, exit codes, the first token,
// examples), the program's options shown in every command's help (`auth login --help` lists --server and --token,
// which are the program's), a `help [command...]` command at every level that shows the named command however deep
// (`hublet help gist create` is `hublet gist create --help`; commander's own goes one level), and `completion`.
// program.ts calls addHelp once every command is registered.
import type { Command } from 'commander';
import { registerCompletion } from './commands/completion/index.js';
import { withExamples } from './commands/examples.js';
import type { Factory } from './commands/factory.js';
import { CliExit, EXIT } from './output.js';

const TOP_LEVEL = `
How the mode is chosen:
  A client command runs in local mode (it opens a data dir on this machine
  itself, no server needed) or in remote mode (it talks to a hublet server over
  HTTP). The first of flag > environment > saved credentials that names one
  decides:
    1. a flag: --server URL (remote) or --data DIR / --database URL (local);
       both at once is a usage error
    2. the environment: HUBLET_SERVER (remote) or HUBLET_DATA / HUBLET_DATABASE
       (local)
    3. saved credentials: the server \`hublet auth login\` saved (remote)
    4. none of these: local mode over the default data dir
  The token follows the same rule: --token > HUBLET_TOKEN > the saved token.
  Local mode acts as --as > HUBLET_USER > admin. A flag of the other mode (--as
  or --base-url in remote mode, --token in local mode) is a usage error.
  \`hublet auth status\` names the mode, the server or data dir, and the user the
  next command would use.

The first token:
  The first \`hublet serve\` (or \`hublet init\`) on a new data dir creates the
  site admin "admin" and prints a one-time admin token. Sign in with it:
  \`hublet auth login --server URL --token TOKEN\`. Lost it? In local mode, on
  the server's data dir, \`hublet admin token create admin --scopes …\` makes
  another (serve prints the whole command).

Exit codes:
  0  ok
  1  error (the API's message on stderr, and a hint when the answer gives one)
  2  usage (a wrong option or argument, options that contradict each other)
  4  authentication (no token, or one the server refused)

More help: \`hublet help COMMAND…\` (e.g. \`hublet help gist create\`), or --help
after any command. Shell completion: \`hublet completion bash|zsh|fish\`.`;

const TOP_LEVEL_EXAMPLES = [
  '# start a server; its first start prints the admin token',
  'hublet serve --data ./data --port 3000',
  'hublet auth login --server http://127.0.0.1:3000 --token hlp_…',
  'hublet auth status',
  '# local mode on the same machine: no server, no token',
  'hublet --data ./data admin user create alice',
  "echo 'hello' | hublet gist create --desc greeting",
];

/** Every command under `command`, `command` first. */
function walk(command: Command): Command[] {
  return [command, ...command.commands.flatMap(walk)];
}

/** The words from the program to `command` (`gist create`). */
function pathOf(command: Command): string[] {
  const out: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) out.unshift(c.name());
  return out;
}

/** `help [command...]` under a group: the help of the command its words name, however deep. */
function addNestedHelp(group: Command): void {
  const here = pathOf(group);
  const prefix = ['hublet', ...here].join(' ');
  const sample = group.commands.find((c) => c.commands.length) ?? group.commands[0];
  const deeper = sample.commands[0];
  withExamples(
    group
      .command('help')
      .description(`show the help of a command, e.g. ${prefix} help ${sample.name()}${deeper ? ` ${deeper.name()}` : ''}`),
    [`${prefix} help ${sample.name()}`, ...(deeper ? [`${prefix} help ${sample.name()} ${deeper.name()}`] : [])],
  )
    .argument('[command...]', 'the command, as typed after hublet (empty: this one)')
    .action((names: string[]) => runHelp({ group, names }));
}

/**
 * `help [command...]` under `group`: the help of the command its words name, however deep, written where the program
 * writes its help (its configured output), ending as commander's --help does (exit 0); an unknown word is a usage error.
 */
export function runHelp(opts: { group: Command; names: string[] }): void {
  const { group, names } = opts;
  const here = pathOf(group);
  let target = group;
  for (const [i, name] of names.entries()) {
    const next = target.commands.find((c) => c.name() === name || c.aliases().includes(name));
    if (!next) {
      const typed = [...here, ...names.slice(0, i + 1)].join(' ');
      throw new CliExit(
        EXIT.usage,
        `hublet: unknown command '${typed}' (see ${['hublet', ...here, ...names.slice(0, i)].join(' ')} --help)`,
      );
    }
    target = next;
  }
  target.help();
}

/** Finishes the program's help and adds `completion`; called once every other command is registered. */
export function addHelp(program: Command, f: Factory): void {
  registerCompletion(program, f);
  withExamples(program.addHelpText('after', TOP_LEVEL), TOP_LEVEL_EXAMPLES);
  for (const command of walk(program)) {
    command.configureHelp({ ...command.configureHelp(), showGlobalOptions: true });
    if (command.commands.length) addNestedHelp(command);
  }
}
