// `hublet admin invite create`: makes a sign-up invitation (for HUBLET_SIGNUP=invite) through POST /admin/invitations;
// prints the link to give the person (or the whole record with --json). The link is shown once: only its hash is kept.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { positiveInteger } from '../option-values.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';

interface InviteCreateFlags {
  note?: string;
  expiresIn?: number;
}

async function runInviteCreate(opts: InviteCreateFlags & ClientOptions, io: IO): Promise<void> {
  const res = expectOk(
    await opts.client.request('POST', '/admin/invitations', { body: { note: opts.note, expires_in_days: opts.expiresIn } }),
  );
  if (opts.json) printJson(io.stdout, res.body);
  else io.stdout.write(`${(res.body as { invitation_url: string }).invitation_url}\n`);
}

export function registerInviteCreate(invite: Command, f: Factory): void {
  withExamples(
    invite.command('create').description('make a single-use sign-up invitation (HUBLET_SIGNUP=invite); prints its link, shown only once'),
    ['hublet --data /var/lib/hublet admin invite create --note "for Dana"', 'hublet admin invite create --expires-in 2 --json'],
  )
    .option('--note <text>', 'who or what the invitation is for (kept with it)')
    .option('--expires-in <days>', 'days until the invitation expires (default 7)', positiveInteger)
    .action(async (flags: InviteCreateFlags, command: Command) => withClient(command, f, (c) => runInviteCreate({ ...flags, ...c }, f.io)));
}
