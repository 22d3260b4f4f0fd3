// `hublet gist import --from URL [--user LOGIN] [--from-token T]`: copies every gist of a user (or of the token's own
// user) from a server that answers GitHub's gist API into this hublet, with its whole history.
//
// Each gist's history comes over git: fetched from its git_pull_url into a scratch repository, then pushed to the copy
// (through the client's reach(): the server itself remotely, the loopback gateway locally), so every revision keeps
// its SHA and the server records it through its one push path. The copy is created first, in one request that also
// records its source (POST /user/gist-imports), with a placeholder revision the first push replaces; that record is
// what makes a second run add only new gists and new revisions, and resume an import that was cut short.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson, printTable } from '../../output.js';
import { Progress } from '../migration/progress.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { GistSource, sourceBase, type SourceGist } from './import-source.js';
import { GitFailed, Scratch, type Remote } from './import-git.js';
import { collectPages, getGist } from './shared.js';

interface ImportFlags {
  from: string;
  user?: string;
  fromToken?: string;
}

interface ImportOptions extends ClientOptions {
  /** The server copied from: what the import asks of it. */
  source: Pick<GistSource, 'root' | 'list' | 'head' | 'gitToken'>;
  user?: string;
  /** git's environment. */
  env: NodeJS.ProcessEnv;
}

/** A recorded import (GET /user/gist-imports). */
interface ImportRecord {
  source: string;
  gist_id: string;
  head: string;
  pending: boolean;
}

type Status = 'created' | 'updated' | 'unchanged' | 'diverged' | 'failed';

interface Result {
  source: string;
  /** The copy's id on this server (null when none was made). */
  id: string | null;
  status: Status;
  revisions_added: number;
  message?: string;
}

/** The copy on this server: where git pushes to, and where it stands. */
interface Copy {
  id: string;
  pushUrl: string;
  head: string;
  /** Still at the placeholder revision the import created: the source's history replaces it. */
  pending: boolean;
}

/** The file a copy holds until the source's history is pushed over it. */
function placeholder(g: SourceGist): Record<string, { content: string }> {
  return { 'importing.md': { content: `This gist is being copied from ${g.url}.\n` } };
}

class Importer {
  private readonly tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-gist-import-'));
  private count = 0;

  constructor(
    private readonly opts: ImportOptions,
    private readonly records: Map<string, ImportRecord>,
  ) {}

  close(): void {
    fs.rmSync(this.tmp, { recursive: true, force: true });
  }

  /** The copy of `g` recorded before, or a new one (with its record) made now. */
  private async copyOf(g: SourceGist): Promise<Copy> {
    const client = this.opts.client;
    const record = this.records.get(g.url);
    if (record) {
      const gist = await getGist(client, record.gist_id);
      return {
        id: gist.id,
        pushUrl: (gist as { git_push_url?: string }).git_push_url ?? gist.git_pull_url,
        head: record.head,
        pending: record.pending,
      };
    }
    const res = expectOk(
      await client.request('POST', '/user/gist-imports', {
        body: { source: g.url, description: g.description, public: g.public, files: placeholder(g) },
      }),
    );
    const body = res.body as ImportRecord & { gist: { id: string; git_push_url: string } };
    return { id: body.gist.id, pushUrl: body.gist.git_push_url, head: body.head, pending: body.pending };
  }

  /** Brings one gist over (or up to date); never throws for what concerns this gist alone. */
  async one(g: SourceGist, progress: (step: string) => void): Promise<Result> {
    const base = { source: g.url, id: null, revisions_added: 0 };
    const record = this.records.get(g.url);
    // Unchanged, as the source's API says: no git at all.
    if (record && !record.pending) {
      progress('checking');
      const head = await this.opts.source.head(g);
      if (head === record.head) return { ...base, id: record.gist_id, status: 'unchanged' };
    }
    let copy: Copy | undefined;
    try {
      progress('fetching');
      const scratch = await Scratch.create(path.join(this.tmp, `${++this.count}.git`), this.opts.env);
      const tip = await scratch.fetchHead({ url: g.gitPullUrl, token: this.opts.source.gitToken(g.gitPullUrl) }, 'refs/import/source');
      copy = await this.copyOf(g);
      const at = { ...base, id: copy.id };
      if (!copy.pending && copy.head === tip) return { ...at, status: 'unchanged' };
      const reached = await this.opts.client.reach(copy.pushUrl, { withToken: true });
      const remote: Remote = { url: reached.url, token: reached.token };
      const branch = await scratch.branchOf(remote);
      progress('pushing');
      if (copy.pending) {
        await scratch.push(remote, tip, branch, true);
        return { ...at, status: 'created', revisions_added: await scratch.revisions(tip) };
      }
      if ((await scratch.has(copy.head)) && (await scratch.isAncestor(copy.head, tip))) {
        const added = await scratch.revisions(tip, copy.head);
        await scratch.push(remote, tip, branch, false);
        return { ...at, status: 'updated', revisions_added: added };
      }
      // The copy has revisions the source lacks: edited here (ahead), or the source's history was rewritten.
      const local = await scratch.fetchHead(remote, 'refs/import/copy');
      if (await scratch.isAncestor(tip, local))
        return { ...at, status: 'unchanged', message: 'the copy has revisions newer than the source; left as it is' };
      return {
        ...at,
        status: 'diverged',
        message: "the copy's history and the source's have parted (edited here, or rewritten there); left as it is",
      };
    } catch (err) {
      if (!(err instanceof GitFailed) && !(err instanceof CliExit && err.code === EXIT.error)) throw err;
      // A copy that never received its history goes again: nothing half-imported stays (the next run starts afresh).
      if (copy?.pending) await this.opts.client.request('DELETE', `/gists/${copy.id}`);
      return {
        ...base,
        status: 'failed',
        message: err.message
          .replace(/^hublet: /, '')
          .replace(/\s+/g, ' ')
          .trim(),
      };
    }
  }
}

/** Every import the caller recorded, by source URL. */
async function recordedImports(client: Client): Promise<Map<string, ImportRecord>> {
  const all = await collectPages<ImportRecord>(client, '/user/gist-imports', Number.POSITIVE_INFINITY);
  return new Map(all.map((r) => [r.source, r]));
}

function summary(results: Result[]) {
  const of = (s: Status) => results.filter((r) => r.status === s);
  const revisions = (s: Status) => of(s).reduce((n, r) => n + r.revisions_added, 0);
  return {
    created: of('created').length,
    updated: of('updated').length,
    unchanged: of('unchanged').length,
    diverged: of('diverged').length,
    failed: of('failed').length,
    revisions_added: revisions('created') + revisions('updated'),
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export async function runImport(opts: ImportOptions, io: IO): Promise<void> {
  // This server first: a refused token here should not cost a whole listing of the source.
  const records = await recordedImports(opts.client);
  const { gists, unusable } = await opts.source.list(opts.user);
  const results: Result[] = unusable.map((u) => ({ source: u.url, id: null, status: 'failed', revisions_added: 0, message: u.problem }));
  const importer = new Importer(opts, records);
  const progress = new Progress(io);
  try {
    // Oldest first (lists are newest first), so the copies are made in the order the originals were.
    const ordered = [...gists].reverse();
    for (const [i, g] of ordered.entries()) {
      results.push(await importer.one(g, (step) => progress.update(`[${i + 1}/${ordered.length}] ${g.id}: ${step}…`, true)));
    }
  } finally {
    progress.done();
    importer.close();
  }
  const totals = summary(results);
  for (const r of results) if (r.message) io.stderr.write(`${r.status === 'failed' ? 'hublet: ' : ''}${r.source}: ${r.message}\n`);
  if (opts.json) {
    printJson(io.stdout, { from: opts.source.root, user: opts.user ?? null, gists: results, summary: totals });
  } else {
    if (results.length) {
      printTable(
        io.stdout,
        results.map((r) => ({
          status: r.status,
          source: r.source,
          gist: r.id ?? '',
          revisions: r.revisions_added ? `+${r.revisions_added}` : '',
        })),
        ['status', 'source', 'gist', 'revisions'],
      );
    }
    const parts = [
      `${plural(totals.created, 'gist')} imported`,
      `${totals.updated} updated`,
      `${plural(totals.revisions_added, 'revision')} added`,
      `${totals.unchanged} unchanged`,
      ...(totals.diverged ? [`${totals.diverged} diverged`] : []),
      ...(totals.failed ? [`${totals.failed} failed`] : []),
    ];
    io.stdout.write(`${parts.join(', ')}\n`);
  }
  if (totals.failed) throw new CliExit(EXIT.error, `hublet: ${plural(totals.failed, 'gist')} of ${results.length} could not be imported`);
}

export function registerImport(gist: Command, f: Factory): void {
  withExamples(
    gist
      .command('import')
      .description(
        "copy every gist of a user from a server that speaks GitHub's gist API (GitHub, another hublet), with its full history; run it again to add only what is new",
      )
      .requiredOption('--from <url>', "the source server's API URL: https://api.github.com, https://HOST/api/v3, a hublet server's URL")
      .option(
        '--user <login>',
        "whose gists to copy (their public ones; your secret ones too when it is the token's user); default: the token's own",
      )
      .option(
        '--from-token <token>',
        "a token of the source server (else HUBLET_FROM_TOKEN): needed for your own secret gists; sent only to that server's origin",
      ),
    [
      '# every gist of your GitHub account (secret ones too), into this hublet',
      'HUBLET_FROM_TOKEN=ghp_… hublet gist import --from https://api.github.com',
      "# a user's public gists from another hublet server; run again later to fetch only new revisions",
      'hublet gist import --from https://hublet.example.com --user octocat',
    ],
  ).action(async (flags: ImportFlags, command: Command) => {
    // The source is checked before this server's data dir or connection is opened: a bad --from exits 2 at once.
    const base = sourceBase(flags.from);
    const token = flags.fromToken || f.env.HUBLET_FROM_TOKEN || undefined;
    if (!flags.user && !token) {
      throw new CliExit(
        EXIT.usage,
        `hublet: whose gists? pass --user LOGIN, or a token of ${base} with --from-token (or HUBLET_FROM_TOKEN) to copy that token's own gists`,
      );
    }
    const source = new GistSource(base, token);
    await withClient(command, f, (c) => runImport({ ...c, source, user: flags.user, env: f.env }, f.io));
  });
}
