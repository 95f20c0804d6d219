// How a refund goes through the money-operation lifecycle: admitted under its deposit's row lock
// (never more than is left to refund, also when requests race), submitted under our id, and the
// provider's answer stored. Steps, idempotency keys and failures are the lifecycle's
// (src/kernel/operation.ts), not this file's.

import { LockMode } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import { Money } from '../../lib/money.js';
import { userErrorCodeOf, type UserErrorCode } from '../../lib/user-error-codes.js';
import { accountNotConfigured, markEntityUnknown, type MoneyOperation } from '../../kernel/operation.js';
import type { ProviderAdapters, RefundPort } from '../../providers/ports.js';
import type { FieldError, MerchantAccount, ProviderError, ProviderRefund } from '../../providers/provider.js';
import type { ApiClient } from '../clients/api-client.entity.js';
import { Deposit } from '../deposits/deposit.entity.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import { Refund } from './refund.entity.js';
import { toRefundSnapshot, type RefundSnapshot } from './refund-snapshot.js';
import { attachProviderReference, lockRefund, refundTransitions } from './refund-transitions.js';
import type { TransitionPath } from '../../kernel/transitions.js';

export interface RefundOperationDeps {
  accounts: MerchantAccountService;
  /** The providers' ports: a deposit whose provider offers no refunds cannot be refunded here. */
  providers: ProviderAdapters;
  transitions: TransitionPath;
  logger: Logger;
}

/**
 * What refunds plug into the money-operation lifecycle (src/kernel/operation.ts): admitted under
 * the deposit's lock, submitted under our id, the provider's answer stored.
 */
export function refundOperation(deps: RefundOperationDeps): MoneyOperation<PreparedRefund, Refund, ProviderRefund, RefundSnapshot> {
  return {
    name: 'refund',
    record: (tx, request) => admit(tx, request),
    load: (em, id) => em.findOne(Refund, { id }, { refresh: true }),
    // A refund made on the provider's dashboard (PROVIDER origin) was never ours to submit.
    awaitingProvider: (refund) => refund.origin === 'GATEWAY' && refund.status === 'REQUESTED' && !refund.providerReference,
    call: async (em, refund) => {
      const deposit = await em.findOneOrFail(Deposit, { id: refund.depositId });
      // Checked when the refund was requested: gone only if the configuration changed since, and
      // then the refund waits, recoverable, for an account that can take it.
      const target = refundTarget(deps, deposit);
      if (!target.ok) return { ok: false, error: accountNotConfigured(deposit.merchantAccount) };
      return target.port.requestRefund(target.account, {
        refundId: refund.id,
        // The payment's reference: for hosted checkout, not the session id the deposit was created with.
        depositReference: deposit.providerPaymentReference()!,
        // Always explicit: the provider's default (everything left) could differ from ours.
        amount: refund.amountMoney(),
        ...(refund.reason ? { reason: refund.reason } : {}),
      });
    },
    accepted: async (em, refund, created) => {
      await recordSubmitted(em, refund.id, created, deps);
      return em.refreshOrFail(refund);
    },
    markUnknown: markEntityUnknown,
    refused: async (tx, refund, error) => {
      // A definite refusal: no refund exists at the provider, and its share is released.
      await tx.nativeUpdate(Refund, { id: refund.id }, { submissionError: refundError(error).code });
      await deps.transitions.apply(tx, refundTransitions, { id: refund.id, change: { status: 'REJECTED', providerStatus: `refused:${error.httpStatus ?? 'error'}` }, source: 'submission' });
    },
    errorsOf: (error) => [refundError(error)],
    errorsOfRow: (refund) =>
      refund.status === 'REJECTED' && !refund.providerReference && refund.submissionError ? [{ field: [], code: userErrorCodeOf(refund.submissionError, 'PROVIDER_REJECTED'), message: 'The provider refused this refund' }] : [],
    snapshot: toRefundSnapshot,
  };
}

/** The account and refund port a deposit's refunds go to: its own account's provider, or why there is none. */
export function refundTarget(
  deps: Pick<RefundOperationDeps, 'accounts' | 'providers'>,
  deposit: Deposit,
): { ok: true; account: MerchantAccount; port: RefundPort } | { ok: false; code: UserErrorCode; message: string } {
  const account = deps.accounts.get(deposit.merchantAccount);
  if (!account) return { ok: false, code: 'ACCOUNT_NOT_CONFIGURED', message: `Merchant account ${deposit.merchantAccount} is not configured on this gateway` };
  const found = deps.providers.adapterFor(account, 'refunds');
  return found.ok ? { ok: true, account, port: found.port } : { ok: false, ...found.error };
}

/**
 * Checks the request under the deposit's row lock and inserts the refund in the same
 * transaction: a racing request waits for the lock, then sees this refund in the sum.
 */
async function admit(tx: SqlEntityManager, request: PreparedRefund): Promise<{ ok: true; row: Refund } | { ok: false; errors: FieldError[] }> {
  const deposit = await tx.findOneOrFail(Deposit, { id: request.depositId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (deposit.status !== 'SUCCEEDED') {
    return refusal(['depositId'], 'DEPOSIT_NOT_REFUNDABLE', `Only a SUCCEEDED deposit can be refunded; this one is ${deposit.status}`);
  }
  if (!deposit.providerPaymentReference()) {
    // A hosted checkout deposit is known by its session id until its payment reference is recorded.
    return refusal(['depositId'], 'DEPOSIT_NOT_REFUNDABLE', 'The provider\'s payment reference of this deposit is not known yet; try again shortly');
  }
  if (deposit.disputed) {
    // The chargeback already returns the money to the payer; a refund on top would pay twice.
    return refusal(['depositId'], 'DEPOSIT_DISPUTED', 'A chargeback is open on this deposit; it cannot be refunded');
  }
  const remaining = deposit.amountMoney().subtract(await committed(tx, deposit));
  const amount = request.requested ?? remaining;
  if (!remaining.isPositive()) {
    return refusal(['depositId'], 'REFUND_EXCEEDS_REFUNDABLE', 'Nothing is left to refund: open and executed refunds cover the whole deposit');
  }
  if (amount.compare(remaining) > 0) {
    return refusal(['amount'], 'REFUND_EXCEEDS_REFUNDABLE', `${amount.toString()} is more than the ${remaining.toString()} still refundable on this deposit`);
  }
  const refund = tx.create(Refund, {
    id: newId('rfd'),
    depositId: deposit.id,
    clientId: request.client.id,
    amount: amount.toDecimal(),
    currency: amount.currency,
    reason: request.reason ?? null,
    status: 'REQUESTED',
    providerReference: null,
    providerStatus: null,
    submissionError: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  // Committed before the provider call: a crash, a timeout or a webhook that overtakes the
  // answer all find the row, and its id is the provider's idempotency key.
  await tx.flush();
  return { ok: true, row: refund };
}

/** Open (REQUESTED) plus executed (APPROVED) refunds of the deposit. */
async function committed(tx: SqlEntityManager, deposit: Deposit): Promise<Money> {
  const rows = await tx.execute<Array<{ total: string | number }>>(
    `select coalesce(sum(amount), 0)::text as total from refund where deposit_id = ? and status in ('REQUESTED', 'APPROVED')`,
    [deposit.id],
  );
  return Money.fromDecimal(String(rows[0]?.total ?? '0'), deposit.currency);
}

/** Stores the provider's id for the refund. The decision is left to webhooks, which may have overtaken this answer. */
async function recordSubmitted(em: SqlEntityManager, id: string, created: ProviderRefund, deps: RefundOperationDeps): Promise<void> {
  await em.transactional(async (tx) => {
    const locked = await lockRefund(tx, id);
    if (!locked) return;
    const { refund } = locked;
    if (refund.providerReference) {
      if (refund.providerReference !== created.reference) {
        deps.logger.warn({ refundId: id, stored: refund.providerReference, answered: created.reference }, 'provider answered a different refund reference than a webhook recorded; kept the first');
      }
      return;
    }
    await attachProviderReference(tx, locked, { reference: created.reference, providerStatus: created.providerStatus }, deps.transitions);
  });
}

/** A validated refund request, ready to admit under the deposit's lock. */
export interface PreparedRefund {
  client: ApiClient;
  depositId: string;
  requested: Money | undefined;
  reason: string | undefined;
}

/** The provider's refusal in refund terms: "exceeds" there means more than the payment has left. */
function refundError(error: ProviderError): FieldError {
  if (error.code === 'AMOUNT_ABOVE_MAXIMUM') {
    return { field: ['amount'], code: 'REFUND_EXCEEDS_REFUNDABLE', message: 'The provider says the amount is more than is left to refund on this payment' };
  }
  return { field: [], code: error.code, message: error.message };
}

function refusal(field: string[], code: UserErrorCode, message: string): { ok: false; errors: FieldError[] } {
  return { ok: false, errors: [{ field, code, message }] };
}
