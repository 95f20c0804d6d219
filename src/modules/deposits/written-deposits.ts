// The deposit rows this instance's webhooks just wrote, each with the row version it was written
// as, handed to the detail fetch that follows so that it writes without reading the row again.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { columnList, plainRow, type Versioned } from '../../db/plain-rows.js';
import { ROW_VERSION } from '../../kernel/sql-intents.js';
import { Deposit } from './deposit.entity.js';
import { DEPOSIT_SNAPSHOT_PROPERTIES, type DepositSnapshotProperty } from './deposit-snapshot.js';

/**
 * The columns of a deposit row as the snapshot reads them, and the row version (`xmin`) as
 * `ROW_VERSION`: what the detail fetch reads.
 */
export function versionedDepositColumns(em: SqlEntityManager): string {
  return `${columnList(em, Deposit, DEPOSIT_SNAPSHOT_PROPERTIES)}, xmin::text as ${ROW_VERSION}`;
}

let snapshotColumnNames: readonly string[] | undefined;

/** The columns of a deposit row as the snapshot reads them, by name: what a change of a plain row returns, with its version. */
export function snapshotColumns(em: SqlEntityManager): readonly string[] {
  snapshotColumnNames ??= columnList(em, Deposit, DEPOSIT_SNAPSHOT_PROPERTIES).split(', ');
  return snapshotColumnNames;
}

/** A row read or returned with `versionedDepositColumns`: the deposit and its version (undefined for any other row). */
export function versionedDeposit(em: SqlEntityManager, selected: Record<string, unknown>): Versioned<Pick<Deposit, DepositSnapshotProperty>> | undefined {
  const { [ROW_VERSION]: version, ...columns } = selected;
  return typeof version === 'string' ? { row: plainRow<Pick<Deposit, DepositSnapshotProperty>>(em, Deposit, columns), version } : undefined;
}

/** Rows kept at most; the oldest go first (a follow-up taken by another instance never takes its row here). */
const DEFAULT_CAPACITY = 1_024;

/**
 * A status change's row, kept for the `deposit.fetch_details` job it schedules: when this
 * instance's worker runs the job, the detail fetch starts from this row instead of reading it,
 * and its write stays guarded on the row's version (`xmin`) as after a read. Nothing here is
 * trusted beyond that guard: a row changed since (another report, a refund), a transaction that
 * rolled back (its `xmin` is never any row's) or the job run elsewhere make the write match
 * nothing or find nothing kept, and the fetch reads the row as before.
 *
 * What is kept must be the row exactly as the statement that wrote it left it (its `returning`),
 * and no later statement of that transaction may change the row again: those would share its
 * `xmin`. A webhook's status change is the last write of its transaction to the deposit.
 */
export class DetailsHandOff {
  private readonly rows = new Map<string, Versioned<Pick<Deposit, DepositSnapshotProperty>>>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** Keeps a row as written at its version, replacing an older one of the same deposit. */
  remember(written: Versioned<Pick<Deposit, DepositSnapshotProperty>>): void {
    this.rows.delete(written.row.id);
    this.rows.set(written.row.id, written);
    if (this.rows.size > this.capacity) this.rows.delete(this.rows.keys().next().value!);
  }

  /** The deposit's kept row, removed: a later fetch (a retry) reads the row. */
  take(depositId: string): Versioned<Pick<Deposit, DepositSnapshotProperty>> | undefined {
    const written = this.rows.get(depositId);
    if (written) this.rows.delete(depositId);
    return written;
  }
}
