// Recovers payouts whose webhooks or creation answer were lost: checks the payouts of one account in
// rotation (least recently checked first) against the provider's list (GET /payouts), applies what
// it says through payout-transitions.ts, resubmits unknown-outcome payouts under their own id, and
// reports a payout the provider never shows as an admin-visible anomaly. The reconciler runs it as
// one job per account (src/modules/reconciliation/reconciliation-jobs.ts), whose lease keeps two
// instances off one account.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../lib/logger.js';
import { linkToStoredTrace } from '../../lib/tracing/trace-context.js';
import type { PayoutPort } from '../../providers/ports.js';
import type { MerchantAccount, ProviderPayout } from '../../providers/provider.js';
import type { ResumeResult } from '../../kernel/operation.js';
import { Payout } from './payout.entity.js';
import { payoutTransitions } from './payout-transitions.js';
import type { TransitionPath } from '../../kernel/transitions.js';

/** The event raised, once per payout, when the provider's list keeps not showing it (admins only: no client). */
export const PAYOUT_MISSING_AT_PROVIDER = 'payout.missing_at_provider';

export interface ReconcilePayoutsOptions {
  /** Only PENDING payouts created at or before this moment (the "pending past a threshold" rule). Default: now. */
  createdBefore?: Date;
  /** At most this many payouts per run, least recently checked first. Default 200. */
  batchSize?: number;
  /** At most this many pages of GET /payouts per run (newest first). Default 10. */
  maxPages?: number;
  /** Page size of GET /payouts (1 to 200). Default 200. */
  pageLimit?: number;
  /** A payout with no provider reference and no recorded failure is left this long (its first call may be in flight). Default 0. */
  submitGraceMs?: number;
  /** Conclusive checks not showing a payout before it is reported missing at the provider. Default 5. */
  missingAfterChecks?: number;
  /** How long after it became PAID a payout is still checked for a reversal. Default 7 days. */
  revertWindowMs?: number;
  logger?: Logger;
}

export interface ReconcilePayoutsDeps {
  provider: Pick<PayoutPort, 'listPayouts'>;
  transitions: TransitionPath;
  /** Resubmits a payout whose outcome is unknown (`PayoutService.resume`); without it such payouts are only looked for. */
  resume?: (em: SqlEntityManager, id: string) => Promise<ResumeResult>;
  /** Told of each payout newly reported missing (metrics). */
  onMissing?: (payoutId: string) => void;
  /**
   * Told of each payout's check as it ends, with the reconciler's outcome word and why (the
   * payout's timeline records it): `applied`, `noop`, `anomaly`, `resubmitted`, `provider_error`,
   * `not_listed` (absent from a conclusive search), `missing` (newly reported missing).
   */
  onChecked?: (payoutId: string, outcome: string, reason: string | null) => void;
}

export interface ReconcilePayoutsResult {
  /** Payouts looked for. */
  checked: number;
  /** Status changes applied (each with its event and notification), including refusals of a resubmission. */
  applied: number;
  /** Reports refused as anomalies (mismatched amount, impossible move). */
  anomalies: number;
  /** Payouts the provider's list did not show in this run. */
  notFound: string[];
  /** Unknown-outcome payouts resubmitted under their own id. */
  resubmitted: number;
  /** Payouts reported missing at the provider in this run (each payout once ever). */
  missing: string[];
  /** Set when the provider could not be read; nothing was changed after that point. */
  providerError?: string;
}

/** Clock difference allowed between our creation time and the provider's when bounding a search of its newest-first list. */
const LIST_SKEW_MS = 10 * 60_000;

/**
 * Reconciles the payouts of one merchant account with the provider's own list: PENDING ones past
 * `createdBefore`, and PAID ones within `revertWindowMs` (a reversal's webhook may be lost too),
 * least recently checked first, so every payout gets its turn. Each change commits in its own
 * transaction through the transition path, which locks the payout and applies a report once: two
 * runs at once (which the reconciler's one job per account avoids) apply each change once.
 *
 * @example
 * const payouts = services.providers.adapterFor(account, 'payouts');
 * if (payouts.ok) await reconcilePendingPayouts(em, account, { provider: payouts.port, transitions: services.transitions },
 *   { createdBefore: new Date(Date.now() - 5 * 60_000) });
 */
export async function reconcilePendingPayouts(
  em: SqlEntityManager,
  account: MerchantAccount,
  deps: ReconcilePayoutsDeps,
  options: ReconcilePayoutsOptions = {},
): Promise<ReconcilePayoutsResult> {
  const result: ReconcilePayoutsResult = { checked: 0, applied: 0, anomalies: 0, notFound: [], resubmitted: 0, missing: [] };
  const ids = await due(em, account, options);
  if (ids.length === 0) return result;
  const batch = await em.find(Payout, { id: { $in: ids } }, { orderBy: { createdAt: 'asc', id: 'asc' }, refresh: true });
  result.checked = batch.length;
  // The pass's span (its job's run) links to the trace of the request that made each payout it
  // checks, as a deposit's or refund's check does through its job (docs/tracing.md).
  for (const payout of batch) linkToStoredTrace(payout.traceContext, { 'payments.subject.type': 'payout' });

  const search = await searchList(account, deps, batch, options);
  if (!search.ok) {
    result.providerError = search.code;
    options.logger?.warn({ account: account.code, code: search.code }, 'could not list payouts at the provider');
    for (const payout of batch) {
      await release(em, payout.id, 'unchanged');
      deps.onChecked?.(payout.id, 'provider_error', search.code);
    }
    return result;
  }

  const source = `reconciler:${account.provider}/${account.code}`;
  for (const payout of batch) {
    const report = search.reports.get(payout.id);
    if (report) {
      const applied = await em.transactional(async (tx) => {
        const outcome = await deps.transitions.apply(tx, payoutTransitions, {
          id: payout.id,
          change: { status: report.status, providerStatus: report.providerStatus, providerReference: report.reference, ...(report.amount ? { amount: report.amount } : {}) },
          source,
        });
        await release(tx, payout.id, 'seen');
        return outcome;
      });
      if (applied.outcome === 'applied') result.applied += 1;
      deps.onChecked?.(payout.id, applied.outcome === 'applied' || applied.outcome === 'anomaly' ? applied.outcome : 'noop', applied.reason ?? null);
      if (applied.outcome === 'anomaly') {
        result.anomalies += 1;
        options.logger?.warn({ payoutId: payout.id, reason: applied.reason }, 'payout report from the provider refused as an anomaly');
      }
      continue;
    }
    result.notFound.push(payout.id);

    if (!payout.providerReference && payout.status === 'PENDING' && deps.resume) {
      // Unknown outcome and not in the list: resubmit under its own id, which returns the original
      // payout if the provider did take the first call.
      const resumed = await deps.resume(em, payout.id);
      options.logger?.info({ payoutId: payout.id, outcome: resumed.outcome, reason: resumed.reason }, 'reconciler resubmitted a payout whose outcome was unknown');
      if (resumed.outcome === 'submitted' || resumed.outcome === 'refused' || resumed.outcome === 'not_needed') {
        if (resumed.outcome === 'submitted') result.resubmitted += 1;
        if (resumed.outcome === 'refused') result.applied += 1;
        deps.onChecked?.(payout.id, resumed.outcome === 'submitted' ? 'resubmitted' : resumed.outcome === 'refused' ? 'applied' : 'noop', resumed.reason ?? null);
        await release(em, payout.id, 'seen');
        continue;
      }
    }
    if (!search.conclusive) {
      // The list was not read far enough back to say the payout is absent.
      await release(em, payout.id, 'unchanged');
      deps.onChecked?.(payout.id, 'noop', 'PAYOUT_NOT_LISTED: not in the part of the provider\'s list that was read');
      continue;
    }
    const missing = await countMissing(em, payout, deps, options);
    if (missing) result.missing.push(payout.id);
    deps.onChecked?.(payout.id, missing ? 'missing' : 'not_listed', missing ? 'PAYOUT_MISSING: the provider\'s list has not shown it in the checks allowed' : 'PAYOUT_NOT_LISTED: absent from the provider\'s list');
  }
  return result;
}

/**
 * The merchant accounts with payouts due for a check (`reconcilePendingPayouts`'s rule), for the
 * reconciler's sweep to enqueue one check per account.
 */
export async function accountsWithPayoutsDue(em: SqlEntityManager, options: Pick<ReconcilePayoutsOptions, 'createdBefore' | 'submitGraceMs' | 'revertWindowMs'> = {}): Promise<string[]> {
  const rows = await em.execute<Array<{ merchant_account: string }>>(
    `select distinct merchant_account from payout where ${DUE}`,
    dueParams(options),
  );
  return rows.map((row) => row.merchant_account);
}

/**
 * Due for a check: PENDING past the age threshold (and past the grace of a first call still in
 * flight, unless it failed or is known to the provider), or PAID within the revert window.
 */
const DUE = `(
    (status = 'PENDING' and created_at <= ?::timestamptz
      and (provider_reference is not null or submission_error is not null or created_at <= now() - make_interval(secs => ?)))
    or (status = 'PAID' and updated_at >= now() - make_interval(secs => ?))
  )`;

function dueParams(options: Pick<ReconcilePayoutsOptions, 'createdBefore' | 'submitGraceMs' | 'revertWindowMs'>): unknown[] {
  return [(options.createdBefore ?? new Date()).toISOString(), (options.submitGraceMs ?? 0) / 1000, (options.revertWindowMs ?? 7 * 86_400_000) / 1000];
}

/** This account's payouts due for a check, least recently checked first. */
async function due(em: SqlEntityManager, account: MerchantAccount, options: ReconcilePayoutsOptions): Promise<string[]> {
  const rows = await em.execute<Array<{ id: string }>>(
    `select id from payout
     where merchant_account = ? and provider = ? and ${DUE}
     order by reconcile_checked_at asc nulls first, created_at asc
     limit ?`,
    [account.code, account.provider, ...dueParams(options), options.batchSize ?? 200],
  );
  return rows.map((row) => row.id);
}

/**
 * Reads GET /payouts newest first until every payout of the batch is found, the list ends, or it reaches
 * items created before the oldest payout of the batch (then an absent payout is known to be absent).
 */
async function searchList(
  account: MerchantAccount,
  deps: ReconcilePayoutsDeps,
  batch: Payout[],
  options: ReconcilePayoutsOptions,
): Promise<{ ok: true; reports: Map<string, ProviderPayout>; conclusive: boolean } | { ok: false; code: string }> {
  const byId = new Map(batch.map((payout) => [payout.id, payout]));
  const byReference = new Map(batch.filter((payout) => payout.providerReference).map((payout) => [payout.providerReference!, payout]));
  const floor = Math.min(...batch.map((payout) => payout.createdAt.getTime())) - LIST_SKEW_MS;
  const reports = new Map<string, ProviderPayout>();
  let before: string | undefined;
  for (let page = 0; page < (options.maxPages ?? 10); page++) {
    const listed = await deps.provider.listPayouts(account, { limit: options.pageLimit ?? 200, ...(before ? { before } : {}) });
    if (!listed.ok) return { ok: false, code: listed.error.code };
    for (const item of listed.value.items) {
      // Our id is the provider's merchant reference; the provider reference is the fallback.
      const ours = (item.merchantReference && byId.get(item.merchantReference)) || byReference.get(item.reference);
      if (ours) reports.set(ours.id, item);
    }
    if (reports.size === batch.length) return { ok: true, reports, conclusive: true };
    before = listed.value.nextBefore;
    if (!before) return { ok: true, reports, conclusive: true };
    if (listed.value.items.some((item) => item.createdAt && item.createdAt.getTime() < floor)) return { ok: true, reports, conclusive: true };
  }
  return { ok: true, reports, conclusive: false };
}

/** Ends a payout's check: `seen` resets its missing count, `unchanged` leaves it. */
async function release(em: SqlEntityManager, payoutId: string, how: 'seen' | 'unchanged'): Promise<void> {
  await em.execute(`update payout set reconcile_checked_at = now()${how === 'seen' ? ', missing_checks = 0' : ''} where id = ?`, [payoutId]);
}

/**
 * Counts one more conclusive check that did not show the payout; at `missingAfterChecks` it is
 * reported once: an admin-only event of the payout (its client does not see it), a warning and the
 * caller's metric. Returns true when it was reported now.
 */
async function countMissing(em: SqlEntityManager, payout: Payout, deps: ReconcilePayoutsDeps, options: ReconcilePayoutsOptions): Promise<boolean> {
  const threshold = options.missingAfterChecks ?? 5;
  const raised = await em.transactional(async (tx) => {
    // now() is the transaction's start: equal to it, missing_reported_at was set by this very
    // statement, so the anomaly is raised once, even if the payout shows up and goes missing again.
    const rows = await tx.execute<Array<{ raised: boolean }>>(
      `update payout set missing_checks = missing_checks + 1, reconcile_checked_at = now(),
         missing_reported_at = case when missing_reported_at is null and missing_checks + 1 >= ? then now() else missing_reported_at end
       where id = ?
       returning coalesce(missing_reported_at = now(), false) as raised`,
      [threshold, payout.id],
    );
    if (!rows[0]?.raised) return false;
    // Announced by the path, in this transaction: nothing more of the payout changes.
    await deps.transitions.note(tx, payoutTransitions, { event: PAYOUT_MISSING_AT_PROVIDER, row: payout, adminOnly: true });
    return true;
  });
  if (raised) {
    options.logger?.warn(
      { anomaly: 'PAYOUT_MISSING_AT_PROVIDER', payoutId: payout.id, status: payout.status, providerReference: payout.providerReference ?? null, checks: threshold },
      'payout not shown by the provider after repeated checks; reported for an admin',
    );
    deps.onMissing?.(payout.id);
  }
  return raised;
}
