// `hublet admin audit export --since YYYY-MM-DD`: the site-wide audit log from that day on, oldest first, git events
// included, as JSON lines on stdout (one entry a line, in the API's shape) and nothing else; read page by page from
// GET /enterprises/{enterprise}/audit-log, following the Link header's cursors.
import type { Command } from 'commander';
import { parseTimestamp } from '../../../core/timestamps.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';

interface AuditExportOptions extends Pick<ClientOptions, 'client'> {
  since: string;
  /** The enterprise's slug (the server's HUBLET_ENTERPRISE). */
  enterprise: string;
}

async function runAuditExport(opts: AuditExportOptions, io: IO): Promise<void> {
  const query = new URLSearchParams({ phrase: `created:>=${opts.since}`, include: 'all', order: 'asc', per_page: '100' });
  let next: string | undefined = `/enterprises/${encodeURIComponent(opts.enterprise)}/audit-log?${query}`;
  while (next) {
    const res = expectOk(await opts.client.request('GET', next));
    for (const entry of res.body as unknown[]) io.stdout.write(`${JSON.stringify(entry)}\n`);
    const link = /<([^>]+)>;\s*rel="next"/.exec(res.headers.link ?? '');
    next = link ? new URL(link[1]).pathname + new URL(link[1]).search : undefined;
  }
}

export function registerAuditExport(audit: Command, f: Factory): void {
  withExamples(
    audit
      .command('export')
      .description('write the site-wide audit log from a day on as JSON lines on stdout (oldest first, git events included)'),
    [
      'hublet --data /var/lib/hublet admin audit export --since 2026-01-01 > audit.jsonl',
      'hublet admin audit export --since 2026-01-01 --enterprise acme',
    ],
  )
    .requiredOption('--since <YYYY-MM-DD>', 'the first day exported (UTC)')
    .option('--enterprise <slug>', "the enterprise's slug (the server's HUBLET_ENTERPRISE; default: that setting here, else hublet)")
    .action(async (flags: { since: string; enterprise?: string }, command: Command) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(flags.since) || parseTimestamp(flags.since) === undefined)
        throw new CliExit(EXIT.usage, `hublet: --since expects a day as YYYY-MM-DD, got ${JSON.stringify(flags.since)}`);
      const enterprise = flags.enterprise ?? f.env.HUBLET_ENTERPRISE ?? 'hublet';
      return withClient(command, f, (c) => runAuditExport({ client: c.client, since: flags.since, enterprise }, f.io));
    });
}
