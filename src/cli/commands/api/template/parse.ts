// The parser of `hublet api --template`: Go text/template's actions over the lexer's items — `{{pipeline}}`, `{{if}}`,
// `{{else if}}`, `{{with}}`, `{{else with}}`, `{{range}}` (with `$i, $e :=`), `{{else}}`, `{{end}}`, `{{break}}`,
// `{{continue}}`, variables (`$x := …`, `$x = …`), pipelines (`a | f b`) and parenthesised pipelines.
// Not supported: `{{define}}`, `{{template}}`, `{{block}}` (a single template has nothing to name).
import { lex, position, TemplateError, type Item, type Token } from './lex.js';

export type Arg =
  | { t: 'field'; names: string[] }
  | { t: 'dot' }
  | { t: 'var'; name: string; names: string[] }
  | { t: 'literal'; value: unknown }
  | { t: 'func'; name: string }
  | { t: 'sub'; pipe: Pipe; names: string[] };

export interface Command {
  args: Arg[];
}

export interface Pipe {
  decl: string[];
  assign: boolean;
  cmds: Command[];
}

/** `{{if}}`, `{{with}}` or `{{range}}`, with its `{{else}}` part. */
export interface Block {
  t: 'if' | 'with' | 'range';
  pipe: Pipe;
  list: Node[];
  elseList?: Node[];
}

export type Node = { t: 'text'; text: string } | { t: 'action'; pipe: Pipe } | Block | { t: 'break' | 'continue' };

const KEYWORDS = new Set(['if', 'else', 'end', 'with', 'range', 'break', 'continue', 'define', 'template', 'block']);

class TokenReader {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly where: string,
  ) {}
  peek(): Token | undefined {
    return this.tokens[this.i];
  }
  next(): Token | undefined {
    return this.tokens[this.i++];
  }
  /** Where the reader is, to come back to with reset(). */
  mark(): number {
    return this.i;
  }
  reset(mark: number): void {
    this.i = mark;
  }
  done(): boolean {
    return this.i >= this.tokens.length;
  }
  error(message: string): TemplateError {
    return new TemplateError(`${this.where}: ${message}`);
  }
}

function parseArg(r: TokenReader): Arg {
  const tok = r.next()!;
  let arg: Arg;
  switch (tok.kind) {
    case 'field':
      return { t: 'field', names: tok.names };
    case 'dot':
      return { t: 'dot' };
    case 'var':
      arg = { t: 'var', name: tok.name, names: [] };
      break;
    case 'string':
    case 'number':
    case 'bool':
      return { t: 'literal', value: tok.value };
    case 'nil':
      return { t: 'literal', value: null };
    case 'name':
      if (KEYWORDS.has(tok.name)) throw r.error(`unexpected keyword ${tok.name} in command`);
      return { t: 'func', name: tok.name };
    case 'lparen': {
      const pipe = parsePipe(r, true);
      if (r.next()?.kind !== 'rparen') throw r.error('unclosed left paren');
      arg = { t: 'sub', pipe, names: [] };
      break;
    }
    default:
      throw r.error(`unexpected ${tok.kind} in operand`);
  }
  // `$x.a.b` and `(pipeline).a`: fields of the value.
  const after = r.peek();
  if (after?.kind === 'field' && after.attached) {
    r.next();
    arg.names = after.names;
  }
  return arg;
}

function parsePipe(r: TokenReader, inParens: boolean, allowDecl = true, allowTwoVars = false): Pipe {
  const pipe: Pipe = { decl: [], assign: false, cmds: [] };
  // A declaration: `$x :=`, `$x =`, or (range only) `$i, $e :=`.
  const save = r.mark();
  if (allowDecl && r.peek()?.kind === 'var') {
    const first = r.next() as { kind: 'var'; name: string };
    const after = r.peek();
    if (after?.kind === 'declare' || after?.kind === 'assign') {
      r.next();
      pipe.decl = [first.name];
      pipe.assign = after.kind === 'assign';
    } else if (after?.kind === 'comma' && allowTwoVars) {
      r.next();
      const second = r.next();
      if (second?.kind !== 'var' || r.next()?.kind !== 'declare') throw r.error('range can only initialize variables with :=');
      pipe.decl = [first.name, second.name];
    } else {
      r.reset(save);
    }
  }
  let cmd: Command = { args: [] };
  for (;;) {
    const tok = r.peek();
    if (!tok || (inParens && tok.kind === 'rparen')) break;
    if (tok.kind === 'pipe') {
      r.next();
      if (cmd.args.length === 0) throw r.error('missing command before |');
      pipe.cmds.push(cmd);
      cmd = { args: [] };
      continue;
    }
    cmd.args.push(parseArg(r));
  }
  if (cmd.args.length === 0) throw r.error(pipe.cmds.length ? 'missing command after |' : 'missing value for command');
  pipe.cmds.push(cmd);
  return pipe;
}

class Parser {
  private i = 0;
  constructor(
    private readonly items: Item[],
    private readonly src: string,
  ) {}

  /** Nodes until `{{end}}` or `{{else …}}` (returned as the stopping tokens), or the end of the template at top level. */
  list(top: boolean): [Node[], Token[] | undefined, number] {
    const nodes: Node[] = [];
    while (this.i < this.items.length) {
      const item = this.items[this.i++];
      if (item.kind === 'text') {
        nodes.push({ t: 'text', text: item.text });
        continue;
      }
      const where = position(this.src, item.at);
      const first = item.tokens[0];
      const keyword = first?.kind === 'name' && KEYWORDS.has(first.name) ? first.name : undefined;
      if (keyword === 'end' || keyword === 'else') {
        if (top) throw new TemplateError(`${where}: unexpected {{${keyword}}}`);
        return [nodes, item.tokens, item.at];
      }
      const r = new TokenReader(keyword ? item.tokens.slice(1) : item.tokens, where);
      if (keyword === 'if' || keyword === 'with' || keyword === 'range') nodes.push(this.block(keyword, r, where));
      else if (keyword === 'break' || keyword === 'continue') {
        if (!r.done()) throw r.error(`unexpected token in {{${keyword}}}`);
        nodes.push({ t: keyword });
      } else if (keyword) throw r.error(`{{${keyword}}} is not supported`);
      else if (item.tokens.length === 0) throw r.error('missing value for command');
      else nodes.push({ t: 'action', pipe: parsePipe(r, false) });
    }
    if (!top) throw new TemplateError('unexpected EOF (an {{if}}, {{with}} or {{range}} has no {{end}})');
    return [nodes, undefined, this.src.length];
  }

  /** `{{if|with|range pipeline}} list [{{else [if|with …]}} list] {{end}}`; an `{{else if}}` shares the `{{end}}`. */
  block(kind: 'if' | 'with' | 'range', r: TokenReader, where: string): Node {
    if (r.done()) throw r.error(`missing value for ${kind}`);
    const pipe = parsePipe(r, false, true, kind === 'range');
    const [list, stop, at] = this.list(false);
    const node: Node = { t: kind, pipe, list };
    const stopWord = stop?.[0].kind === 'name' ? stop[0].name : '';
    if (stopWord === 'else') {
      const chained = stop![1];
      if (chained?.kind === 'name' && (chained.name === 'if' || chained.name === 'with')) {
        if (kind !== chained.name && !(kind === 'if' && chained.name === 'if'))
          throw new TemplateError(`${position(this.src, at)}: {{else ${chained.name}}} in {{${kind}}}`);
        node.elseList = [this.block(chained.name, new TokenReader(stop!.slice(2), position(this.src, at)), where)];
        return node;
      }
      if (stop!.length > 1) throw new TemplateError(`${position(this.src, at)}: unexpected token in {{else}}`);
      const [elseList, end] = this.list(false);
      if (end?.[0].kind !== 'name' || end[0].name !== 'end') throw new TemplateError(`${where}: expected {{end}} after {{else}}`);
      node.elseList = elseList;
    }
    return node;
  }
}

/** The parsed template; a TemplateError says what is wrong and where. */
export function parseTemplate(src: string): Node[] {
  return new Parser(lex(src), src).list(true)[0];
}
