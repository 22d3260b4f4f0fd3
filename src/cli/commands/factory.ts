// What every command is registered with, as gh's cmdutil.Factory: this run's I/O and environment, and the API client the
// program's options name (opened for one command's run and closed after it). Each command's run function is exported
// and takes what it needs (its options with the client, the I/O) as parameters, so a test calls it with a stubbed
// client and a fake I/O, no server and no data dir (test/cli/).
import type { Command } from 'commander';
import { openClient, type Client, type GlobalOptions } from '../client.js';
import type { IO } from '../io.js';

export interface Factory {
  io: IO;
  env: NodeJS.ProcessEnv;
}

/** What a client command's run function gets besides its own options: the open client, and whether --json was given. */
export interface ClientOptions {
  client: Client;
  json: boolean;
}

/** The program's options (--data, --server, --json, …), wherever they stand on the command line. */
export function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/** Runs `run` with an open client (local or remote, as the options and the environment say) and closes it afterwards. */
export async function withClient<T>(command: Command, f: Factory, run: (opts: ClientOptions) => Promise<T>): Promise<T> {
  const g = globals(command);
  const client = await openClient(g, f.env);
  try {
    return await run({ client, json: Boolean(g.json) });
  } finally {
    await client.close();
  }
}
