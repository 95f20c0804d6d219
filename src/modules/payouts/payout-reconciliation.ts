// Recovers missed payout webhooks: reads the provider's payout list (GET /payouts) and applies what it says to our pending payouts through payout-transitions.ts.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../lib/logger.js';
import type { MerchantAccount, MoneyMovementProvider, ProviderPayout } from '../../providers/provider.js';
import type { EventService } from '../events/event.service.js';
import { Payout } from './payout.entity.js';
import { applyPayoutChange } from './payout-transitions.js';

export interface ReconcilePayoutsOptions {
  /** Only payouts created at or before this moment (the "pending past a threshold" rule). Default: now. */
  createdBefore?: Date;
  /** At most this many of our pending payouts per run, oldest first. Default 200. */
  batchSize?: number;
  /** At most this many pages of GET /payouts per run (newest first). Default 10. */
  maxPages?: number;
  /** Page size of GET /payouts (1 to 200). Default 200. */
  pageLimit?: number;
  logger?: Logger;
}

export interface ReconcilePayoutsResult {
  /** Our pending payouts looked for. */
  checked: number;
  /** Status changes applied (each with its event and notification). */
  applied: number;
  /** Reports refused as anomalies (mismatched amount, impossible move). */
  anomalies: number;
  /** Payouts the provider's list did not show within `maxPages`. */
  notFound: string[];
  /** Set when the provider could not be read; nothing was changed after that point. */
  providerError?: string;
}

/**
 * Reconciles the PENDING payouts of one merchant account with the provider's own list. Each change
 * commits in its own transaction through `applyPayoutChange`, which locks the payout row: safe to
 * run on every instance at once (a second run sees the status already applied and does nothing).
 * A payout whose submission never reached the provider is not in its list and stays PENDING; it is
 * returned in `notFound` for the caller to report.
 *
 * @example
 * await reconcilePendingPayouts(em, services.accounts.get('dg-test')!, { provider: services.providers['deposit-gateway'], events: services.events },
 *   { createdBefore: new Date(Date.now() - 5 * 60_000) });
 */
export async function reconcilePendingPayouts(
  em: SqlEntityManager,
  account: MerchantAccount,
  deps: { provider: Pick<MoneyMovementProvider, 'listPayouts'>; events: EventService },
  options: ReconcilePayoutsOptions = {},
): Promise<ReconcilePayoutsResult> {
  const pending = await em.find(
    Payout,
    { merchantAccount: account.code, provider: account.provider, status: 'PENDING', createdAt: { $lte: options.createdBefore ?? new Date() } },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit: options.batchSize ?? 200 },
  );
  const result: ReconcilePayoutsResult = { checked: pending.length, applied: 0, anomalies: 0, notFound: [] };
  if (pending.length === 0) return result;

  const byId = new Map(pending.map((payout) => [payout.id, payout]));
  const byReference = new Map(pending.filter((payout) => payout.providerReference).map((payout) => [payout.providerReference!, payout]));
  const reports = new Map<string, ProviderPayout>();
  let before: string | undefined;
  for (let page = 0; page < (options.maxPages ?? 10) && reports.size < pending.length; page++) {
    const listed = await deps.provider.listPayouts(account, { limit: options.pageLimit ?? 200, ...(before ? { before } : {}) });
    if (!listed.ok) {
      result.providerError = listed.error.code;
      options.logger?.warn({ account: account.code, code: listed.error.code }, 'could not list payouts at the provider');
      break;
    }
    for (const item of listed.value.items) {
      // Our id is the provider's merchant reference; the provider reference is the fallback.
      const ours = (item.merchantReference && byId.get(item.merchantReference)) || byReference.get(item.reference);
      if (ours) reports.set(ours.id, item);
    }
    before = listed.value.nextBefore;
    if (!before) break;
  }

  for (const payout of pending) {
    const report = reports.get(payout.id);
    if (!report) {
      result.notFound.push(payout.id);
      continue;
    }
    const applied = await em.transactional((tx) =>
      applyPayoutChange(
        tx,
        {
          payoutId: payout.id,
          change: { status: report.status, providerStatus: report.providerStatus, providerReference: report.reference, ...(report.amount ? { amount: report.amount } : {}) },
          source: `reconciler:${account.provider}/${account.code}`,
        },
        deps.events,
      ),
    );
    if (applied.outcome === 'applied') result.applied += 1;
    if (applied.outcome === 'anomaly') {
      result.anomalies += 1;
      options.logger?.warn({ payoutId: payout.id, reason: applied.reason }, 'payout report from the provider refused as an anomaly');
    }
  }
  return result;
}
