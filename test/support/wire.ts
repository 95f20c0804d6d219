// A PostgreSQL test database whose pg clients report what they send, for the tests of what goes on
// the wire (test/db/transaction-wire.test.ts, test/db/prepared-statements.test.ts). Every pg client
// made while it is open (the ORM pool's among them) is recorded: a query's text, or a query
// config's name and text.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';
import { entities } from '../../src/entities.js';
import { createLogger } from '../../src/lib/logger.js';
import { createTestDatabase } from './database.js';

/** One query as a pg client was asked to send it. */
export type WireEntry = string | { name?: string; text: string };

export interface WireDatabase {
  db: Database;
  /** Runs `work`, with what the pg clients were asked to send meanwhile. */
  recorded<T>(work: () => Promise<T>): Promise<{ result: T; wire: WireEntry[] }>;
  close(): Promise<void>;
}

/** A fresh database of the gateway's schema, `scratch` run on it first (a table of the test's own). */
export async function openWireDatabase(scratch: string): Promise<WireDatabase> {
  // Kept to be called with apply(this, …) from the wrapper and put back on close.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const originalQuery = pg.Client.prototype.query;
  let sent: WireEntry[] | undefined;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first] = args;
    if (sent && typeof first === 'string') sent.push(first);
    else if (sent && first && typeof first === 'object' && 'text' in first) {
      const config = first as { name?: string; text: string };
      sent.push(config.name === undefined ? { text: config.text } : { name: config.name, text: config.text });
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof originalQuery;
  const database = await createTestDatabase('postgresql');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-wire-'));
  const db = await openDatabase({ databaseUrl: database.env.DATABASE_URL!, dataDir, logger: createLogger({ level: 'silent' }), entities });
  await db.fork().execute(scratch);
  return {
    db,
    async recorded(work) {
      sent = [];
      try {
        const result = await work();
        return { result, wire: sent };
      } finally {
        sent = undefined;
      }
    },
    async close() {
      pg.Client.prototype.query = originalQuery;
      await db.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
