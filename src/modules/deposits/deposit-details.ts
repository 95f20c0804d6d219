// A deposit's details beyond its status (fee, net, decline reason, status reason, approval time),
// written from what the provider reports as a change on the transition path (`TransitionPath.record`):
// one statement guarded on the row's version with its event (and the completion of the job that
// fetched them), or under the row lock when the row keeps changing; a net that does not add up is
// raised instead of applied.
// Apart from the deposit service so its create and read paths and this write path read on their own.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { JobInfo } from '../../kernel/jobs.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { inTransaction } from '../../db/transaction.js';
import type { Logger } from '../../lib/logger.js';
import type { Money } from '../../lib/money.js';
import type { ProviderDeposit, ProviderName } from '../../providers/provider.js';
import type { Versioned } from '../../db/plain-rows.js';
import type { Deposit } from './deposit.entity.js';
import type { DepositSnapshotProperty } from './deposit-snapshot.js';
import { depositTransitions } from './deposit-transitions.js';
import { versionedDeposit, versionedDepositColumns } from './written-deposits.js';

/** What `fetchDetails` may be told by its caller. */
export interface FetchDetailsOptions {
  /** The deposit's provider and merchant account, when the caller knows them: not read again. */
  heldAt?: { provider: ProviderName; merchantAccount: string };
  /**
   * The running job that fetched the details: its success is written by the statement that writes
   * them, only when they changed and that statement matched the row.
   */
  completes?: JobInfo;
}

/** Admin-only event: the provider reported a net that is not amount minus fee (not applied). */
export const DEPOSIT_NET_MISMATCH = 'deposit.net_mismatch';

/** The event of a change of a deposit's details (its status unchanged). */
export const DEPOSIT_DETAILS_UPDATED = 'deposit.details_updated';

/** `writeDetails` found the deposit changed between its read and its write: nothing was written. */
const ROW_CHANGED = Symbol('deposit row changed since it was read');
/** Reads and guarded writes of one detail fetch before it takes the row lock instead. */
const DETAILS_WRITE_ATTEMPTS = 3;

/** The provider could not tell a deposit's details now; the job that asked retries later. */
export class DepositDetailsUnavailable extends Error {
  override name = 'DepositDetailsUnavailable';
}

/** What writing details needs of the deposit service's dependencies. */
export interface DepositDetailsDeps {
  transitions: TransitionPath;
  logger: Logger;
}

/** One detail write: the deposit, where it is held, what its provider reported, and the caller's options. */
export interface DetailsWrite {
  depositId: string;
  held: { provider: ProviderName; merchantAccount: string };
  truth: ProviderDeposit;
  options: FetchDetailsOptions;
}

/** Writes what `write.truth` adds to the deposit (see `writeDetails`), again if the row changed under it. */
export async function applyDetails(deps: DepositDetailsDeps, em: SqlEntityManager, write: DetailsWrite, handed: Versioned<Pick<Deposit, DepositSnapshotProperty>> | undefined): Promise<boolean> {
  // A net that does not add up is raised as an event of its own, and a caller's transaction is
  // kept: both read the deposit under its row lock. Otherwise the read takes no lock and the
  // write is one statement that applies only to the row as read.
  const underLock = () => inTransaction(em, async (tx) => (await writeDetails(deps, tx, write, true)) === true);
  if (write.truth.netMismatch || em.isInTransaction()) return underLock();
  for (let attempt = 1; attempt <= DETAILS_WRITE_ATTEMPTS; attempt++) {
    const written = await writeDetails(deps, em, write, false, handed);
    handed = undefined;
    if (written !== ROW_CHANGED) return written;
    // Changed between the read and the write (a status report landed): read it again.
  }
  // Changed under every attempt: the row lock keeps the next change waiting.
  return underLock();
}

/**
 * Reads the deposit and writes what the provider's record adds to it, with its event and the
 * completion of `options.completes`, in one statement guarded on the row's version (`xmin`, which every update
 * of the row renews): a change committed in between makes it match nothing, and `ROW_CHANGED`
 * comes back with nothing written. With `lock`, in the caller's transaction, the read takes the
 * row lock first, so the guard always holds. With `handed`, the row a webhook's change returned
 * (written-deposits.ts), the read is skipped: the guard on its version decides the same way.
 */
async function writeDetails(
  deps: DepositDetailsDeps,
  em: SqlEntityManager,
  { depositId, held, truth, options }: DetailsWrite,
  lock: boolean,
  handed?: Versioned<Pick<Deposit, DepositSnapshotProperty>>,
): Promise<boolean | typeof ROW_CHANGED> {
  // Only for the deposit this read would find: the same id, provider and account.
  const usable = !lock && handed?.row.id === depositId && handed.row.provider === held.provider && handed.row.merchantAccount === held.merchantAccount;
  // A plain row: nothing here needs the entity, and nothing is left for a flush.
  const [row] = usable
    ? []
    : await em.execute<Array<Record<string, unknown>>>(
        `select ${versionedDepositColumns(em)} from deposit where id = ? and provider = ? and merchant_account = ?${lock ? ' for update' : ''}`,
        [depositId, held.provider, held.merchantAccount],
      );
  const found = usable ? handed : row && versionedDeposit(em, row);
  if (!found) {
    deps.logger.warn({ depositId, reason: 'DEPOSIT_NOT_FOUND' }, 'deposit details not fetched');
    return false;
  }
  const { row: read, version } = found;
  const inCurrency = (money: Money | undefined) => (money && money.currency === read.currency ? money.toDecimal() : undefined);
  const next = {
    fee: inCurrency(truth.fee) ?? read.fee ?? null,
    net: inCurrency(truth.net) ?? read.net ?? null,
    declineReason: truth.declineReason ?? read.declineReason ?? null,
    statusReason: truth.statusReason ?? read.statusReason ?? null,
    // The payment's own approved_at (spec: "use it rather than created_at to age a deposit") wins
    // over the moment a webhook's envelope was created, which only stood in for it until now.
    approvedAt: read.status === 'SUCCEEDED' || read.status === 'REFUNDED' ? (truth.approvedAt ?? read.approvedAt ?? null) : (read.approvedAt ?? null),
  };
  if (truth.netMismatch) await raiseNetMismatch(deps, em, read, truth);
  const facts = (value: typeof next) => JSON.stringify([value.fee, value.net, value.declineReason, value.statusReason, value.approvedAt]);
  if (facts(next) === facts({ fee: read.fee ?? null, net: read.net ?? null, declineReason: read.declineReason ?? null, statusReason: read.statusReason ?? null, approvedAt: read.approvedAt ?? null })) {
    return false;
  }
  const updatedAt = new Date();
  // The row, its event and the job's completion in one statement, only on the row as read.
  const { written, completed } = await deps.transitions.record<Pick<Deposit, DepositSnapshotProperty>>(em, depositTransitions, {
    event: DEPOSIT_DETAILS_UPDATED,
    row: read,
    next: { ...read, ...next, updatedAt },
    update: {
      set: { fee: next.fee, net: next.net, decline_reason: next.declineReason, status_reason: next.statusReason, approved_at: next.approvedAt, updated_at: updatedAt },
      returning: { columns: ['id'] },
      ifVersion: version,
    },
    ...(options.completes ? { completes: options.completes } : {}),
  });
  if (!written) {
    if (lock) throw new Error(`deposit ${read.id} changed under its row lock`);
    return ROW_CHANGED;
  }
  return completed;
}

/**
 * A reported `net` that is not `amount - fee` (spec: "net: amount minus fee") is not applied: it is
 * raised once per deposit as an admin-only `deposit.net_mismatch` event, and logged as an anomaly.
 */
async function raiseNetMismatch(deps: DepositDetailsDeps, tx: SqlEntityManager, deposit: Pick<Deposit, DepositSnapshotProperty>, truth: ProviderDeposit): Promise<void> {
  const raised = await deps.transitions.note<Pick<Deposit, DepositSnapshotProperty>>(tx, depositTransitions, { event: DEPOSIT_NET_MISMATCH, row: deposit, adminOnly: true, once: true });
  if (!raised) return;
  deps.logger.warn(
    { anomaly: 'NET_MISMATCH', depositId: deposit.id, amount: truth.amount?.toString() ?? null, fee: truth.fee?.toString() ?? null, reportedNet: truth.netMismatch?.toString() ?? null },
    'provider reported a net that is not amount minus fee; not applied',
  );
}
