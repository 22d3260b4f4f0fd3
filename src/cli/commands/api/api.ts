// `hublet api ENDPOINT`: any endpoint, with gh api's flags and behaviour (gh's pkg/cmd/api): typed and raw fields, the
// query string for GET, --input, --paginate (and --slurp), --jq, --template, --silent, -i, -H, --hostname. The request
// is built in request.ts, pages are followed in paginate.ts and printed in response.ts. Not carried over from gh: the
// `{owner}`/`{repo}`/`{branch}` placeholders (hublet has no current repository), --preview, --cache and --verbose.
import type { Command } from 'commander';
import { openClient, type GlobalOptions } from '../../client.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT } from '../../output.js';
import { globals, type ClientOptions, type Factory } from '../factory.js';
import { repeatable } from '../option-values.js';
import { checkJq } from './jq.js';
import { findEndCursor, findNextPage, nextRequestPath } from './paginate.js';
import { buildRequest, graphqlBody, type ApiRequest, type RequestFlags } from './request.js';
import { ResponsePrinter, type PrintOptions } from './response.js';
import { compileTemplate } from './template/exec.js';

/** The command line's flags. */
interface ApiFlags extends RequestFlags {
  include?: boolean;
  paginate?: boolean;
  slurp?: boolean;
  jq?: string;
  template?: string;
  silent?: boolean;
  hostname?: string;
}

const usage = (message: string) => new CliExit(EXIT.usage, `hublet: ${message}`);

/** gh's checks of flags that do not go together. */
function checkFlags(flags: ApiFlags, endpoint: string): void {
  const graphql = endpoint === 'graphql' || endpoint === '/graphql';
  if (flags.paginate && flags.method !== undefined && flags.method.toUpperCase() !== 'GET' && !graphql)
    throw usage('the `--paginate` option is not supported for non-GET requests');
  if (flags.paginate && flags.input !== undefined) throw usage('the `--paginate` option is not supported with `--input`');
  if (flags.slurp && !flags.paginate) throw usage('`--paginate` required when passing `--slurp`');
  if (flags.slurp && (flags.jq !== undefined || flags.template !== undefined))
    throw usage('the `--slurp` option is not supported with `--jq` or `--template`');
  if ([flags.silent, flags.jq !== undefined, flags.template !== undefined].filter(Boolean).length > 1)
    throw usage('only one of `--template`, `--jq` or `--silent` may be used');
}

/** `--hostname HOST[:PORT]` is the server `https://HOST[:PORT]` (as gh's hosts); a URL is taken as it is. */
function hostnameServer(hostname: string): string {
  if (/^https?:\/\//i.test(hostname)) {
    try {
      return new URL(hostname).href.replace(/\/+$/, '');
    } catch {
      throw usage(`error parsing \`--hostname\`: not a URL: ${hostname}`);
    }
  }
  if (!/^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$/.test(hostname))
    throw usage(`error parsing \`--hostname\`: invalid hostname ${JSON.stringify(hostname)}`);
  return `https://${hostname}`;
}

/** The program's options with --hostname as the server; a different --server, or a local data dir, is refused. */
function withHostname(g: GlobalOptions, hostname: string | undefined): GlobalOptions {
  if (hostname === undefined) return g;
  const server = hostnameServer(hostname);
  if (g.server !== undefined && g.server.replace(/\/+$/, '') !== server) throw usage('--hostname and --server name different servers');
  if (g.data !== undefined || g.database !== undefined) throw usage('--hostname names a server: it does not go with --data or --database');
  return { ...g, server };
}

/** What `hublet api` sends and how it prints the answers. */
interface ApiOptions extends ClientOptions {
  request: ApiRequest;
  print: PrintOptions;
}

/**
 * The request and the printing the command line asks for: gh's checks of the flags, the fields and files read,
 * --jq and --template compiled. Usage errors (exit 2) come from here, before any client is opened.
 */
export async function apiRequest(
  endpoint: string,
  flags: ApiFlags,
  io: IO,
  env: NodeJS.ProcessEnv,
): Promise<Omit<ApiOptions, keyof ClientOptions>> {
  checkFlags(flags, endpoint);
  const request = await buildRequest(endpoint, flags, io);
  if (flags.jq !== undefined) await checkJq(flags.jq);
  let template: PrintOptions['template'];
  if (flags.template !== undefined) {
    try {
      template = compileTemplate(flags.template, { color: io.isTTY && !env.NO_COLOR });
    } catch (err) {
      throw usage(`--template: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return {
    request,
    print: {
      include: flags.include,
      silent: flags.silent,
      jq: flags.jq,
      template,
      paginate: flags.paginate,
      slurp: flags.slurp,
      graphql: request.graphql,
    },
  };
}

/** Sends the request and every following page (with --paginate), printing each as it comes. */
export async function runApi(opts: ApiOptions, io: IO): Promise<void> {
  const { client, request: req } = opts;
  const printer = new ResponsePrinter(io, opts.print);
  let { path, body } = req;
  for (;;) {
    const res = await client.request(req.method, path, { body, headers: req.headers });
    let nextPath: string | undefined;
    let nextBody: typeof body;
    if (opts.print.paginate && res.status < 300) {
      if (req.graphql) {
        const cursor = findEndCursor(res.body);
        if (cursor !== undefined) [nextPath, nextBody] = [path, graphqlBody({ ...req.params, endCursor: cursor })];
      } else {
        const next = findNextPage(res.headers.link);
        // Later pages are the Link's URL alone: the fields are in it already.
        if (next) nextPath = nextRequestPath(next, path);
      }
    }
    await printer.page(res, req.method, nextPath !== undefined);
    if (nextPath === undefined) break;
    [path, body] = [nextPath, nextBody];
  }
  printer.finish();
}

export function registerApi(program: Command, f: Factory): void {
  program
    .command('api')
    .argument('<endpoint>', 'the API path, with or without its leading / (user, gists/ID, orgs/ORG/hooks?per_page=5), or graphql')
    .description(
      'call any API endpoint and print the response, as `gh api`: GET, or POST when fields or --input are given (-X to choose); ' +
        'fields go in a JSON body, or in the query string for GET and HEAD; errors print the body and `hublet: MESSAGE (HTTP N)`, exit 1',
    )
    .option('-X, --method <method>', 'the HTTP method (default GET, or POST with fields or --input)')
    .option(
      '-F, --field <key=value>',
      'a typed field: true, false, null and integers as JSON, @FILE reads a file, @- stdin; key[sub]=v, key[]=v nest (repeatable)',
      repeatable,
    )
    .option('-f, --raw-field <key=value>', 'a string field (repeatable; key:=JSON sends any JSON value)', repeatable)
    .option('-H, --header <key:value>', 'a request header (repeatable)', repeatable)
    .option('--input <file>', 'the request body from a file (- for stdin); fields then go in the query string')
    .option('-i, --include', 'print the status line and the response headers first')
    .option('--paginate', 'follow Link rel="next" to the last page (graphql: pageInfo.endCursor); array pages print as one array')
    .option('--slurp', 'with --paginate: print all pages as one outer JSON array')
    .option('-q, --jq <expression>', 'print what a jq expression selects from the response (strings without quotes)')
    .option(
      '-t, --template <template>',
      'format the response with a Go template: {{.field}}, {{range .}}…{{end}}, {{if}}, printf, join, pluck, tablerow, timeago, …',
    )
    .option('--silent', 'do not print the response body')
    .option('--hostname <host>', 'the server to call: HOST[:PORT] (https) or a URL; remote mode, as --server')
    .addHelpText(
      'after',
      `
Examples:
  $ hublet api user
  $ hublet api -X GET gists -f per_page=1 -i
  $ hublet api gists -F public=false -F 'files[notes.txt][content]=@notes.txt'
  $ hublet api --paginate gists --jq '.[].id'
  $ hublet api orgs/acme/hooks --template '{{range .}}{{.id}} {{.config.url}}{{"\\n"}}{{end}}'
  $ hublet api -X PATCH orgs/acme/hooks/1 -F 'events[]=push' -F 'events[]=fork' -F active=true
  $ echo '{"description":"x"}' | hublet api -X PATCH gists/ID --input -`,
    )
    .action(async (endpoint: string, flags: ApiFlags, command: Command) => {
      const g = withHostname(globals(command), flags.hostname);
      const asked = await apiRequest(endpoint, flags, f.io, f.env);
      const client = await openClient(g, f.env);
      try {
        await runApi({ ...asked, client, json: Boolean(g.json) }, f.io);
      } finally {
        await client.close();
      }
    });
}
