// The event log's finality decided by this database's transactions only: a write transaction held
// open in another database on the same PostgreSQL server no longer holds back live updates
// (docs/kernel-reference.md "Event log order").

import { Migration } from '@mikro-orm/migrations';

/**
 * `payment_event_final_position()`: the highest position up to which the log is final for the
 * calling statement's snapshot (FINAL_POSITION_SQL). As before, the highest mark whose horizon
 * every transaction that may hold a position below it has ended before; but "every transaction"
 * is now this database's, where it was the snapshot's xmin, which is server-wide.
 *
 * The oldest running transaction that may be ours is the lowest id the snapshot sees running
 * (`pg_snapshot_xip`) that is not proven to be another database's: the backend running it
 * (`pg_stat_activity.backend_xid` and `datid`, which PostgreSQL shows every role for every
 * session: no privilege needed, test/db/plain-role.test.ts) or
 * the prepared transaction holding it (`pg_prepared_xacts`) is connected to another database. A
 * transaction writes only to its own database's tables, so another database's never holds a
 * position. Whatever cannot be told counts as ours and holds the log back, as before, until a
 * later snapshot no longer sees it running: a transaction that ended between the snapshot and the
 * look-up (its id is then nowhere), or a backend whose status is not published yet. An id found
 * beside another database is that database's: the statuses are read after the snapshot was taken
 * (`pg_stat_clear_snapshot` drops a copy kept from an earlier statement), and a backend running a
 * transaction keeps its status slot, which names its database, from before that transaction
 * started until after it ends. So a reader never skips a late commit. With nothing running that
 * may be ours, the bound is the snapshot's xmax: every visible mark's horizon is below it.
 *
 * The snapshot's ids are 64-bit (`xid8`), the views' 32-bit: compared after truncating the
 * snapshot's, exact for running transactions (never 2^31 ids apart). Only running ids below the
 * newest mark's horizon can hold a mark back, so the two views are read only when such an id
 * runs (under load, on most reads: a few hundred microseconds). PL/pgSQL keeps the plans for the
 * session; STABLE, it reads everything in the calling statement's snapshot.
 */
export class Migration20261127113000_event_horizon_per_database extends Migration {
  override up(): void {
    this.addSql(`
      create function payment_event_final_position() returns bigint language plpgsql stable as $$
      declare
        snapshot constant pg_snapshot := pg_current_snapshot();
        newest xid8;
        oldest_ours xid8;
      begin
        -- Backend statuses read after the snapshot was taken, not kept from an earlier statement of the transaction.
        perform pg_stat_clear_snapshot();
        select max(horizon) into newest from payment_event_horizon;
        select min(running) into oldest_ours from pg_snapshot_xip(snapshot) running
        where running < newest
          and running::xid <> all (array(
                select backend_xid from pg_stat_activity
                where backend_xid is not null and datid <> (select oid from pg_database where datname = current_database())))
          and running::xid <> all (array(select transaction from pg_prepared_xacts where database <> current_database()));
        return (select max(position) from payment_event_horizon where horizon <= coalesce(oldest_ours, pg_snapshot_xmax(snapshot)));
      end
      $$;
    `);
  }

  override down(): void {
    this.addSql('drop function payment_event_final_position();');
  }
}
