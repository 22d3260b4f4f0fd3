// `hublet api --template`: a Go text/template over a JSON response, as gh's `--template` (go-gh's template package).
// No npm package implements Go templates with gh's functions in plain JavaScript (the ones there cover `{{.a}}`,
// `{{if}}` and `{{range .field}}` only, or load Go's WebAssembly from a file beside them), so this is the subset gh's
// documentation uses, written here: see lex.ts and parse.ts for the syntax, funcs.ts for the functions, values.ts for
// how values print. A template is parsed once and executed once per page (as gh does with --paginate); rows added by
// tablerow are printed by tablerender or, at the end, by flush().
import { TemplateError } from './lex.js';
import { type Func, Table, templateFuncs } from './funcs.js';
import { parseTemplate, type Arg, type Block, type Command, type Node, type Pipe } from './parse.js';
import { goString, goType, isObject, truth } from './values.js';

class Break {}
class Continue {}

/** At most this many nodes are walked in one execution (a `range` over a huge number, say, stops with an error). */
const MAX_STEPS = 10_000_000;

class Execution {
  private readonly vars: [string, unknown][];
  private out = '';
  private steps = 0;

  constructor(
    private readonly funcs: Record<string, Func>,
    root: unknown,
  ) {
    this.vars = [['$', root]];
  }

  run(nodes: Node[], dot: unknown): string {
    this.walk(nodes, dot);
    return this.out;
  }

  private walk(nodes: Node[], dot: unknown): void {
    for (const node of nodes) {
      if (++this.steps > MAX_STEPS) throw new TemplateError('too many steps');
      switch (node.t) {
        case 'text':
          this.out += node.text;
          break;
        case 'action': {
          const v = this.pipe(node.pipe, dot);
          if (node.pipe.decl.length === 0) this.out += goString(v);
          break;
        }
        case 'if':
        case 'with': {
          const mark = this.vars.length;
          const v = this.pipe(node.pipe, dot);
          if (truth(v)) this.walk(node.list, node.t === 'with' ? v : dot);
          else if (node.elseList) this.walk(node.elseList, dot);
          this.vars.length = mark;
          break;
        }
        case 'range':
          this.range(node, dot);
          break;
        case 'break':
          throw new Break();
        case 'continue':
          throw new Continue();
      }
    }
  }

  private range(node: Block, dot: unknown): void {
    const mark = this.vars.length;
    const v = this.pipe({ ...node.pipe, decl: [] }, dot);
    let entries: [unknown, unknown][];
    if (Array.isArray(v)) entries = v.map((e, i) => [i, e]);
    else if (isObject(v))
      entries = Object.keys(v)
        .sort()
        .map((k) => [k, v[k]]);
    else if (typeof v === 'number' && Number.isInteger(v) && v <= MAX_STEPS)
      entries = Array.from({ length: Math.max(0, v) }, (_, i) => [i, i]);
    else if (v === null || v === undefined) entries = [];
    else throw new TemplateError(`range can't iterate over ${goString(v)}`);
    for (const [key, elem] of entries) {
      const [first, second] = node.pipe.decl;
      if (second) this.vars.push([first, key], [second, elem]);
      else if (first) this.vars.push([first, elem]);
      try {
        this.walk(node.list, elem);
      } catch (signal) {
        if (signal instanceof Break) {
          this.vars.length = mark;
          break;
        }
        if (!(signal instanceof Continue)) throw signal;
      }
      this.vars.length = mark;
    }
    if (entries.length === 0 && node.elseList) this.walk(node.elseList, dot);
    this.vars.length = mark;
  }

  private pipe(pipe: Pipe, dot: unknown): unknown {
    let value: unknown;
    pipe.cmds.forEach((cmd, i) => {
      value = this.command(cmd, dot, i > 0, value);
    });
    if (pipe.decl.length === 1) {
      const name = pipe.decl[0];
      if (pipe.assign) {
        this.variable(name)[1] = value;
      } else {
        this.vars.push([name, value]);
      }
    }
    return value;
  }

  /** The innermost variable of that name. */
  private variable(name: string): [string, unknown] {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i][0] === name) return this.vars[i];
    throw new TemplateError(`undefined variable: ${name}`);
  }

  private command(cmd: Command, dot: unknown, hasFinal: boolean, final: unknown): unknown {
    const [first, ...rest] = cmd.args;
    if (first.t === 'func') return this.call(first.name, rest, dot, hasFinal, final);
    if (rest.length > 0 || hasFinal) throw new TemplateError(`can't give argument to non-function ${describe(first)}`);
    return this.arg(first, dot);
  }

  private call(name: string, argNodes: Arg[], dot: unknown, hasFinal: boolean, final: unknown): unknown {
    // and/or stop at the first value that decides (Go 1.18+) and return it, not a boolean.
    if (name === 'and' || name === 'or') {
      const thunks = argNodes.map((a) => () => this.arg(a, dot));
      if (hasFinal) thunks.push(() => final);
      if (thunks.length === 0) throw new TemplateError(`wrong number of args for ${name}: want at least 1 got 0`);
      let v: unknown;
      for (const thunk of thunks) {
        v = thunk();
        if (truth(v) !== (name === 'and')) return v;
      }
      return v;
    }
    const fn = this.funcs[name];
    if (!fn) throw new TemplateError(`function ${JSON.stringify(name)} not defined`);
    const args = argNodes.map((a) => this.arg(a, dot));
    if (hasFinal) args.push(final);
    try {
      return fn(...args);
    } catch (err) {
      if (err instanceof TemplateError) throw new TemplateError(`error calling ${name}: ${err.message}`);
      throw err;
    }
  }

  private arg(arg: Arg, dot: unknown): unknown {
    switch (arg.t) {
      case 'dot':
        return dot;
      case 'literal':
        return arg.value;
      case 'field':
        return fields(dot, arg.names);
      case 'var': {
        return fields(this.variable(arg.name)[1], arg.names);
      }
      case 'func':
        return this.call(arg.name, [], dot, false, undefined);
      case 'sub':
        return fields(this.pipe(arg.pipe, dot), arg.names);
    }
  }
}

function describe(arg: Arg): string {
  if (arg.t === 'field') return `.${arg.names.join('.')}`;
  if (arg.t === 'var') return arg.name + arg.names.map((n) => `.${n}`).join('');
  if (arg.t === 'literal') return JSON.stringify(arg.value);
  return arg.t === 'dot' ? '.' : '(pipeline)';
}

/** `.a.b` on a value: a missing key is "no value" (and stays so), a field of null or of a non-map is an error (as Go). */
function fields(value: unknown, names: string[]): unknown {
  let v = value;
  for (const name of names) {
    if (v === undefined) return undefined;
    if (v === null) throw new TemplateError(`nil pointer evaluating interface {}.${name}`);
    if (!isObject(v)) throw new TemplateError(`can't evaluate field ${name} in type ${goType(v)}`);
    v = Object.hasOwn(v, name) ? v[name] : undefined;
  }
  return v;
}

export interface Template {
  /** The output for one JSON value. */
  execute(data: unknown): string;
  /** Rows added by tablerow and not yet printed by tablerender. */
  flush(): string;
}

/** Parses the template (a TemplateError if it does not parse) for executing on each page. */
export function compileTemplate(src: string, opts: { color: boolean; now?: Date }): Template {
  const nodes = parseTemplate(src);
  const table = new Table();
  const funcs = templateFuncs({ color: opts.color, now: opts.now ?? new Date(), table });
  return {
    execute: (data) => new Execution(funcs, data).run(nodes, data),
    flush: () => table.render(),
  };
}
