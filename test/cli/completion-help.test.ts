// `hublet completion` and `hublet help`'s run functions over a small command tree of their own (no server, no data
// dir): the scripts carry the tree's commands, options and choices; help names a command however deep, and refuses
// a word that names none.
import { Command, CommanderError, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { runCompletion } from '../../src/cli/commands/completion/index.js';
import { runHelp } from '../../src/cli/help.js';
import { fakeIO } from '../helpers/cli-inprocess.js';

/** `hublet gist create [--public] [--kind a|b]` and `hublet hook`, writing their help to `out`. */
function program(out: string[] = []): Command {
  const root = new Command('hublet').exitOverride().configureOutput({ writeOut: (s) => out.push(s), writeErr: (s) => out.push(s) });
  root.option('--server <url>', 'the server');
  const gist = root.command('gist').description('gists');
  gist
    .command('create')
    .description('create a gist')
    .option('--public', 'public')
    .addOption(new Option('--kind <kind>', 'a kind').choices(['a', 'b']));
  root.command('hook').description('hooks');
  return root;
}

describe('hublet completion', () => {
  it('bash: the subcommands at each level, the options valid there (the program’s too) and their choices', () => {
    const fake = fakeIO();
    runCompletion({ shell: 'bash', program: program() }, fake.io);
    const script = fake.stdout();
    expect(script).toContain('    "") echo "gist hook help" ;;');
    expect(script).toContain('    "gist") echo "create help" ;;');
    expect(script).toContain('    "gist create") echo "--server --public --kind -h --help" ;;');
    expect(script).toContain('    "gist create|--kind") echo "a b" ;;');
    expect(script).toContain('complete -o default -F _hublet hublet');
  });

  it('zsh and fish: the commands and their descriptions', () => {
    for (const shell of ['zsh', 'fish'] as const) {
      const fake = fakeIO();
      runCompletion({ shell, program: program() }, fake.io);
      expect(fake.stdout()).toContain('create a gist');
      expect(fake.stdout()).toContain('hooks');
    }
  });
});

describe('hublet help', () => {
  it("prints the named command's help however deep, ending as --help does (exit 0)", () => {
    const out: string[] = [];
    const root = program(out);
    let err: unknown;
    try {
      runHelp({ group: root, names: ['gist', 'create'] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CommanderError);
    expect((err as CommanderError).exitCode).toBe(0);
    expect(out.join('')).toMatch(/^Usage: hublet gist create \[options\]\n\ncreate a gist\n/);
  });

  it('refuses a word that names no command (exit 2), saying where to look', () => {
    expect(() => runHelp({ group: program().commands[0], names: ['creat'] })).toThrow(
      expect.objectContaining({ code: 2, message: "hublet: unknown command 'gist creat' (see hublet gist --help)" }),
    );
  });
});
