// The gateway on a plain PostgreSQL role, as on a managed PostgreSQL: a role that owns its
// database, no superuser, a member of no role (so without pg_read_all_stats). CI runs the whole
// PostgreSQL suite as such a role (gateway_ci, .ci/run) and gives it a second plain role
// (TEST_OTHER_ROLE) whose sessions stand for another role's: another gateway instance's
// credentials, an admin's session. What the gateway reads of other sessions, pg_stat_activity's
// datid and backend_xid, it sees for every role; what it cannot read it never needs.
// PostgreSQL only: PGlite has one role and one session.

import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { DatabaseRoleError } from '../../src/db/role.js';
import { entities } from '../../src/entities.js';
import { MARK_SQL } from '../../src/kernel/events/event-log.js';
import { createLogger } from '../../src/lib/logger.js';
import { WRITER_RUNNING_SQL } from '../../src/modules/notifications/notification-fanout.js';
import { databaseForFile, dropDatabase } from '../support/database.js';
import { appendRaw } from '../events/late-commit.js';

const otherRole = process.env.TEST_OTHER_ROLE;

/** `url` with another user name. */
function as(url: string, role: string): string {
  const changed = new URL(url);
  changed.username = role;
  changed.password = '';
  return changed.toString();
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** What the role of `client` may do, read independently of the gateway's own check. */
async function privileges(client: pg.Client): Promise<{ superuser: boolean; readAllStats: boolean; memberships: number }> {
  const { rows } = await client.query<{ superuser: boolean; read_all_stats: boolean; memberships: number }>(
    `select rolsuper as superuser, pg_has_role(current_user, 'pg_read_all_stats', 'USAGE') as read_all_stats,
       (select count(*)::int from pg_auth_members where member = r.oid) as memberships
     from pg_roles r where rolname = current_user`,
  );
  const { superuser, read_all_stats: readAllStats, memberships } = rows[0]!;
  return { superuser, readAllStats, memberships };
}

interface HeldWrite {
  pid: number;
  /** Its transaction id, 32-bit as pg_stat_activity shows it. */
  xid: string;
  /** Its snapshot's xmin, 32-bit. */
  xmin: string;
  end(outcome: 'commit' | 'rollback'): Promise<void>;
}

/** A transaction on `session` that holds a snapshot and has written (`write`), left open. */
async function holdWrite(session: pg.Client, write: string): Promise<HeldWrite> {
  await session.query('begin isolation level repeatable read');
  await session.query(write);
  const { rows } = await session.query<{ pid: number; xid: string; xmin: string }>(
    'select pg_backend_pid() as pid, (pg_current_xact_id()::text::bigint % 4294967296)::text as xid, (pg_snapshot_xmin(pg_current_snapshot())::text::bigint % 4294967296)::text as xmin',
  );
  return { ...rows[0]!, end: async (outcome) => void (await session.query(outcome)) };
}

interface Seen {
  datid: string | null;
  backend_xid: string | null;
  backend_xmin: string | null;
  state: string | null;
  query: string | null;
}

async function seen(observer: pg.Client, pid: number): Promise<Seen> {
  const { rows } = await observer.query<Seen>('select datid::text, backend_xid::text, backend_xmin::text, state, query from pg_stat_activity where pid = $1', [pid]);
  return rows[0]!;
}

describe.skipIf(!process.env.DATABASE_URL)('the gateway on a plain PostgreSQL role', () => {
  const file = databaseForFile();
  const url = () => file.database.env.DATABASE_URL!;

  it.skipIf(!otherRole)('is what CI runs as: no superuser, no pg_read_all_stats, a member of no role', async () => {
    const session = await connect(url());
    try {
      expect(await privileges(session)).toEqual({ superuser: false, readAllStats: false, memberships: 0 });
    } finally {
      await session.end();
    }
  });

  describe('what the role sees of a session that writes', () => {
    it('of its own role: everything, its transaction id and database included', async () => {
      const observer = await connect(url());
      const writer = await connect(url());
      try {
        await writer.query('create table if not exists plain_role_probe (id int)');
        const held = await holdWrite(writer, 'insert into plain_role_probe values (1)');
        const { rows } = await observer.query<{ oid: string }>('select oid::text from pg_database where datname = current_database()');
        expect(await seen(observer, held.pid)).toEqual({
          datid: rows[0]!.oid,
          backend_xid: held.xid,
          backend_xmin: held.xmin,
          state: 'idle in transaction',
          query: expect.stringContaining('pg_current_xact_id') as string,
        });
        await held.end('rollback');
      } finally {
        await writer.end();
        await observer.end();
      }
    });

    it.skipIf(!otherRole)('of another role: its database, transaction id and xmin; its state and query only with pg_read_all_stats', async () => {
      const observer = await connect(url());
      await observer.query('create table if not exists plain_role_probe (id int)');
      await observer.query(`grant insert on plain_role_probe to ${otherRole}`);
      const writer = await connect(as(url(), otherRole!));
      try {
        const held = await holdWrite(writer, 'insert into plain_role_probe values (2)');
        const { rows } = await observer.query<{ oid: string }>('select oid::text from pg_database where datname = current_database()');
        const { readAllStats } = await privileges(observer);
        expect(await seen(observer, held.pid)).toEqual({
          datid: rows[0]!.oid,
          backend_xid: held.xid,
          backend_xmin: held.xmin,
          state: readAllStats ? 'idle in transaction' : null,
          query: readAllStats ? expect.stringContaining('pg_current_xact_id') as string : '<insufficient privilege>',
        });
        await held.end('rollback');
      } finally {
        await writer.end();
        await observer.end();
      }
    });
  });

  describe("the notification fan-out's look for a writer still running (WRITER_RUNNING_SQL)", () => {
    const writerRunning = async () => {
      const [row] = await file.db.fork().execute<Array<{ running: boolean }>>(`select ${WRITER_RUNNING_SQL} as running`);
      return row!.running;
    };

    it('finds a transaction of the gateway\'s role that has written, and nothing once it has ended', async () => {
      // given: nothing of this database writes (no gateway runs on it)
      await expect.poll(writerRunning).toBe(false);
      const writer = await connect(url());
      try {
        // when: a session of the gateway's role writes and stays open
        await writer.query('create table if not exists plain_role_probe (id int)');
        const held = await holdWrite(writer, 'insert into plain_role_probe values (3)');
        // then: the fan-out would look again
        expect(await writerRunning()).toBe(true);
        await held.end('commit');
        expect(await writerRunning()).toBe(false);
      } finally {
        await writer.end();
      }
    });

    it.skipIf(!otherRole)('finds one of another role just as well', async () => {
      await expect.poll(writerRunning).toBe(false);
      const owner = await connect(url());
      await owner.query('create table if not exists plain_role_probe (id int)');
      await owner.query(`grant insert on plain_role_probe to ${otherRole}`);
      const writer = await connect(as(url(), otherRole!));
      try {
        const held = await holdWrite(writer, 'insert into plain_role_probe values (4)');
        expect(await writerRunning()).toBe(true);
        await held.end('rollback');
        expect(await writerRunning()).toBe(false);
      } finally {
        await writer.end();
        await owner.end();
      }
    });
  });

  describe.skipIf(!otherRole)("the event log's finality, with another role's transaction open", () => {
    /** Appends an event in autocommit and writes a mark over it, as the relay does after a commit: its position. */
    const appendAndMark = async (session: pg.Client): Promise<bigint> => {
      const position = await appendRaw(session, `dep_${randomBytes(6).toString('hex')}`, 'cli_plain_role');
      await session.query(`with mark as (${MARK_SQL}) select 1`);
      return position;
    };
    const finalPosition = async (session: pg.Client): Promise<bigint> => {
      const { rows } = await session.query<{ final: string }>('select coalesce(payment_event_final_position(), 0)::text as final');
      return BigInt(rows[0]!.final);
    };

    it('in another database: set aside, the event is final at once', async () => {
      // given: another database on the server, where the other role has written and stays open
      const name = `gw_other_${randomBytes(6).toString('hex')}`;
      const owner = await connect(url());
      await owner.query(`create database ${name}`);
      const elsewhere = await connect(Object.assign(new URL(url()), { pathname: `/${name}` }).toString());
      await elsewhere.query('create table batch_job (id int)');
      await elsewhere.query(`grant insert on batch_job to ${otherRole}`);
      await elsewhere.end();
      const writer = await connect(as(Object.assign(new URL(url()), { pathname: `/${name}` }).toString(), otherRole!));
      try {
        const held = await holdWrite(writer, 'insert into batch_job values (1)');
        // when: the gateway's database commits an event after it
        const position = await appendAndMark(owner);
        // then: readers take it, though the older transaction still runs (had the plain role
        // not seen that it is another database's, it would count as ours and hold the log back)
        expect(await finalPosition(owner)).toBeGreaterThanOrEqual(position);
        expect((await seen(owner, held.pid)).backend_xid).toBe(held.xid);
        await held.end('rollback');
      } finally {
        await writer.end();
        await dropDatabase(owner, name);
        await owner.end();
      }
    });

    it("in the gateway's own database: waited for, and the event is final once it has ended", async () => {
      const owner = await connect(url());
      await owner.query(`grant select, insert on payment_event to ${otherRole}`);
      await owner.query(`grant usage on sequence payment_event_position_seq to ${otherRole}`);
      const writer = await connect(as(url(), otherRole!));
      try {
        // given: the other role's transaction has drawn a position and stays open
        await writer.query('begin');
        const lower = await appendRaw(writer, `dep_${randomBytes(6).toString('hex')}`, 'cli_plain_role');
        // when: the gateway's role commits a higher one
        const higher = await appendAndMark(owner);
        expect(higher).toBeGreaterThan(lower);
        // then: readers stop below the open one, until it ends
        expect(await finalPosition(owner)).toBeLessThan(lower);
        await writer.query('commit');
        await owner.query(`with mark as (${MARK_SQL}) select 1`);
        expect(await finalPosition(owner)).toBeGreaterThanOrEqual(higher);
      } finally {
        await writer.query('rollback').catch(() => undefined);
        await writer.end();
        await owner.end();
      }
    });
  });

  describe('at start', () => {
    it('says in one line that a role without pg_read_all_stats needs none, and what the gateway reads instead; nothing for a role with it', async () => {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
          callback();
        },
      });
      const session = await connect(url());
      const { readAllStats } = await privileges(session);
      await session.end();
      const db = await openDatabase({ databaseUrl: url(), dataDir: file.database.env.DATA_DIR!, logger: createLogger({ level: 'info', destination: sink }), entities });
      await db.close();
      const notices = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.privilege !== undefined);
      if (readAllStats) {
        expect(notices).toEqual([]);
      } else {
        expect(notices).toEqual([
          expect.objectContaining({
            level: 30,
            component: 'database',
            role: new URL(url()).username,
            privilege: 'pg_read_all_stats',
            reads: ['pg_stat_activity.backend_xid', 'pg_stat_activity.datid'],
            msg: expect.stringMatching(/^database role has no pg_read_all_stats, and the gateway needs none/) as string,
          }),
        ]);
      }
    });

    it('refuses to migrate a database whose schema the role cannot create in, naming the fix, and changes nothing', async (context) => {
      const owner = await connect(url());
      const { superuser } = await privileges(owner);
      if (superuser) {
        // A superuser creates anywhere: there is nothing to refuse.
        await owner.end();
        context.skip();
      }
      // given: a fresh database of the role's whose schema public it may no longer create in
      const name = `gw_test_${randomBytes(6).toString('hex')}`;
      const target = Object.assign(new URL(url()), { pathname: `/${name}` }).toString();
      await owner.query(`create database ${name}`);
      try {
        const inside = await connect(target);
        await inside.query('revoke create on schema public from pg_database_owner');
        try {
          // when: the gateway opens it
          const opening = openDatabase({ databaseUrl: target, dataDir: file.database.env.DATA_DIR!, logger: createLogger({ level: 'silent' }), entities });
          // then: refused before any migration, with the fix
          await expect(opening).rejects.toThrow(DatabaseRoleError);
          await expect(opening).rejects.toThrow(`The database role ${new URL(url()).username} cannot create tables in schema public of database ${name}`);
          const { rows } = await inside.query<{ tables: number }>("select count(*)::int as tables from pg_tables where schemaname = 'public'");
          expect(rows[0]!.tables).toBe(0);
        } finally {
          await inside.end();
        }
      } finally {
        await dropDatabase(owner, name);
        await owner.end();
      }
    });
  });
});
