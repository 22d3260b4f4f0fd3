// Runs a command's body with an open API client (local or remote) and closes it afterwards.
import type { Command } from 'commander';
import { openClient, type Client, type GlobalOptions } from '../client.js';

export async function withClient<T>(command: Command, run: (client: Client, opts: GlobalOptions) => Promise<T>): Promise<T> {
  const opts = command.optsWithGlobals<GlobalOptions>();
  const client = await openClient(opts);
  try {
    return await run(client, opts);
  } finally {
    await client.close();
  }
}
