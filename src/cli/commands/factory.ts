// What every command is registered with, as gh's cmdutil.Factory: this run's I/O and environment, and the API client the
// program's options name (opened for one command's run and closed after it).
import type { Command } from 'commander';
import { openClient, type Client, type GlobalOptions } from '../client.js';
import type { IO } from '../io.js';

export interface Factory {
  io: IO;
  env: NodeJS.ProcessEnv;
}

/** The program's options (--data, --server, --json, …), wherever they stand on the command line. */
export function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/** Runs `run` with an open client (local or remote, as the options and the environment say) and closes it afterwards. */
export async function withClient<T>(command: Command, f: Factory, run: (client: Client, g: GlobalOptions) => Promise<T>): Promise<T> {
  const g = globals(command);
  const client = await openClient(g, f.env);
  try {
    return await run(client, g);
  } finally {
    await client.close();
  }
}
