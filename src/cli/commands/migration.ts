// `hublet migration …`: start, watch, list, download (resumable, with progress), delete archives, unlock, list repositories.
import fs from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { LocalClient, type Client, type GlobalOptions } from '../client.js';
import { CliExit, EXIT, expectOk, printJson, printTable } from '../output.js';
import { withClient } from './with-client.js';

interface Migration {
  id: number;
  guid: string;
  state: 'pending' | 'exporting' | 'exported' | 'failed';
  owner: { login: string; type: string };
  repositories?: { full_name: string }[];
  lock_repositories: boolean;
  exclude_git_data: boolean;
  exclude_metadata: boolean;
  org_metadata_only: boolean;
  archive_url?: string;
  failure_reason?: string;
  created_at: string;
  updated_at: string;
}

interface ScopeOptions {
  org?: string;
}

const EXPORT_QUEUES = ['migration-export'];
const enc = encodeURIComponent;

function migrationId(v: string): string {
  if (!/^[1-9]\d{0,15}$/.test(v)) throw new InvalidArgumentError('expected a migration id (a positive integer)');
  return v;
}

/** `/orgs/ORG/migrations` with --org, else the signed-in user's `/user/migrations`. */
function basePath(opts: ScopeOptions): string {
  return opts.org ? `/orgs/${enc(opts.org)}/migrations` : '/user/migrations';
}

/** Every page of a list (per_page=100, following `Link: rel="next"`). */
async function allPages<T>(client: Client, path: string): Promise<T[]> {
  const out: T[] = [];
  let next: string | undefined = `${path}${path.includes('?') ? '&' : '?'}per_page=100`;
  while (next) {
    const res = expectOk(await client.request('GET', next));
    out.push(...(res.body as T[]));
    const link = /<([^>]+)>;\s*rel="next"/.exec(res.headers.link ?? '');
    next = link ? new URL(link[1]).pathname + new URL(link[1]).search : undefined;
  }
  return out;
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

/** A status line redrawn in place on a terminal; silent when stderr is not one. */
class Progress {
  private readonly tty = Boolean(process.stderr.isTTY);
  private last = 0;
  private shown = false;
  update(line: string, force = false): void {
    if (!this.tty) return;
    const now = Date.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    this.shown = true;
    process.stderr.write(`\r\x1b[2K${line}`);
  }
  done(): void {
    if (this.shown) process.stderr.write('\n');
    this.shown = false;
  }
}

async function getMigration(client: Client, opts: ScopeOptions, id: string, exclude = true): Promise<Migration> {
  return expectOk(await client.request('GET', `${basePath(opts)}/${id}${exclude ? '?exclude=repositories' : ''}`)).body as Migration;
}

/**
 * Waits for an export to finish, with a progress line. Locally the export runs here, in this process (there is no server
 * worker); remotely the server runs it and this polls.
 */
async function waitFor(client: Client, opts: ScopeOptions, id: string): Promise<Migration> {
  const progress = new Progress();
  const started = Date.now();
  const line = (m: Migration) => `migration ${id}: ${m.state}… ${Math.round((Date.now() - started) / 1000)}s`;
  let m = await getMigration(client, opts, id);
  if (client instanceof LocalClient && (m.state === 'pending' || m.state === 'exporting')) {
    progress.update(`migration ${id}: exporting…`, true);
    const ticker = setInterval(() => progress.update(`migration ${id}: exporting… ${Math.round((Date.now() - started) / 1000)}s`), 500);
    try {
      await client.drainJobs(EXPORT_QUEUES);
    } finally {
      clearInterval(ticker);
    }
    m = await getMigration(client, opts, id);
  }
  while (m.state === 'pending' || m.state === 'exporting') {
    progress.update(line(m));
    await new Promise((r) => setTimeout(r, client.mode === 'local' ? 200 : 1000));
    m = await getMigration(client, opts, id);
    // Locally, a server on the same data dir may have claimed the job; keep draining in case it is ours to run.
    if (client instanceof LocalClient) await client.drainJobs(EXPORT_QUEUES);
  }
  progress.done();
  return m;
}

function describeMigration(m: Migration): string {
  const lines = [`migration ${m.id} (${m.owner.login}): ${m.state}`, `  guid: ${m.guid}`];
  if (m.repositories) lines.push(`  repositories: ${m.repositories.map((r) => r.full_name).join(', ') || '(none)'}`);
  const flags = (['lock_repositories', 'exclude_git_data', 'exclude_metadata', 'org_metadata_only'] as const).filter((f) => m[f]);
  if (flags.length) lines.push(`  flags: ${flags.join(', ')}`);
  if (m.failure_reason) lines.push(`  reason: ${m.failure_reason}`);
  if (m.archive_url) lines.push(`  archive: ready (hublet migration download ${m.id}${m.owner.type === 'Organization' ? ` --org ${m.owner.login}` : ''})`);
  lines.push(`  created: ${m.created_at}`, `  updated: ${m.updated_at}`);
  return lines.join('\n') + '\n';
}

function finish(m: Migration, json: boolean | undefined): void {
  if (json) printJson(m);
  else process.stdout.write(describeMigration(m));
  if (m.state === 'failed') throw new CliExit(EXIT.error, `hublet: migration ${m.id} failed${m.failure_reason ? `: ${m.failure_reason}` : ''}`);
}

interface StartOptions extends ScopeOptions {
  user?: boolean;
  lock?: boolean;
  excludeMetadata?: boolean;
  excludeGitData?: boolean;
  excludeAttachments?: boolean;
  excludeReleases?: boolean;
  excludeOwnerProjects?: boolean;
  orgMetadataOnly?: boolean;
  wait?: boolean;
}

async function start(client: Client, g: GlobalOptions, repos: string[], opts: StartOptions): Promise<void> {
  const res = expectOk(
    await client.request('POST', basePath(opts), {
      body: {
        repositories: repos,
        lock_repositories: Boolean(opts.lock),
        exclude_metadata: Boolean(opts.excludeMetadata),
        exclude_git_data: Boolean(opts.excludeGitData),
        exclude_attachments: Boolean(opts.excludeAttachments),
        exclude_releases: Boolean(opts.excludeReleases),
        exclude_owner_projects: Boolean(opts.excludeOwnerProjects),
        org_metadata_only: Boolean(opts.orgMetadataOnly),
      },
    }),
  );
  const m = res.body as Migration;
  if (opts.wait) {
    await waitFor(client, opts, String(m.id));
    return finish(await getMigration(client, opts, String(m.id), false), g.json);
  }
  if (g.json) return printJson(m);
  process.stdout.write(`started migration ${m.id} (${m.state}) of ${m.owner.login}: ${(m.repositories ?? []).map((r) => r.full_name).join(', ') || 'organization metadata only'}\n`);
  if (client.mode === 'local') process.stdout.write(`  it exports when a server runs on this data dir, or now with: hublet migration status ${m.id}${opts.org ? ` --org ${opts.org}` : ''} --wait\n`);
}

/** Parses the signed URL of a 302: its path and query, and the archive's guid. */
function archiveLocation(location: string): { path: string; guid: string } {
  const url = new URL(location);
  const m = /\/storage\/migrations\/([0-9a-f-]{36})\.tar\.gz$/.exec(url.pathname);
  if (!m) throw new CliExit(EXIT.error, `hublet: unexpected archive location ${location}`);
  return { path: url.pathname + url.search, guid: m[1] };
}

interface Source {
  size: number;
  etag: string | undefined;
  /** The bytes from `start` on. */
  open(start: number, etag: string | undefined): Promise<AsyncIterable<Uint8Array>>;
}

/** Remote: the signed URL over HTTP, resumed with Range (and If-Range, so a different file restarts from zero). */
async function remoteSource(location: string): Promise<Source> {
  const { request } = await import('undici');
  const head = await request(location, { method: 'HEAD' });
  await head.body.dump();
  if (head.statusCode !== 200) throw new CliExit(EXIT.error, `hublet: the archive answered ${head.statusCode}`);
  const size = Number(head.headers['content-length']);
  const etag = head.headers.etag as string | undefined;
  return {
    size,
    etag,
    async open(start, tag) {
      const headers: Record<string, string> = start > 0 ? { range: `bytes=${start}-`, ...(tag ? { 'if-range': tag } : {}) } : {};
      const res = await request(location, { headers });
      if ((start > 0 && res.statusCode !== 206) || (start === 0 && res.statusCode !== 200)) {
        await res.body.dump();
        throw new CliExit(EXIT.error, `hublet: the archive answered ${res.statusCode}`);
      }
      return res.body;
    },
  };
}

/**
 * Local: the API answered the redirect and a HEAD of the signed URL (so every check ran), then the bytes are read from
 * the data dir's archive store directly — the in-process app would otherwise hold the whole archive in memory.
 */
async function localSource(client: Client, g: GlobalOptions, location: string): Promise<Source> {
  const { path, guid } = archiveLocation(location);
  const head = await client.request('HEAD', path);
  if (head.status !== 200) throw new CliExit(EXIT.error, `hublet: the archive answered ${head.status}`);
  const [{ loadConfig }, { archiveStore }] = await Promise.all([import('../../config.js'), import('../../blob/index.js')]);
  const store = archiveStore(loadConfig({ dataDir: g.data, databaseUrl: g.database }, process.env));
  if (!store) throw new CliExit(EXIT.error, 'hublet: no archive storage is configured');
  const key = `migrations/${guid}.tar.gz`;
  const size = Number(head.headers['content-length']);
  return {
    size,
    etag: head.headers.etag,
    async open(start) {
      const body = await store.get(key, start > 0 ? { start, end: size - 1 } : undefined);
      if (!body) throw new CliExit(EXIT.error, 'hublet: the archive is gone');
      return body;
    },
  };
}

async function download(client: Client, g: GlobalOptions, id: string, opts: ScopeOptions & { output?: string }): Promise<void> {
  const res = await client.request('GET', `${basePath(opts)}/${id}/archive`);
  if (res.status !== 302) {
    expectOk(res);
    throw new CliExit(EXIT.error, `hublet: expected a redirect to the archive, got ${res.status}`);
  }
  const location = res.headers.location;
  const source = client.mode === 'local' ? await localSource(client, g, location) : await remoteSource(location);
  const file = opts.output ?? `migration_archive_${id}.tar.gz`;
  let have = fs.existsSync(file) ? fs.statSync(file).size : 0;
  if (have > source.size) have = 0;
  const progress = new Progress();
  const started = Date.now();
  let received = 0;
  const draw = (force = false) => {
    const done = have + received;
    const width = 30;
    const filled = source.size ? Math.round((done / source.size) * width) : width;
    const rate = received / Math.max(0.001, (Date.now() - started) / 1000);
    progress.update(`[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${bytes(done)} / ${bytes(source.size)}  ${bytes(Math.round(rate))}/s`, force);
  };
  if (have < source.size) {
    const body = await source.open(have, source.etag);
    const out = fs.createWriteStream(file, { flags: have > 0 ? 'a' : 'w' });
    try {
      for await (const chunk of body) {
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
        received += chunk.length;
        draw();
      }
    } finally {
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    }
    draw(true);
    progress.done();
  }
  const size = fs.statSync(file).size;
  if (size !== source.size) throw new CliExit(EXIT.error, `hublet: the download stopped at ${bytes(size)} of ${bytes(source.size)}; run the command again to resume`);
  if (g.json) printJson({ id: Number(id), file, size, resumed_from: have });
  else process.stdout.write(`${file}: ${bytes(size)}${have > 0 ? ` (resumed at ${bytes(have)})` : ''}\n`);
}

export function registerMigration(program: Command): void {
  const migration = program.command('migration').description('export organization or user repositories into archives (migrations)');
  const org = (c: Command) => c.option('--org <org>', 'an organization migration (default: your own user migrations)');

  migration
    .command('start [repos...]')
    .description('start an export of repositories (names, or owner/name)')
    .option('--org <org>', 'export repositories of this organization')
    .option('--user', 'export your own repositories')
    .option('--lock', 'lock the repositories (pushes refused) until unlocked')
    .option('--exclude-metadata', 'only git data, no metadata')
    .option('--exclude-git-data', 'no git data, metadata only')
    .option('--exclude-attachments', 'leave attachments out')
    .option('--exclude-releases', 'leave releases out')
    .option('--exclude-owner-projects', "leave the owner's projects out")
    .option('--org-metadata-only', 'only the organization and its people (no repositories)')
    .option('--wait', 'wait for the export to finish (locally: run it now)')
    .action(async (repos: string[], opts: StartOptions, command: Command) => {
      if (Boolean(opts.org) === Boolean(opts.user)) throw new CliExit(EXIT.usage, 'hublet: name exactly one of --org ORG or --user');
      return withClient(command, (client, g) => start(client, g, repos, opts));
    });

  org(migration.command('list').description('list migrations, newest first')).action(async (opts: ScopeOptions, command: Command) =>
    withClient(command, async (client, g) => {
      const all = await allPages<Migration>(client, basePath(opts));
      if (g.json) return printJson(all);
      printTable(
        all.map((m) => ({ id: m.id, state: m.state, repositories: (m.repositories ?? []).map((r) => r.full_name).join(', '), created: m.created_at })),
        ['id', 'state', 'repositories', 'created'],
      );
    }),
  );

  org(migration.command('status').argument('<id>', 'migration id', migrationId).description("show a migration's state").option('--wait', 'wait until exported or failed, with a progress line'))
    .action(async (id: string, opts: ScopeOptions & { wait?: boolean }, command: Command) =>
      withClient(command, async (client, g) => {
        if (opts.wait) await waitFor(client, opts, id);
        finish(await getMigration(client, opts, id, false), g.json);
      }),
    );

  org(migration.command('download').argument('<id>', 'migration id', migrationId).description('download the archive (resumes a partial file)').option('-o, --output <file>', 'where to save it (default migration_archive_ID.tar.gz)'))
    .action(async (id: string, opts: ScopeOptions & { output?: string }, command: Command) => withClient(command, (client, g) => download(client, g, id, opts)));

  org(migration.command('delete-archive').argument('<id>', 'migration id', migrationId).description("delete a migration's archive now")).action(async (id: string, opts: ScopeOptions, command: Command) =>
    withClient(command, async (client, g) => {
      expectOk(await client.request('DELETE', `${basePath(opts)}/${id}/archive`));
      if (g.json) printJson({ id: Number(id), archive: 'deleted' });
      else process.stdout.write(`deleted the archive of migration ${id}\n`);
    }),
  );

  org(migration.command('unlock').argument('<id>', 'migration id', migrationId).argument('<repo>', 'repository name').description('unlock a repository the migration locked')).action(
    async (id: string, repo: string, opts: ScopeOptions, command: Command) =>
    withClient(command, async (client, g) => {
      expectOk(await client.request('DELETE', `${basePath(opts)}/${id}/repos/${enc(repo)}/lock`));
      if (g.json) printJson({ id: Number(id), repository: repo, locked: false });
      else process.stdout.write(`unlocked ${repo} (migration ${id})\n`);
    }),
  );

  org(migration.command('repos').argument('<id>', 'migration id', migrationId).description("list a migration's repositories")).action(async (id: string, opts: ScopeOptions, command: Command) =>
    withClient(command, async (client, g) => {
      const repos = await allPages<{ full_name: string; private: boolean; default_branch: string }>(client, `${basePath(opts)}/${id}/repositories`);
      if (g.json) return printJson(repos);
      printTable(repos.map((r) => ({ repository: r.full_name, visibility: r.private ? 'private' : 'public', default_branch: r.default_branch })), ['repository', 'visibility', 'default_branch']);
    }),
  );
}
