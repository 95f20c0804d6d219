// `Database.markThenRead` on PostgreSQL: a write and the read that counts on it, in one round trip.

import pg from 'pg';
import type { Logger } from '../lib/logger.js';

/**
 * `Database.markThenRead` on PostgreSQL: one session of its own, opened at the first use and again
 * after a failure, that sends a mark's transaction and the read after it as one simple-protocol
 * query (its statements run one after the other, the read after the mark's COMMIT). Its callers
 * never overlap their reads; were they to, `pg` queues them on the session.
 */
export class MarkingSession {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly clientOptions: Omit<pg.ClientConfig, 'connectionString'>,
    private readonly log: Logger,
  ) {}

  async run<T>(text: string): Promise<T[]> {
    const client = await this.connect();
    try {
      // Several statements in one query text: pg answers with one result per statement.
      const results = (await client.query(text)) as unknown as pg.QueryResult[];
      return (results[results.length - 1]?.rows ?? []) as T[];
    } catch (error) {
      // Whatever state the session is in (an aborted transaction, a connection gone), the next
      // read starts on a fresh one.
      this.drop(client);
      throw error;
    }
  }

  private connect(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('The database has been closed'));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client({ ...this.clientOptions, connectionString: this.url, application_name: 'gateway-event-bus', types: ormTypes() });
      client.on('error', (error) => {
        this.log.warn({ err: error }, 'event log session failed; it reopens at the next read');
        this.drop(client);
      });
      try {
        await client.connect();
      } catch (error) {
        client.end().catch(() => undefined);
        throw error;
      } finally {
        this.connecting = undefined;
      }
      this.client = client;
      return client;
    })();
    return this.connecting;
  }

  private drop(client: pg.Client): void {
    if (this.client === client) this.client = undefined;
    client.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

/**
 * Dates, times and intervals as text, as the ORM's own pool reads them (MikroORM's PostgreSQL
 * connection sets the same parsers): rows read outside the ORM then map through `em.map` alike.
 */
function ormTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  for (const oid of [1082, 1114, 1184, 1186]) types.setTypeParser(oid, (text: string) => text);
  return types;
}
