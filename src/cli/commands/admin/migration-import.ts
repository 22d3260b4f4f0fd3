// `hublet admin migration import ARCHIVE [--dry-run] [--conflicts FILE] [--map FILE]`: a site admin imports a migration
// archive (GitHub's layout: hublet's exports or GitHub's), streamed to POST /admin/migrations/import in either mode.
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { Command } from 'commander';
import { formatMapCsv, IMPORT_MAP_HEADER, parseMapCsv, type MapRow } from '../../../migrations/import/csv.js';
import type { ImportReport } from '../../../migrations/import/service.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson, printTable } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';

interface MigrationImportOptions extends ClientOptions {
  /** The archive's path on this machine, or `-` for stdin. */
  archive: string;
  dryRun: boolean;
  /** Where to write the records and their actions as CSV. */
  conflicts?: string;
  /** The edited map to apply. */
  map?: MapRow[];
}

/** The map as its header carries it: the rows as JSON, gzipped, base64url. */
function mapHeader(rows: readonly MapRow[]): string {
  return gzipSync(JSON.stringify(rows)).toString('base64url');
}

function openArchive(file: string, io: IO): Readable {
  if (file === '-') return io.stdin as Readable;
  try {
    const fd = fs.openSync(file, 'r');
    if (!fs.fstatSync(fd).isFile()) throw new Error('not a file');
    return fs.createReadStream('', { fd, highWaterMark: 256 * 1024 });
  } catch (err) {
    throw new CliExit(EXIT.usage, `hublet: cannot read the archive ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Reads and checks `--map FILE` before anything is sent. */
function readMap(file: string): MapRow[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliExit(EXIT.usage, `hublet: cannot read the map ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return parseMapCsv(text);
  } catch (err) {
    throw new CliExit(EXIT.usage, `hublet: ${file} is not a migration map: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function printReport(io: IO, r: ImportReport): void {
  const out = io.stdout;
  if (r.dry_run) {
    printTable(
      out,
      r.records.map((x) => ({ action: x.recommended_action, model: x.model_name, source: x.source_url, target: x.target_url })),
      ['action', 'model', 'source', 'target'],
    );
    out.write('\n');
  }
  out.write(r.dry_run ? 'would be done (dry run, nothing written):\n' : 'audit:\n');
  printTable(out, r.counts as unknown as Record<string, unknown>[], ['model_name', 'imported', 'mapped', 'renamed', 'skipped']);
  if (r.not_imported.length) {
    out.write('\nskipped, not modelled by hublet:\n');
    printTable(out, r.not_imported, ['model_name', 'count']);
  }
  for (const note of r.notes) out.write(`note: ${note}\n`);
}

export async function runMigrationImport(opts: MigrationImportOptions, io: IO): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/gzip' };
  if (opts.map) headers[IMPORT_MAP_HEADER] = mapHeader(opts.map);
  const upload = openArchive(opts.archive, io);
  const res = expectOk(
    await opts.client.request('POST', `/admin/migrations/import${opts.dryRun ? '?dry_run=true' : ''}`, { headers, upload }),
  );
  const report = res.body as ImportReport;
  if (opts.conflicts) fs.writeFileSync(opts.conflicts, formatMapCsv(report.records));
  if (opts.json) return printJson(io.stdout, report);
  printReport(io, report);
  if (opts.conflicts) io.stderr.write(`wrote ${report.records.length} records with their actions to ${opts.conflicts}\n`);
}

export function registerMigrationImport(migration: Command, f: Factory): void {
  withExamples(
    migration
      .command('import')
      .description(
        "import a migration archive (GitHub's layout, from hublet or GitHub): users, organizations with members and roles, repositories with all their git data; conflicts first with --dry-run, edits with --map, an audit at the end",
      ),
    [
      "# what would happen, and the records with their actions as CSV (ghe-migrator's conflicts.csv)",
      'hublet admin migration import acme.tar.gz --dry-run --conflicts conflicts.csv',
      '# edit conflicts.csv (map a user onto an existing one, rename or skip a repository), then import with it',
      'hublet admin migration import acme.tar.gz --map conflicts.csv',
      '# remote mode streams the archive to the server',
      'hublet --server https://hublet.example.com --token "$ADMIN_TOKEN" admin migration import acme.tar.gz --json',
    ],
  )
    .argument('<archive>', 'the archive (.tar.gz) on this machine, or - for stdin')
    .option('--dry-run', 'write nothing: print every record with the action the import would take')
    .option('--conflicts <file>', 'write every record with its action as CSV (model_name,source_url,target_url,recommended_action)')
    .option('--map <file>', 'a CSV of that shape, edited: the actions to take (import, map, rename, skip) and their targets')
    .action(async (archive: string, flags: { dryRun?: boolean; conflicts?: string; map?: string }, command: Command) => {
      const map = flags.map ? readMap(flags.map) : undefined;
      return withClient(command, f, (c) =>
        runMigrationImport({ ...c, archive, dryRun: Boolean(flags.dryRun), conflicts: flags.conflicts, map }, f.io),
      );
    });
}
