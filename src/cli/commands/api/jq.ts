// `hublet api --jq EXPR`: jq itself (jqlang's jq compiled to WebAssembly, the jq-wasm package, with the wasm inlined so
// the single executable carries it), printed as gh prints it: strings, numbers and booleans raw (as `jq -r`), null as an
// empty line, arrays and objects as JSON, indented when stdout is a terminal. gh prints non-integral numbers with two
// decimals (1.234 as 1.23); here they are printed whole.
import { CliExit, EXIT } from '../../output.js';

type Jq = Awaited<ReturnType<typeof import('jq-wasm/inline').loadJq>>;

let loaded: Promise<Jq> | undefined;
/** jq is loaded on the first use only: most commands never need it. */
const jq = (): Promise<Jq> => (loaded ??= import('jq-wasm/inline').then((m) => m.loadJq()));

const jqMessage = (err: unknown) => (err && typeof err === 'object' && 'stderr' in err ? String(err.stderr).trim() : String(err));

/** A usage error (exit 2) if the expression does not compile; nothing is run. */
export async function checkJq(expr: string): Promise<void> {
  const j = await jq();
  try {
    // Compiled as the body of a function that is never called.
    j.json(null, `def __hublet_check__:\n${expr}\n; empty`);
  } catch {
    // The expression's own message (jq stops at compiling it, so nothing runs).
    const { stderr } = j.raw(null, expr);
    throw new CliExit(EXIT.usage, `hublet: --jq: ${stderr.trim() || 'invalid expression'}`);
  }
}

function scalarText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null) return '';
  return undefined;
}

/** Every output of `expr` on `input`, one per line; a jq error exits 1 with jq's message. */
export async function runJq(expr: string, input: string, indent: boolean): Promise<string> {
  const j = await jq();
  let values: unknown[];
  try {
    values = j.json(input, expr);
  } catch (err) {
    throw new CliExit(EXIT.error, `hublet: ${jqMessage(err)}`);
  }
  return values.map((v) => `${scalarText(v) ?? JSON.stringify(v, null, indent ? 2 : undefined)}\n`).join('');
}
