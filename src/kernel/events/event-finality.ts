// Where the log is final: the position up to which nothing can commit any more (what every read of
// the log stops at), the mark that moves it after commits, and how far readers are held back.

/**
 * The highest position up to which the log is final for the reading statement's snapshot: nothing
 * can commit at or below it any more, so a cursor moved up to it never skips an event.
 *
 * Positions are drawn by the insert trigger (migration 20261123140000) after the writing
 * transaction has its id. A mark (position, horizon) is written after a commit: it reads the
 * highest position drawn so far, then takes a new transaction id as its horizon, so every
 * transaction holding a position up to the mark's has an id below the horizon. When the snapshot
 * sees none of this database's transactions with an id below the horizon running, all of them have
 * ended: committed (and visible to this snapshot) or rolled back for good. Without a lock,
 * positions do not appear in commit order: a higher position can commit first, and it stays
 * unread until the lower ones have ended.
 *
 * Transactions of other databases on the same server are left out (migration 20261127113000,
 * `payment_event_final_position()`): they cannot hold a position, and a long one (a migration, a
 * batch job) would otherwise hold every reader back for as long as it runs. What it reads of other
 * sessions (pg_stat_activity's `datid` and `backend_xid`) PostgreSQL shows every role, so a plain
 * role needs no privilege for it; and a transaction it cannot place counts as this database's,
 * holding readers back, never letting them skip. A scalar subquery, so a statement computes it once.
 */
export const FINAL_POSITION_SQL = '(select payment_event_final_position())';

/**
 * Writes a mark (see FINAL_POSITION_SQL) when the log holds a position no mark covers yet; in
 * autocommit, never inside a money transaction. A CTE body.
 */
export const MARK_SQL = `insert into payment_event_horizon (position, horizon)
  select (m).mark_position, (m).mark_horizon from (
    select payment_event_mark() as m
    where (select max(position) from payment_event) > coalesce((select max(position) from payment_event_horizon), 0)
  ) pending`;

/**
 * How far readers are held back: committed events above the final position wait for older
 * transactions of this database to end (FINAL_POSITION_SQL). Both 0 when every committed event is
 * final.
 */
export interface EventLogLag {
  /** Positions between the final position and the newest committed event. */
  unfinalPositions: number;
  /** How long the oldest committed event that is not final yet has waited, since it was written. */
  unfinalSeconds: number;
}
