// PostgreSQL's change stamp on a connection of its own, read by cached reads a thousand times a second under load
// (change-stamp.ts): one client held open (reopened after a failure), the statement prepared once, then each read
// written as Bind, Execute and Sync in one write through pg's Submittable interface, without the Query and Result
// objects, the pool checkout and the promises pg builds around every query (about half the client's time a read).
import type net from 'node:net';
import type pg from 'pg';
import { loadPg } from './pg-lazy.js';

const STATEMENT = 'hublet_change_stamp';

/** One read of the prepared statement: settles once, with its first column, or with the error that ended it. */
class StampRead implements pg.Submittable {
  private value = '';
  private settled = false;
  constructor(private readonly settle: (err: Error | null, value: string) => void) {}

  submit(connection: pg.Connection): void {
    connection.stream.cork();
    connection.bind({ statement: STATEMENT }, false);
    connection.execute({}, false);
    connection.sync();
    connection.stream.uncork();
  }

  handleDataRow(msg: { fields: (string | null)[] }): void {
    this.value = String(msg.fields[0] ?? '');
  }

  handleReadyForQuery(): void {
    this.done(null);
  }

  handleError(err: Error): void {
    this.done(err);
  }

  // pg calls these for any query; the statement answers one row and no copy.
  handleRowDescription(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
  handleCopyData(): void {}

  private done(err: Error | null): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(err, this.value);
  }
}

/**
 * The stamp's connection, opened on first use. It holds the process open only while a read runs, so a CLI command
 * exits when it is done; a failed read or a dropped connection closes it, and the next read opens another. Reads come
 * one at a time (change-stamp.ts's batcher starts the next when the last has answered; pg deprecates queuing a query
 * behind another on one client).
 */
export class PgStampConnection {
  private opening?: Promise<pg.Client>;
  /** The open client, once connected and prepared. */
  private current?: pg.Client;
  /** Reads under way: the socket holds the process open while there are any. */
  private running = 0;
  private ended = false;

  /** `text`: the statement, one row of one column. */
  constructor(
    private readonly url: string,
    private readonly text: string,
  ) {}

  async read(): Promise<string> {
    if (this.ended) throw new Error('the PostgreSQL stamp connection has ended');
    this.opening ??= this.open();
    const client = await this.opening;
    const socket = client.connection.stream as net.Socket;
    if (this.running++ === 0) socket.ref();
    return new Promise((resolve, reject) => {
      client.query(
        new StampRead((err, value) => {
          if (--this.running === 0) socket.unref();
          if (!err) return resolve(value);
          this.discard(client);
          reject(err);
        }),
      );
    });
  }

  async end(): Promise<void> {
    this.ended = true;
    const client = await this.opening?.catch(() => undefined);
    this.opening = undefined;
    await client?.end().catch(() => undefined);
  }

  private async open(): Promise<pg.Client> {
    const loaded = await loadPg();
    const client = new loaded.Client({ connectionString: this.url });
    // A connection the server drops is replaced on next use; without a listener pg would take the whole process down.
    client.on('error', (err) => {
      process.emitWarning(`PostgreSQL stamp connection lost: ${err.message}`);
      this.discard(client);
    });
    try {
      await client.connect();
      await client.query({ name: STATEMENT, text: this.text, rowMode: 'array' });
    } catch (err) {
      this.opening = undefined;
      await client.end().catch(() => undefined);
      throw err;
    }
    this.current = client;
    (client.connection.stream as net.Socket).unref();
    return client;
  }

  /** Closes a client that failed; the next read opens another. */
  private discard(client: pg.Client): void {
    if (this.current === client) {
      this.current = undefined;
      this.opening = undefined;
    }
    client.end().catch(() => undefined);
  }
}
