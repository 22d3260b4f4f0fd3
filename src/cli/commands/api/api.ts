// `hublet api PATH`: any endpoint, like `gh api`; prints the response JSON, errors on stderr with exit 1 (4 for 401).
import fs from 'node:fs';
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import { readAll, type IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import { repeatable } from '../option-values.js';
import { withClient, type Factory } from '../factory.js';

/** The command line's flags. */
interface ApiFlags {
  method?: string;
  field?: string[];
  header?: string[];
  input?: string;
  include?: boolean;
}

interface ApiOptions {
  client: Client;
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
  include?: boolean;
}

/** `-f key=value` fields; `key:=json` sends a typed JSON value (numbers, booleans, arrays). */
function fieldsToBody(fields: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const typed = /^([^=:]+):=(.*)$/s.exec(f);
    if (typed) {
      try {
        body[typed[1]] = JSON.parse(typed[2]);
      } catch {
        throw new CliExit(EXIT.usage, `field ${typed[1]}: not JSON: ${typed[2]}`);
      }
      continue;
    }
    const eq = f.indexOf('=');
    if (eq <= 0) throw new CliExit(EXIT.usage, `field must be key=value: ${f}`);
    body[f.slice(0, eq)] = f.slice(eq + 1);
  }
  return body;
}

/** The request body from a file, or from stdin for `-`. */
async function readInput(file: string, io: IO): Promise<string> {
  try {
    return file === '-' ? (await readAll(io.stdin)).toString('utf8') : fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliExit(EXIT.usage, `cannot read --input ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Everything the command line says, checked before the data dir or the server is touched (usage errors exit 2). */
async function apiRequest(path: string, flags: ApiFlags, io: IO): Promise<Omit<ApiOptions, 'client'>> {
  if (flags.input && flags.field?.length) throw new CliExit(EXIT.usage, 'use either --input or -f fields, not both');
  let body: unknown;
  if (flags.input) body = await readInput(flags.input, io);
  else if (flags.field?.length) body = fieldsToBody(flags.field);
  const headers: Record<string, string> = {};
  for (const h of flags.header ?? []) {
    const i = h.indexOf(':');
    if (i <= 0) throw new CliExit(EXIT.usage, `header must be key:value: ${h}`);
    headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
  }
  const method = (flags.method ?? (body !== undefined ? 'POST' : 'GET')).toUpperCase();
  if (!/^[A-Z]+$/.test(method)) throw new CliExit(EXIT.usage, `not an HTTP method: ${flags.method}`);
  return { method, path: path.startsWith('/') ? path : `/${path}`, body, headers, include: flags.include };
}

async function runApi(opts: ApiOptions, io: IO): Promise<void> {
  const res = await opts.client.request(opts.method, opts.path, { body: opts.body, headers: opts.headers });
  if (opts.include) {
    io.stdout.write(`HTTP ${res.status}\n`);
    for (const [k, v] of Object.entries(res.headers)) io.stdout.write(`${k}: ${v}\n`);
    io.stdout.write('\n');
  }
  expectOk(res);
  if (res.text) {
    if (typeof res.body === 'object') printJson(io.stdout, res.body);
    else io.stdout.write(res.text.endsWith('\n') ? res.text : `${res.text}\n`);
  }
}

export function registerApi(program: Command, f: Factory): void {
  program
    .command('api <path>')
    .description('call any API endpoint and print the response')
    .option('-X, --method <method>', 'HTTP method (default GET, or POST with fields or input)')
    .option('-f, --field <key=value>', 'add a body field (repeatable; key:=JSON for typed values)', repeatable)
    .option('-H, --header <key:value>', 'add a request header (repeatable)', repeatable)
    .option('--input <file>', 'read the request body from a file (- for stdin)')
    .option('-i, --include', 'print the status line and headers first')
    .action(async (path: string, flags: ApiFlags, command: Command) => {
      const request = await apiRequest(path, flags, f.io);
      await withClient(command, f, (client) => runApi({ ...request, client }, f.io));
    });
}
