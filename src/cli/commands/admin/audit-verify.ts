// `hublet admin audit verify`: recomputes the audit log's hash chain (on the server, GET /admin/audit-log/verification);
// exits 0 when it holds, 1 otherwise, printing the `_document_id` of the first changed entry, or for a removal the
// entries on both sides of the gap.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';

interface Verdict {
  intact: boolean;
  entries: number;
  changed?: string;
  removed?: { after: string | null; before: string | null };
}

async function runAuditVerify(opts: ClientOptions, io: IO): Promise<void> {
  const verdict = expectOk(await opts.client.request('GET', '/admin/audit-log/verification')).body as Verdict;
  if (opts.json) printJson(io.stdout, verdict);
  else if (verdict.intact) io.stdout.write(`the audit log's chain holds: ${verdict.entries} entries\n`);
  else if (verdict.changed !== undefined) io.stdout.write(`changed: ${verdict.changed}\n`);
  else if (verdict.removed)
    io.stdout.write(
      `removed between: ${verdict.removed.after ?? '(the start of the log)'} ${verdict.removed.before ?? '(the end of the log)'}\n`,
    );
  if (!verdict.intact) throw new CliExit(EXIT.error, `hublet: the audit log's chain is broken after ${verdict.entries} intact entries`);
}

export function registerAuditVerify(audit: Command, f: Factory): void {
  withExamples(
    audit
      .command('verify')
      .description(
        "recompute the audit log's hash chain: exit 0 when it holds; otherwise exit 1 printing the _document_id of the first changed entry (for a removal, those on both sides of the gap)",
      ),
    ['hublet --data /var/lib/hublet admin audit verify', 'hublet admin audit verify --json'],
  ).action(async (_flags: unknown, command: Command) => withClient(command, f, (c) => runAuditVerify(c, f.io)));
}
