// `hublet api PATH`: any endpoint, like `gh api`; prints the response JSON, errors on stderr with exit 1 (4 for 401).
import fs from 'node:fs';
import type { Command } from 'commander';
import { CliExit, EXIT, expectOk, printJson } from '../output.js';
import { repeatable } from './option-values.js';
import { withClient } from './with-client.js';

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

export function registerApi(program: Command): void {
  program
    .command('api <path>')
    .description('call any API endpoint and print the response')
    .option('-X, --method <method>', 'HTTP method (default GET, or POST with fields or input)')
    .option('-f, --field <key=value>', 'add a body field (repeatable; key:=JSON for typed values)', repeatable)
    .option('-H, --header <key:value>', 'add a request header (repeatable)', repeatable)
    .option('--input <file>', 'read the request body from a file (- for stdin)')
    .option('-i, --include', 'print the status line and headers first')
    .action(async (path: string, opts: { method?: string; field?: string[]; header?: string[]; input?: string; include?: boolean }, command: Command) => {
      // Everything the command line says is checked before the data dir or the server is touched.
      if (opts.input && opts.field?.length) throw new CliExit(EXIT.usage, 'use either --input or -f fields, not both');
      let body: unknown;
      if (opts.input) body = readInput(opts.input);
      else if (opts.field?.length) body = fieldsToBody(opts.field);
      const headers: Record<string, string> = {};
      for (const h of opts.header ?? []) {
        const i = h.indexOf(':');
        if (i <= 0) throw new CliExit(EXIT.usage, `header must be key:value: ${h}`);
        headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
      }
      const method = (opts.method ?? (body !== undefined ? 'POST' : 'GET')).toUpperCase();
      if (!/^[A-Z]+$/.test(method)) throw new CliExit(EXIT.usage, `not an HTTP method: ${opts.method}`);
      await withClient(command, async (client) => {
        const res = await client.request(method, path.startsWith('/') ? path : `/${path}`, { body, headers });
        if (opts.include) {
          process.stdout.write(`HTTP ${res.status}\n`);
          for (const [k, v] of Object.entries(res.headers)) process.stdout.write(`${k}: ${v}\n`);
          process.stdout.write('\n');
        }
        expectOk(res);
        if (res.text) {
          if (typeof res.body === 'object') printJson(res.body);
          else process.stdout.write(res.text.endsWith('\n') ? res.text : `${res.text}\n`);
        }
      });
    });
}

/** The request body from a file, or from stdin for `-`. */
function readInput(file: string): string {
  try {
    return fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    throw new CliExit(EXIT.usage, `cannot read --input ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
