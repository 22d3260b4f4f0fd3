// `hublet gist rename ID OLD NEW`: renames one file of a gist (a new revision; content and history stay).
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import { expectOk, printJson } from '../../output.js';
import { withClient } from '../with-client.js';
import { gistPath, type Gist } from './shared.js';

export async function runRename(client: Client, id: string, from: string, to: string, json: boolean): Promise<void> {
  const gist = expectOk(await client.request('PATCH', gistPath(id), { body: { files: { [from]: { filename: to } } } })).body as Gist;
  if (json) printJson(gist);
  else process.stdout.write(`renamed ${from} to ${to} in gist ${gist.id}\n`);
}

export function registerRename(gist: Command): void {
  gist
    .command('rename <id> <old> <new>')
    .description('rename a file of a gist')
    .action(async (id: string, from: string, to: string, _opts: unknown, command: Command) => {
      await withClient(command, (client, g) => runRename(client, id, from, to, Boolean(g.json)));
    });
}
