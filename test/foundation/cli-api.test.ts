// `hublet api` with gh api's flags, run in-process in local mode (over a test server's data dir) and in remote mode (over
// HTTP to it): typed and raw fields, nested fields, @file and @-, fields of a GET in the query string, --input,
// --paginate (merging array pages, --slurp, GraphQL cursors), --jq, --template, --silent, -i, -H, --hostname, and gh's
// error output (the body on stdout, `hublet: MESSAGE (HTTP N)` on stderr, exit 1). A recording server in the test shows
// the exact requests remote mode sends (method, path and query, headers, body).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, pool, type CliResult, type Env } from '../helpers/cli.js';
import { runInProcess, startInProcessCliServer, type InProcessCliServer } from '../helpers/cli-inprocess.js';
import type { TestServer } from '../helpers/server.js';

let cli: InProcessCliServer;
let s: TestServer;
let token: string;
/** ann's gists, oldest first. */
let gistIds: string[];

const ANN = 'api-ann';

beforeAll(async () => {
  cli = await startInProcessCliServer();
  s = cli.server;
  ({ token } = await s.userWithToken(ANN, ['gist', 'user', 'admin:org', 'read:org']));
  gistIds = [];
  for (const n of [1, 2, 3]) {
    const r = await s.api('POST', '/gists', {
      token,
      body: { description: `gist ${n}`, public: true, files: { [`f${n}.txt`]: { content: `content ${n}` } } },
    });
    expect(r.status).toBe(201);
    gistIds.push(r.body.id);
  }
  await s.createOrg('api-org', ANN);
});
afterAll(async () => {
  await cli?.close();
});

type Mode = 'local' | 'remote';
const MODES: Mode[] = ['local', 'remote'];

interface RunOpts {
  stdin?: string;
  isTTY?: boolean;
  extraEnv?: Env;
}

/** `hublet api …` as ann: locally (`--as`) over the server's data dir, or remotely with ann's token. */
function api(mode: Mode, args: string[], opts: RunOpts = {}): Promise<CliResult> {
  if (mode === 'local') return cli.run(['--data', s.dataDir, '--database', s.databaseUrl, '--as', ANN, 'api', ...args], opts);
  return runInProcess(['--server', s.url, '--token', token, 'api', ...args], { env: cli.sandbox.env, ...opts });
}

/** Both modes, the same command; the results in MODES order. */
const both = (args: string[], opts: RunOpts = {}) => pool(MODES.map((m) => () => api(m, args, opts)));

/** ann's gist ids as the API lists them now (most recently updated first). */
async function listedIds(): Promise<string[]> {
  const r = await s.api('GET', '/gists?per_page=100', { token });
  return r.body.map((g: { id: string }) => g.id);
}

/** stderr's first line: the error line, without any hint lines that may follow it. */
const firstLine = (stderr: string) => stderr.split('\n')[0];

interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Answer {
  status?: number;
  headers?: Record<string, string | undefined>;
  body?: unknown;
}

/** An HTTP server that records every request and answers with `answer` (200 `{}` by default); `prefix` is a path the
 * CLI's server URL has (as `…/api/v3`). */
async function recorder(answer: (req: Recorded, n: number, url: string) => Answer = () => ({}), prefix = '') {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(rec);
      const a = answer(rec, requests.length, url);
      const body = a.body === undefined ? '{}' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
      for (const [k, v] of Object.entries(a.headers ?? {})) if (v !== undefined) headers[k] = v;
      res.writeHead(a.status ?? 200, headers);
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    requests,
    /** `hublet --server URL --token t api ARGS…` against this recorder. */
    run: (args: string[], opts: RunOpts = {}) =>
      runInProcess(['--server', url + prefix, '--token', 'hlp_recorded', 'api', ...args], { env: cli.sandbox.env, ...opts }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('fields', () => {
  it('-F is typed (true, false, null, integers), -f is a string, key[sub] and key[] nest, key:=JSON is any JSON', async () => {
    const rec = await recorder();
    try {
      ok(
        await rec.run([
          'things',
          '-f',
          'raw=5',
          '-F',
          'n=42',
          '-F',
          'neg=-7',
          '-F',
          'yes=true',
          '-F',
          'no=false',
          '-F',
          'nothing=null',
          '-F',
          'float=1.5',
          '-F',
          'word=hello',
          '-F',
          'obj[a]=1',
          '-F',
          'obj[b][c]=x',
          '-F',
          'list[]=1',
          '-F',
          'list[]=two',
          '-F',
          'empty[]',
          '-F',
          'rows[][name]=a',
          '-F',
          'rows[][value]=1',
          '-F',
          'rows[][name]=b',
          '-f',
          'typed:={"deep":[1,2.5]}',
        ]),
      );
      expect(rec.requests).toHaveLength(1);
      const [req] = rec.requests;
      expect(req.method).toBe('POST'); // fields without -X: POST, as gh
      expect(req.url).toBe('/things');
      expect(req.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(req.body)).toEqual({
        raw: '5',
        typed: { deep: [1, 2.5] },
        n: 42,
        neg: -7,
        yes: true,
        no: false,
        nothing: null,
        float: '1.5',
        word: 'hello',
        obj: { a: 1, b: { c: 'x' } },
        list: [1, 'two'],
        empty: [],
        rows: [{ name: 'a', value: 1 }, { name: 'b' }],
      });
    } finally {
      await rec.close();
    }
  });

  it('@file reads a file and @- reads stdin, into a real gist in both modes', async () => {
    const file = path.join(cli.sandbox.root, 'notes.txt');
    fs.writeFileSync(file, 'line one\nline two\n');
    const results = await pool(
      MODES.map(
        (m) => () =>
          api(m, ['gists', '-F', `files[notes.txt][content]=@${file}`, '-F', 'description=@-', '-F', 'public=false', '--jq', '.id'], {
            stdin: `made ${m}`,
          }),
      ),
    );
    for (const [i, r] of results.entries()) {
      const id = ok(r).stdout.trim();
      const gist = await s.api('GET', `/gists/${id}`, { token });
      expect(gist.status).toBe(200);
      expect(gist.body).toMatchObject({ description: `made ${MODES[i]}`, public: false, owner: { login: ANN } });
      expect(gist.body.files['notes.txt'].content).toBe('line one\nline two\n');
      expect((await s.api('DELETE', `/gists/${id}`, { token })).status).toBe(204);
    }
  });

  it('refuses fields it cannot read or parse with a usage error (exit 2) before any request', async () => {
    const rec = await recorder();
    try {
      const missing = path.join(cli.sandbox.root, 'no-such-file.txt');
      const results = await pool([
        () => rec.run(['things', '-f', 'no-equals-sign']),
        () => rec.run(['things', '-F', `body=@${missing}`]),
        () => rec.run(['things', '-F', 'a=1', '-F', 'a=2']),
        () => rec.run(['things', '-F', 'a=1', '-F', 'a[]=2']),
        () => rec.run(['things', '-F', 'a=@-', '--input', '-'], { stdin: 'x' }),
        () => rec.run(['things', '-H', 'no colon']),
      ]);
      expect(results.map((r) => r.code)).toEqual([2, 2, 2, 2, 2, 2]);
      expect(results[0].stderr).toContain('invalid key: "no-equals-sign"'); // gh's message
      expect(results[1].stderr).toContain('no-such-file.txt');
      expect(results[2].stderr).toContain('unexpected override existing field under "a"');
      expect(results[3].stderr).toContain('expected array type under "a"');
      expect(results[4].stderr).toContain('standard input');
      expect(results[5].stderr).toContain(`header "no colon" requires a value separated by ':'`);
      for (const r of results) expect(r.stdout).toBe('');
      expect(rec.requests).toHaveLength(0);
    } finally {
      await rec.close();
    }
  });
});

describe('the method, the query string and the body', () => {
  it('-X GET sends the fields as the query string (sorted, arrays as key[]), HEAD too; no fields and no -X is a GET', async () => {
    const rec = await recorder();
    try {
      ok(
        await rec.run([
          '-X',
          'GET',
          'search/things',
          '-f',
          'q=a b',
          '-F',
          'per_page=1',
          '-F',
          'labels[]=x',
          '-F',
          'labels[]=y',
          '-F',
          'o[k]=v',
        ]),
      );
      ok(await rec.run(['search/things?sort=new', '--method', 'head', '-f', 'q=z']));
      ok(await rec.run(['/plain']));
      expect(rec.requests.map((r) => [r.method, r.url, r.body])).toEqual([
        ['GET', '/search/things?labels%5B%5D=x&labels%5B%5D=y&o%5Bk%5D=v&per_page=1&q=a+b', ''],
        ['HEAD', '/search/things?sort=new&q=z', ''],
        ['GET', '/plain', ''],
      ]);
    } finally {
      await rec.close();
    }
  });

  it('-X GET -f per_page=1 reaches the server as the query in both modes (one gist of three, a Link to the next)', async () => {
    for (const r of await both(['-X', 'GET', 'gists', '-f', 'per_page=1', '-i'])) {
      const out = ok(r).stdout;
      expect(out).toMatch(/^HTTP\/1\.1 200 OK\n/);
      expect(out).toMatch(/\r\nLink: <[^>]*\/gists\?per_page=1&page=2>; rel="next"/);
      const body = JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4));
      expect(body.map((g: { id: string }) => g.id)).toEqual([gistIds[2]]); // newest first
    }
  });

  it('--input sends a file or stdin as the body (POST by default), with the fields in the query string', async () => {
    const rec = await recorder();
    const file = path.join(cli.sandbox.root, 'body.json');
    fs.writeFileSync(file, '{"from":"file"}');
    try {
      ok(await rec.run(['things', '--input', file, '-f', 'dry=yes']));
      ok(await rec.run(['-X', 'PUT', 'things/1', '--input', '-'], { stdin: '{"from":"stdin"}' }));
      expect(rec.requests.map((r) => [r.method, r.url, r.body])).toEqual([
        ['POST', '/things?dry=yes', '{"from":"file"}'],
        ['PUT', '/things/1', '{"from":"stdin"}'],
      ]);
    } finally {
      await rec.close();
    }
    // And against hublet, in both modes: the body edits the gist.
    for (const m of MODES) {
      const r = await api(m, ['-X', 'PATCH', `gists/${gistIds[0]}`, '--input', '-', '--jq', '.description'], {
        stdin: `{"description":"via input ${m}"}`,
      });
      expect(ok(r).stdout).toBe(`via input ${m}\n`);
      expect((await s.api('GET', `/gists/${gistIds[0]}`)).body.description).toBe(`via input ${m}`);
    }
  });

  it('-H adds request headers (the API version here), shown by -i in both modes', async () => {
    for (const r of await both(['user', '-H', 'X-Service-Api-Version: 2026-03-10', '-i'])) {
      expect(ok(r).stdout).toContain('\r\nX-Service-Api-Version-Selected: 2026-03-10\r\n');
    }
    const rec = await recorder();
    try {
      ok(await rec.run(['x', '-H', 'Accept: text/plain', '-H', 'X-Custom:  spaced ']));
      expect(rec.requests[0].headers).toMatchObject({ accept: 'text/plain', 'x-custom': 'spaced' });
    } finally {
      await rec.close();
    }
  });

  it('graphql: fields other than query and operationName are variables; --paginate follows pageInfo.endCursor', async () => {
    const query =
      'query($endCursor: String) { viewer { gists(first: 1, after: $endCursor) { nodes { name } pageInfo { hasNextPage endCursor } } } }';
    for (const r of await both(['graphql', '--paginate', '-f', `query=${query}`, '--jq', '.data.viewer.gists.nodes[].name'])) {
      // Every gist of ann's, one page each (the ones other tests make meanwhile are deleted again, but may be seen).
      const names = ok(r).stdout.trim().split('\n');
      for (const id of gistIds) expect(names).toContain(id);
    }
    const rec = await recorder((_req, n) => ({
      body: { data: { viewer: { things: { nodes: [n], pageInfo: { hasNextPage: n < 2, endCursor: `c${n}` } } } } },
    }));
    try {
      ok(await rec.run(['graphql', '--paginate', '-f', 'query=Q', '-F', 'first=1', '-f', 'operationName=Op']));
      expect(rec.requests.map((r) => JSON.parse(r.body))).toEqual([
        { query: 'Q', operationName: 'Op', variables: { first: 1 } },
        { query: 'Q', operationName: 'Op', variables: { first: 1, endCursor: 'c1' } },
      ]);
      expect(rec.requests.map((r) => [r.method, r.url])).toEqual([
        ['POST', '/graphql'],
        ['POST', '/graphql'],
      ]);
    } finally {
      await rec.close();
    }
  });
});

describe('--paginate', () => {
  it('follows Link rel="next" over three pages and prints one merged array, in both modes', async () => {
    for (const args of [
      ['gists?per_page=1', '--paginate'],
      ['-X', 'GET', 'gists', '-F', 'per_page=1', '--paginate'],
    ]) {
      for (const r of await both(args)) {
        const merged = JSON.parse(ok(r).stdout);
        expect(merged.map((g: { id: string }) => g.id)).toEqual(await listedIds());
        expect(merged).toHaveLength(3);
        expect(r.stdout).toBe(`${JSON.stringify(merged, null, 2)}\n`);
      }
    }
  });

  it('--jq and --template apply to each page; --slurp prints the pages as one outer array', async () => {
    const [jqLocal, jqRemote] = await both(['gists?per_page=1', '--paginate', '--jq', '.[].id']);
    const expected = `${(await listedIds()).join('\n')}\n`;
    expect(ok(jqLocal).stdout).toBe(expected);
    expect(ok(jqRemote).stdout).toBe(expected);
    // `length` per page: three pages of one.
    for (const r of await both(['gists?per_page=1', '--paginate', '--jq', 'length'])) expect(ok(r).stdout).toBe('1\n1\n1\n');
    const descriptions = (await s.api('GET', '/gists?per_page=100', { token })).body.map(
      (g: { description: string }) => `${g.description};`,
    );
    for (const r of await both(['gists?per_page=1', '--paginate', '--template', '{{range .}}{{.description}};{{end}}'])) {
      expect(ok(r).stdout).toBe(descriptions.join(''));
    }
    for (const r of await both(['gists?per_page=2', '--paginate', '--slurp'])) {
      const pages = JSON.parse(ok(r).stdout);
      expect(pages.map((p: unknown[]) => p.length)).toEqual([2, 1]);
    }
  });

  it('asks for per_page=100 unless a page size is given; later pages are the Link alone; object pages print one by one', async () => {
    const rec = await recorder(
      (_req, n, url) => ({
        headers:
          n < 3 ? { link: `<${url}/api/v3/things?per_page=100&page=${n + 1}>; rel="next", <${url}/api/v3/things?page=3>; rel="last"` } : {},
        body: n === 2 ? [] : [{ n }],
      }),
      '/api/v3',
    );
    try {
      const merged = ok(await rec.run(['things', '--paginate', '-X', 'GET', '-f', 'q=x']));
      expect(JSON.parse(merged.stdout)).toEqual([{ n: 1 }, { n: 3 }]);
      // The server's links carry the path prefix the CLI's server URL has (/api/v3): it is not doubled.
      expect(rec.requests.map((r) => r.url)).toEqual([
        '/api/v3/things?per_page=100&q=x',
        '/api/v3/things?per_page=100&page=2',
        '/api/v3/things?per_page=100&page=3',
      ]);
      ok(await rec.run(['things?per_page=5', '--paginate']));
      expect(rec.requests[3].url).toBe('/api/v3/things?per_page=5');
    } finally {
      await rec.close();
    }
    const objects = await recorder((_req, n, url) => ({
      headers: n < 2 ? { link: `<${url}/objects?page=2>; rel="next"` } : {},
      body: { page: n },
    }));
    try {
      expect(ok(await objects.run(['objects', '--paginate'])).stdout).toBe('{\n  "page": 1\n}\n{\n  "page": 2\n}\n');
    } finally {
      await objects.close();
    }
  });

  it('is refused with -X POST, with --input, and --slurp without it or with --jq (exit 2)', async () => {
    const results = await pool([
      () => api('remote', ['gists', '--paginate', '-X', 'POST']),
      () => api('remote', ['gists', '--paginate', '--input', '-'], { stdin: '{}' }),
      () => api('remote', ['gists', '--slurp']),
      () => api('remote', ['gists', '--paginate', '--slurp', '--jq', '.']),
      () => api('remote', ['gists', '--jq', '.', '--silent']),
      () => api('remote', ['gists', '--jq', '.', '--template', '{{.}}']),
    ]);
    expect(results.map((r) => [r.code, r.stdout])).toEqual(results.map(() => [2, '']));
    expect(results[0].stderr).toContain('not supported for non-GET requests');
    expect(results[1].stderr).toContain('not supported with `--input`');
    expect(results[2].stderr).toContain('`--paginate` required when passing `--slurp`');
    expect(results[4].stderr).toContain('only one of');
  });
});

describe('output', () => {
  it('--jq prints strings raw, numbers and booleans as text, null as an empty line, objects compact (indented on a terminal)', async () => {
    const ids = await listedIds();
    for (const r of await both(['gists?per_page=3', '--jq', '.[].id'])) expect(ok(r).stdout).toBe(`${ids.join('\n')}\n`);
    for (const r of await both(['user', '--jq', '.login, .id > 0, null, {login, site_admin}, [.login]'])) {
      expect(ok(r).stdout).toBe(`${ANN}\ntrue\n\n{"login":"${ANN}","site_admin":false}\n["${ANN}"]\n`);
    }
    const tty = ok(await api('local', ['user', '--jq', '{login}'], { isTTY: true }));
    expect(tty.stdout).toBe(`{\n  "login": "${ANN}"\n}\n`);
  });

  it("--jq: a bad expression is a usage error before any request; a runtime error exits 1 with jq's message", async () => {
    const rec = await recorder(() => ({ body: { a: 'text' } }));
    try {
      const bad = await rec.run(['things', '--jq', '.[']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('syntax error');
      expect(rec.requests).toHaveLength(0);
      const failing = await rec.run(['things', '--jq', '.a + 1']);
      expect(failing.code).toBe(1);
      expect(failing.stderr).toMatch(/^hublet: jq: error.*cannot be added/);
    } finally {
      await rec.close();
    }
  });

  it("--template formats with a Go template: fields, range, if, pipelines, gh's functions, tablerow", async () => {
    const listed = (await s.api('GET', '/gists?per_page=100', { token })).body as { id: string; description: string }[];
    const expected = listed.map((g) => `${g.id} ${g.description}\n`).join('');
    for (const r of await both(['gists?per_page=3', '--template', '{{range .}}{{.id}} {{.description}}{{"\\n"}}{{end}}'])) {
      expect(ok(r).stdout).toBe(expected);
    }
    for (const r of await both([
      'gists?per_page=3',
      '--template',
      '{{range .}}{{tablerow .description (.public | printf "%v") .owner.login}}{{end}}',
    ])) {
      // Columns padded to the widest cell, two spaces between, the last one not padded.
      const width = Math.max(...listed.map((g) => g.description.length));
      expect(ok(r).stdout).toBe(listed.map((g) => `${g.description.padEnd(width)}  true  ${ANN}\n`).join(''));
    }
    for (const r of await both([
      'user',
      '--template',
      '{{.login}}{{if .site_admin}} (admin){{else}} (user){{end}} {{len .login}} {{.no_such_key}} {{.plan.name | printf "%q"}}',
    ])) {
      expect(ok(r).stdout).toMatch(new RegExp(`^${ANN} \\(user\\) ${ANN.length} <no value> ".*"$`));
    }
    const rec = await recorder(() => ({ body: [{ title: 'a', labels: [{ name: 'bug' }, { name: 'ui' }], at: '2024-03-05T14:07:09Z' }] }));
    try {
      const r = ok(
        await rec.run([
          'issues',
          '--template',
          '{{range .}}{{.title}} ({{.labels | pluck "name" | join ", "}}) {{timefmt "2006-01-02 15:04" .at}}{{end}}',
        ]),
      );
      expect(r.stdout).toBe('a (bug, ui) 2024-03-05 14:07');
      const bad = await rec.run(['issues', '--template', '{{range .}}']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--template');
      expect(rec.requests).toHaveLength(1);
    } finally {
      await rec.close();
    }
  });

  it('-i prints the status line and the headers before the body; --silent prints nothing', async () => {
    for (const r of await both(['users/api-ann', '-i'])) {
      const out = ok(r).stdout;
      const [head, body] = [out.slice(0, out.indexOf('\r\n\r\n')), out.slice(out.indexOf('\r\n\r\n') + 4)];
      expect(head.split('\n')[0]).toBe('HTTP/1.1 200 OK');
      expect(head).toContain('\r\nContent-Type: application/json; charset=utf-8');
      expect(head).toContain('\r\nX-Service-Media-Type: service.v3; format=json');
      expect(head).toMatch(/\r\nEtag: /);
      expect(JSON.parse(body).login).toBe(ANN);
    }
    for (const r of await both(['users/api-ann', '--silent'])) expect(ok(r).stdout).toBe('');
    // 204: -i shows the status; there is no body.
    const starred = await both(['-X', 'PUT', `gists/${gistIds[1]}/star`, '-i']);
    for (const r of starred) expect(ok(r).stdout).toMatch(/^HTTP\/1\.1 204 No Content\n[\s\S]*\r\n\r\n$/);
  });
});

describe('errors', () => {
  it('print the body on stdout and `hublet: MESSAGE (HTTP N)` on stderr, exit 1, the same in both modes', async () => {
    const [l404, r404] = await both(['users/nobody-at-all']);
    for (const r of [l404, r404]) {
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ message: 'Not Found', status: '404' });
      expect(firstLine(r.stderr)).toBe('hublet: Not Found (HTTP 404)');
    }
    expect(r404.stdout).toBe(l404.stdout);
    const [l422, r422] = await both(['-X', 'PATCH', `gists/${gistIds[0]}`, '-F', 'files=1']);
    for (const r of [l422, r422]) {
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).message).toBe('Validation Failed');
      expect(firstLine(r.stderr)).toBe('hublet: Validation Failed (HTTP 422)');
    }
    // --jq and --template are not applied to an error body; --silent drops it but keeps the error line.
    for (const r of await both(['users/nobody-at-all', '--jq', '.login'])) {
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).message).toBe('Not Found');
    }
    for (const r of await both(['users/nobody-at-all', '--silent'])) {
      expect([r.code, r.stdout, firstLine(r.stderr)]).toEqual([1, '', 'hublet: Not Found (HTTP 404)']);
    }
  });

  it('exit 4 for a refused credential (401), and a message from `errors` or the bare status when there is no message', async () => {
    const refused = await runInProcess(['--server', s.url, '--token', `hlp_${'n'.repeat(36)}`, 'api', 'user'], { env: cli.sandbox.env });
    expect(refused.code).toBe(4);
    expect(firstLine(refused.stderr)).toBe('hublet: Bad credentials (HTTP 401)');
    expect(refused.stderr).toContain('\nhint: the server refused the credential');
    // A token without the route's scope: the server's X-Accepted-OAuth-Scopes becomes a hint, as gh's scope suggestion.
    const { token: noScopes } = await s.userWithToken('api-noscopes', []);
    const unscoped = await runInProcess(['--server', s.url, '--token', noScopes, 'api', 'gists', '-F', 'files[a.txt][content]=x'], {
      env: cli.sandbox.env,
    });
    expect(unscoped.code).toBe(1);
    expect(unscoped.stderr).toMatch(/^hublet: Not Found \(HTTP 404\)\nhint: this needs a token with the gist scope/);
    const rec = await recorder((req) =>
      req.url === '/graphql'
        ? { body: { errors: [{ message: 'first problem' }, { message: 'second problem' }] } }
        : req.url === '/text'
          ? { status: 502, headers: { 'content-type': 'text/plain' }, body: 'bad gateway' }
          : { status: 409, body: { errors: 'conflicting', message: 'Conflict' } },
    );
    try {
      const [gql, text, conflict] = await Promise.all([rec.run(['graphql', '-f', 'query=q']), rec.run(['text']), rec.run(['conflict'])]);
      // GraphQL reports errors with a 200.
      expect([gql.code, gql.stderr]).toEqual([1, 'hublet: first problem\nsecond problem\n']);
      expect([text.code, text.stdout, text.stderr]).toEqual([1, 'bad gateway', 'hublet: HTTP 502\n']);
      expect([conflict.code, conflict.stderr]).toEqual([1, 'hublet: conflicting (Conflict)\n']);
    } finally {
      await rec.close();
    }
  });
});

describe('choosing the server', () => {
  it('--hostname takes a URL (or HOST[:PORT], as https), and --server may follow the command', async () => {
    const [byUrl, afterCommand] = await pool([
      () => runInProcess(['--token', token, 'api', 'user', '--hostname', s.url, '--jq', '.login'], { env: cli.sandbox.env }),
      () => runInProcess(['api', 'user', '--server', s.url, '--token', token, '--jq', '.login'], { env: cli.sandbox.env }),
    ]);
    expect(ok(byUrl).stdout).toBe(`${ANN}\n`);
    expect(ok(afterCommand).stdout).toBe(`${ANN}\n`);
    // A bare host is https: the test server speaks plain HTTP, so the TLS handshake fails, naming the https URL.
    const host = new URL(s.url).host;
    const bare = await runInProcess(['--token', token, 'api', 'user', '--hostname', host], { env: cli.sandbox.env });
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain(`cannot reach https://${host}`);
  });

  it('refuses --hostname with another --server or with --data, and a hostname that is not one (exit 2)', async () => {
    const results = await pool([
      () => runInProcess(['--server', 'http://127.0.0.1:1', 'api', 'user', '--hostname', s.url], { env: cli.sandbox.env }),
      () => runInProcess(['--data', path.join(cli.sandbox.root, 'never'), 'api', 'user', '--hostname', s.url], { env: cli.sandbox.env }),
      () => runInProcess(['api', 'user', '--hostname', 'not a host'], { env: cli.sandbox.env }),
    ]);
    expect(results.map((r) => r.code)).toEqual([2, 2, 2]);
    expect(results[0].stderr).toContain('--hostname and --server');
    expect(results[1].stderr).toContain('--data');
    expect(results[2].stderr).toContain('invalid hostname');
    expect(fs.existsSync(path.join(cli.sandbox.root, 'never'))).toBe(false);
  });
});
