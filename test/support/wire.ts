// A PostgreSQL test database whose pg connections report the protocol messages they send, for the
// tests of what goes on the wire (test/db/transaction-wire.test.ts,
// test/db/prepared-statements.test.ts). Every pg connection made while it is open (the ORM pool's
// among them) is recorded, message by message, grouped by round trip: a simple query on its own,
// or extended-protocol messages up to their Sync, each followed by the server's one ReadyForQuery.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';
import { entities } from '../../src/entities.js';
import { createLogger } from '../../src/lib/logger.js';
import { createTestDatabase } from './database.js';

/**
 * One message as a pg connection sent it: a simple query's text; a Parse's text (with its name
 * when named); a Bind's statement ('' when unnamed) and its values as they went on the wire
 * (text, or null); Describe, Execute, Sync.
 */
export type WireMessage =
  | { query: string }
  | { parse: string; name?: string }
  | { bind: string; values: Array<string | null> }
  | 'describe'
  | 'execute'
  | 'sync';

/** What a session sent before it waited for the server's answer. */
export type RoundTrip = WireMessage[];

export interface WireDatabase {
  db: Database;
  /** Runs `work`, with the round trips the pg connections made meanwhile, in the order they were sent. */
  recorded<T>(work: () => Promise<T>): Promise<{ result: T; wire: RoundTrip[] }>;
  close(): Promise<void>;
}

/** Every SQL text the server was given in `trips`: simple queries' and Parses'. */
export function sqlTexts(trips: readonly RoundTrip[]): string[] {
  return trips.flat().flatMap((message) => (typeof message === 'string' ? [] : 'query' in message ? [message.query] : 'parse' in message ? [message.parse] : []));
}

/** pg's Connection (lib/connection.js): the writers recorded here, each called on a connection. */
interface ConnectionWriters {
  query: (this: object, text: string) => void;
  parse: (this: object, message: { name?: string; text: string }) => void;
  bind: (this: object, message: { statement?: string; values?: unknown[]; valueMapper?: (value: unknown, index: number) => unknown }) => void;
  describe: (this: object, message: unknown) => void;
  execute: (this: object, message: unknown) => void;
  sync: (this: object) => void;
}

/** A fresh database of the gateway's schema, `scratch` run on it first (a table of the test's own). */
export async function openWireDatabase(scratch: string): Promise<WireDatabase> {
  const writers = pg.Connection.prototype as unknown as ConnectionWriters;
  const originals = pickWriters(writers);
  let sent: RoundTrip[] | undefined;
  /** Each connection's round trip being written, until its Sync. */
  const open = new WeakMap<object, RoundTrip>();
  const record = (connection: object, message: WireMessage) => {
    if (!sent) return;
    const trip = open.get(connection) ?? [];
    open.set(connection, trip);
    trip.push(message);
  };
  const end = (connection: object) => {
    const trip = open.get(connection);
    open.delete(connection);
    if (sent && trip) sent.push(trip);
  };
  writers.query = function (this: object, text) {
    if (sent) sent.push([{ query: text }]);
    originals.query.call(this, text);
  };
  writers.parse = function (this: object, message) {
    record(this, message.name ? { parse: message.text, name: message.name } : { parse: message.text });
    originals.parse.call(this, message);
  };
  writers.bind = function (this: object, message) {
    const values = (message.values ?? []).map((value, index) => (message.valueMapper ? message.valueMapper(value, index) : value));
    record(this, { bind: message.statement ?? '', values: values.map(wireText) });
    originals.bind.call(this, message);
  };
  writers.describe = function (this: object, message) {
    record(this, 'describe');
    originals.describe.call(this, message);
  };
  writers.execute = function (this: object, message) {
    record(this, 'execute');
    originals.execute.call(this, message);
  };
  writers.sync = function (this: object) {
    record(this, 'sync');
    end(this);
    originals.sync.call(this);
  };
  const restore = () => Object.assign(writers, originals);
  try {
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
        restore();
        await db.close();
        await database.drop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    restore();
    throw error;
  }
}

/** A bound value as the recorder shows it: its text, or null (a Buffer, which no test here sends, as its hex). */
function wireText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  return Buffer.isBuffer(value) ? `\\x${value.toString('hex')}` : JSON.stringify(value);
}

function pickWriters(writers: ConnectionWriters): ConnectionWriters {
  const { query, parse, bind, describe, execute, sync } = writers;
  return { query, parse, bind, describe, execute, sync };
}
