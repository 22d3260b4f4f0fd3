// Help that teaches (issue 15, item 11) and shell completion: the whole command tree walked through `--help` (every
// command and option described, every leaf command with examples), `hublet help A B` as `hublet A B --help`, the top
// level's mode rule, exit codes and first token, `completion bash` sourced by a real bash and asked to complete, and
// the hook commands' deprecated positional ORG still working with a note.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, sandbox, type CliResult, type Sandbox } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-inprocess.js';
import { startServer, type TestServer } from '../helpers/server.js';

let sb: Sandbox;
beforeAll(() => {
  sb = sandbox();
});
afterAll(() => sb?.cleanup());

/** In-process, on a terminal wide enough that commander wraps no help line (one entry, one line). */
const run = (args: string[]) => runInProcess(args, { env: sb.env, isTTY: true, columns: 1000 });

interface Entry {
  term: string;
  description: string;
}

interface ParsedHelp {
  usage: string;
  description: string;
  sections: Record<string, Entry[]>;
  text: string;
}

/** Commander's help: the usage line, the description, and each section's `term  description` entries. */
function parseHelp(text: string): ParsedHelp {
  const lines = text.split('\n');
  expect(lines[0]).toMatch(/^Usage: hublet/);
  const sections: Record<string, Entry[]> = {};
  let description = '';
  let current: Entry[] | undefined;
  for (const line of lines.slice(1)) {
    const header = /^(Arguments|Options|Commands|Global Options):$/.exec(line);
    if (header) {
      current = sections[header[1]] = [];
    } else if (line === '') {
      current = undefined;
    } else if (current) {
      const m = /^ {2}(\S.*?)(?: {2,}(\S.*))?$/.exec(line);
      expect(m, `a help entry: ${JSON.stringify(line)}`).toBeTruthy();
      current.push({ term: m![1], description: m![2] ?? '' });
    } else if (!description && Object.keys(sections).length === 0) {
      description = line;
    }
  }
  return { usage: lines[0], description, sections, text };
}

/** Every command's help, found by following each help's Commands section from the top. */
async function walk(path: string[] = []): Promise<{ path: string[]; help: ParsedHelp }[]> {
  const r = await run([...path, '--help']);
  expect(r.code, `hublet ${path.join(' ')} --help: ${r.stderr}`).toBe(0);
  const help = parseHelp(r.stdout);
  const below = await Promise.all((help.sections.Commands ?? []).map((c) => walk([...path, c.term.split(' ')[0]])));
  return [{ path, help }, ...below.flat()];
}

describe('hublet --help, over the whole command tree', () => {
  let all: { path: string[]; help: ParsedHelp }[];
  beforeAll(async () => {
    all = await walk();
  }, 120_000);

  it('reaches every group and its commands', () => {
    const names = all.map((c) => c.path.join(' '));
    for (const expected of [
      'gist create',
      'admin user create',
      'admin org add-member',
      'hook ping',
      'migration download',
      'repo view',
      'auth login',
      'completion',
      'help',
      'admin help',
    ]) {
      expect(names).toContain(expected);
    }
    expect(all.length).toBeGreaterThan(60);
  });

  it('describes every command, every argument and every option', () => {
    const missing: string[] = [];
    for (const { path, help } of all) {
      const name = `hublet ${path.join(' ')}`.trim();
      if (!help.description.trim()) missing.push(`${name}: no description`);
      for (const c of help.sections.Commands ?? []) if (!c.description) missing.push(`${name}: command ${c.term} has no description`);
      for (const section of ['Options', 'Global Options', 'Arguments']) {
        for (const o of help.sections[section] ?? []) if (!o.description) missing.push(`${name}: ${section} ${o.term} has no description`);
      }
      // Every argument in the usage line is listed (commander lists them only when one has a description).
      const args = help.usage.replace(/^Usage: \S+( [a-z][\w-]*)*/, '').match(/<[^>]+>|\[[^\]]+\]/g) ?? [];
      const listed = (help.sections.Arguments ?? []).map((a) => a.term);
      for (const a of args.filter((x) => x !== '[options]' && x !== '[command]')) {
        if (!listed.includes(a.replace(/^[<[]|\.\.\.|[>\]]$/g, ''))) missing.push(`${name}: argument ${a} is not described`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('ends every leaf command with an Examples block of hublet command lines', () => {
    const leaves = all.filter((c) => !c.help.sections.Commands);
    expect(leaves.length).toBeGreaterThan(50);
    const without = leaves
      .filter(({ help }) => !/\nExamples:\n( {2}# .*\n)* {2}(\$ )?(\S+=\S+ )?(hublet|source|echo|git) /.test(help.text))
      .map((c) => c.path.join(' '));
    expect(without).toEqual([]);
  });

  it("shows the program's options in every command's help: auth login --help lists --server and --token", async () => {
    const login = all.find((c) => c.path.join(' ') === 'auth login')!.help;
    const global = (login.sections['Global Options'] ?? []).map((o) => o.term);
    expect(global).toEqual(expect.arrayContaining(['--server <url>', '--token <token>']));
  });
});

describe('hublet help COMMAND…', () => {
  it('shows the named command however deep, as COMMAND… --help does', async () => {
    for (const words of [['gist', 'create'], ['admin', 'user', 'create'], ['hook', 'ping'], ['migration'], []]) {
      const [viaHelp, viaFlag] = await Promise.all([run(['help', ...words]), run([...words, '--help'])]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stderr).toBe('');
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
      expect(viaHelp.stdout.split('\n')[0]).toMatch(new RegExp(`^Usage: hublet ${words.join(' ')}`));
    }
    // A group's own help command goes down from there.
    expect((await run(['admin', 'help', 'user', 'create'])).stdout).toBe((await run(['admin', 'user', 'create', '--help'])).stdout);
  });

  it('refuses a command that does not exist (exit 2), naming it', async () => {
    const r = await run(['help', 'gist', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("hublet: unknown command 'gist nope' (see hublet gist --help)\n");
  });
});

describe('the top-level help', () => {
  let text: string;
  beforeAll(async () => {
    text = (await run(['--help'])).stdout;
  });

  it('says how the mode is chosen', () => {
    expect(text).toContain('How the mode is chosen:');
    expect(text).toContain('flag > environment > saved credentials');
    for (const word of [
      '--server URL',
      '--data DIR',
      'HUBLET_SERVER',
      'HUBLET_DATA',
      'hublet auth login',
      '--token > HUBLET_TOKEN > the saved token',
      '--as > HUBLET_USER >',
    ]) {
      expect(text).toContain(word);
    }
  });

  it('lists the exit codes', () => {
    const codes = text.slice(text.indexOf('Exit codes:'));
    expect(codes).toMatch(/^ {2}0 {2}ok$/m);
    expect(codes).toMatch(/^ {2}1 {2}error/m);
    expect(codes).toMatch(/^ {2}2 {2}usage/m);
    expect(codes).toMatch(/^ {2}4 {2}authentication/m);
  });

  it('says where the first token comes from, and how to make another', () => {
    const first = text.slice(text.indexOf('The first token:'));
    expect(first).toMatch(/The first `hublet serve`[\s\S]*one-time admin token/);
    expect(first).toContain('hublet admin token create admin');
    expect(first).toContain('local mode');
  });
});

/** Runs a bash script with a `hublet` (the executable under test) first on PATH. */
function bash(script: string): Promise<CliResult> {
  const bin = path.join(sb.root, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  if (!fs.existsSync(path.join(bin, 'hublet'))) fs.symlinkSync(BIN, path.join(bin, 'hublet'));
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      env: { ...sb.env, PATH: `${bin}:${process.env.PATH}` } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('hublet completion', { timeout: 60_000 }, () => {
  let script: string;
  beforeAll(async () => {
    const r = await run(['completion', 'bash']);
    expect(r.code).toBe(0);
    script = r.stdout;
    fs.writeFileSync(path.join(sb.root, 'hublet.bash'), script);
  });

  it('bash: `source <(hublet completion bash)` registers a completion for hublet', async () => {
    const r = await bash('source <(hublet completion bash) && complete -p hublet');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('complete -o default -F _hublet hublet\n');
  });

  it('bash: completes commands, subcommands past options, options and option values', async () => {
    const complete = async (...words: string[]) => {
      const array = words.map((w) => `'${w}'`).join(' ');
      const r = await bash(
        `source '${path.join(sb.root, 'hublet.bash')}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _hublet; printf '%s\\n' "\${COMPREPLY[@]}"`,
      );
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter(Boolean);
    };
    expect(await complete('hublet', 'gi')).toEqual(['gist']);
    expect(await complete('hublet', '--data', 'x', 'gist', 'cr')).toEqual(['create']);
    expect(await complete('hublet', 'admin', 'user', '')).toEqual(['create', 'delete', 'set-password', 'help']);
    expect(await complete('hublet', 'hook', 'ping', '--o')).toEqual(['--org']);
    expect(await complete('hublet', 'hook', 'deliveries', '--status', '')).toEqual(['success', 'failure']);
    expect(await complete('hublet', 'hook', 'deliveries', '--status', '=', 'f')).toEqual(['failure']);
    expect(await complete('hublet', 'comp')).toEqual(['completion']);
    expect(await complete('hublet', 'completion', '')).toEqual([]);
  });

  it('zsh and fish: scripts from the same tree, with descriptions', async () => {
    const [zsh, fish, bad] = await Promise.all([run(['completion', 'zsh']), run(['completion', 'fish']), run(['completion', 'tcsh'])]);
    expect(zsh.stdout.split('\n')[0]).toBe('#compdef hublet');
    expect(zsh.stdout).toContain("'gist:create, view, edit, fork, star and clone gists'");
    expect(zsh.stdout).toContain('compdef _hublet hublet');
    expect(fish.stdout).toContain(`complete -c hublet -n '__hublet_at "hook deliveries"' -l status -x -a 'success failure'`);
    expect(fish.stdout).toMatch(/^complete -c hublet -n '__hublet_at ""' -a 'gist' -d '.+'$/m);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.");
  });
});

describe('hook commands: the positional ORG of earlier versions', { timeout: 60_000 }, () => {
  let s: TestServer;
  let token: string;
  let hookId: number;
  beforeAll(async () => {
    s = await startServer();
    token = (await s.userWithToken('hooker', ['admin:org_hook'])).token;
    await s.createOrg('oldstyle', 'hooker');
    // An inactive hook: nothing is delivered, so the lists below stay as they are.
    hookId = (
      await s.api('POST', '/orgs/oldstyle/hooks', { token, body: { name: 'web', active: false, config: { url: 'http://127.0.0.1:9/x' } } })
    ).body.id;
  });
  afterAll(async () => s?.close());
  const remote = (args: string[]) => runInProcess(['--server', s.url, '--token', token, ...args], { env: sb.env });

  it('still works, with a note on stderr naming the --org form', async () => {
    const [old, now] = await Promise.all([
      remote(['--json', 'hook', 'deliveries', 'oldstyle', String(hookId)]),
      remote(['--json', 'hook', 'deliveries', '--org', 'oldstyle', String(hookId)]),
    ]);
    expect(now.stderr).toBe('');
    expect(old.code).toBe(0);
    expect(old.stdout).toBe(now.stdout);
    expect(old.stderr).toBe('hublet: `hook deliveries ORG ID` is deprecated; use `hook deliveries --org ORG ID`\n');
    const missing = await remote(['hook', 'delivery', 'oldstyle', String(hookId), '99999']);
    expect(missing.code).toBe(1);
    expect(missing.stderr.split('\n')[0]).toBe(
      'hublet: `hook delivery ORG ID DELIVERY_ID` is deprecated; use `hook delivery --org ORG ID DELIVERY_ID`',
    );
    expect(missing.stderr).toContain('Not Found');
  });

  it('is not taken where the org is given, or by the commands that never had it', async () => {
    const [twice, view] = await Promise.all([
      remote(['hook', 'deliveries', '--org', 'oldstyle', 'oldstyle', String(hookId)]),
      remote(['hook', 'view', 'oldstyle', String(hookId)]),
    ]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("too many arguments for 'deliveries'");
    expect(view.code).toBe(2);
    expect(view.stderr).not.toContain('deprecated');
  });
});
