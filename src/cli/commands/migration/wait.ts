// Waiting for an export to finish, with a progress line: locally the export runs in this process (Client.settle), remotely the server runs it and this polls.
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { Progress } from './progress.js';
import { EXPORT_QUEUES, getMigration, type Migration, type ScopeOptions } from './shared.js';

export async function waitFor(client: Client, io: IO, opts: ScopeOptions, id: string): Promise<Migration> {
  const progress = new Progress(io);
  const started = Date.now();
  const line = (m: Migration) => `migration ${id}: ${m.state}… ${Math.round((Date.now() - started) / 1000)}s`;
  let m = await getMigration(client, opts, id);
  if (client.mode === 'local' && (m.state === 'pending' || m.state === 'exporting')) {
    progress.update(`migration ${id}: exporting…`, true);
    const ticker = setInterval(() => progress.update(`migration ${id}: exporting… ${Math.round((Date.now() - started) / 1000)}s`), 500);
    try {
      await client.settle(EXPORT_QUEUES);
    } finally {
      clearInterval(ticker);
    }
    m = await getMigration(client, opts, id);
  }
  while (m.state === 'pending' || m.state === 'exporting') {
    progress.update(line(m));
    await new Promise((r) => setTimeout(r, client.mode === 'local' ? 200 : 1000));
    m = await getMigration(client, opts, id);
    // Locally, a server on the same data dir may have claimed the job; keep running it in case it is ours to run.
    await client.settle(EXPORT_QUEUES);
  }
  progress.done();
  return m;
}
