// Refunds: checking a request against the deposit and what is already refunded, creating it exactly
// once per idempotency key, submitting it to the provider, and reading refunds back per client.
// Status changes after creation go through refund-transitions.ts.

import { LockMode } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { requestFingerprint } from '../../lib/fingerprint.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import { Money } from '../../lib/money.js';
import type { FieldError, MerchantAccount, MoneyMovementProvider, ProviderError, ProviderName, ProviderRefund } from '../../providers/provider.js';
import { maySee } from '../../kernel/visibility.js';
import type { ApiClient } from '../clients/api-client.entity.js';
import { Deposit } from '../deposits/deposit.entity.js';
import type { EventService } from '../events/event.service.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import { Refund } from './refund.entity.js';
import { applyRefundChange, attachProviderReference, lockRefund } from './refund-transitions.js';
import { toRefundSnapshot } from './refund-snapshot.js';
import type { RefundSnapshot } from '../events/payment-event.types.js';
import { accountNotConfigured, type MoneyOperation, type OperationRunner, type ResumeResult } from '../../kernel/operation.js';

/** A refund request in gateway terms, as the API layer hands it over (amount not yet parsed). */
export interface RequestRefundInput {
  depositId: string;
  /** Major units in the deposit's currency; omitted: everything still refundable. */
  amount?: string;
  reason?: string;
  idempotencyKey?: string;
}

export type RequestRefundResult = { refund: RefundSnapshot | null; errors: FieldError[] };

const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const REASON_MAX = 500;

export class RefundService {
  constructor(
    private readonly deps: {
      accounts: MerchantAccountService;
      /** Providers that take refunds; a deposit at any other provider cannot be refunded here. */
      providers: Partial<Record<ProviderName, MoneyMovementProvider>>;
      events: EventService;
      operations: OperationRunner;
      logger: Logger;
    },
  ) {}

  /**
   * Opens a refund of a SUCCEEDED deposit and submits it to the provider, through the
   * money-operation lifecycle (src/kernel/operation.ts). The open and executed refunds of a
   * deposit never add up to more than its amount, also when requests race. With an idempotency
   * key, the same key and input return the first answer without a second provider call; the same
   * key with other input is IDEMPOTENCY_KEY_REUSED.
   */
  async request(em: SqlEntityManager, client: ApiClient, input: RequestRefundInput): Promise<RequestRefundResult> {
    const errors = validateShape(input);
    if (errors.length) return { refund: null, errors };
    const deposit = await em.findOne(Deposit, { id: input.depositId });
    if (!deposit || !mayRefund(client, deposit)) return refused(['depositId'], 'NOT_FOUND', `No deposit with id ${input.depositId}`);
    if (!this.target(deposit)) return refused(['depositId'], 'REFUND_NOT_SUPPORTED', 'Deposits at this provider cannot be refunded through the gateway');
    let requested: Money | undefined;
    if (input.amount !== undefined) {
      const parsed = Money.parse(input.amount, deposit.currency);
      if (!parsed.ok) return refused(['amount'], parsed.error.code, parsed.error.message);
      requested = parsed.money;
    }
    const fingerprint = requestFingerprint({ depositId: input.depositId, amount: input.amount, reason: input.reason });
    const result = await this.deps.operations.execute(
      em,
      this.operation,
      { clientId: client.id, idempotencyKey: input.idempotencyKey, fingerprint },
      { client, depositId: deposit.id, requested, reason: input.reason, key: input.idempotencyKey, fingerprint },
    );
    return { refund: result.subject, errors: result.errors };
  }

  /** Submits a refund still waiting for its provider's answer under its own id (the provider's idempotency key). */
  async resume(em: SqlEntityManager, id: string): Promise<ResumeResult> {
    const refund = await em.findOne(Refund, { id }, { refresh: true });
    // A refund made on the provider's dashboard was never ours to submit.
    if (refund?.origin === 'PROVIDER') return { outcome: 'not_needed' };
    return this.deps.operations.resume(em, this.operation, id);
  }

  /**
   * A refund the client may see, or null. A refund is seen with its deposit's owner and account
   * (the visibility policy, src/kernel/visibility.ts), whoever requested it.
   */
  async findVisible(em: SqlEntityManager, client: ApiClient, id: string): Promise<Refund | null> {
    const refund = await em.findOne(Refund, { id });
    if (!refund) return null;
    const deposit = await em.findOne(Deposit, { id: refund.depositId });
    return deposit && maySee(client, 'refund', deposit) ? refund : null;
  }

  /** The refunds of each deposit, oldest first, in one query (for a per-request DataLoader). */
  async forDeposits(em: SqlEntityManager, depositIds: readonly string[]): Promise<Map<string, Refund[]>> {
    const grouped = new Map<string, Refund[]>(depositIds.map((id) => [id, []]));
    if (depositIds.length === 0) return grouped;
    const refunds = await em.find(Refund, { depositId: { $in: [...new Set(depositIds)] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    for (const refund of refunds) grouped.get(refund.depositId)?.push(refund);
    return grouped;
  }

  /** Deposits by id, in one query (for a per-request DataLoader behind `Refund.deposit`). */
  async depositsOf(em: SqlEntityManager, ids: readonly string[]): Promise<Map<string, Deposit>> {
    if (ids.length === 0) return new Map();
    const deposits = await em.find(Deposit, { id: { $in: [...new Set(ids)] } });
    return new Map(deposits.map((deposit) => [deposit.id, deposit]));
  }

  /**
   * Checks the request under the deposit's row lock and inserts the refund in the same
   * transaction: a racing request waits for the lock, then sees this refund in the sum.
   */
  private async admit(tx: SqlEntityManager, request: PreparedRefund): Promise<{ ok: true; row: Refund } | { ok: false; errors: FieldError[] }> {
    const deposit = await tx.findOneOrFail(Deposit, { id: request.depositId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (deposit.status !== 'SUCCEEDED') {
      return refusal(['depositId'], 'DEPOSIT_NOT_REFUNDABLE', `Only a SUCCEEDED deposit can be refunded; this one is ${deposit.status}`);
    }
    if (!deposit.providerPaymentReference()) {
      // A hosted checkout deposit is known by its session id until its payment reference is recorded.
      return refusal(['depositId'], 'DEPOSIT_NOT_REFUNDABLE', 'The provider\'s payment reference of this deposit is not known yet; try again shortly');
    }
    if (!deposit.providerPaymentReference()) {
      // A hosted checkout deposit is known by its session id until its payment reference is recorded.
      return refusal(['depositId'], 'DEPOSIT_NOT_REFUNDABLE', 'The provider\'s payment reference of this deposit is not known yet; try again shortly');
    }
    if (deposit.disputed) {
      // The chargeback already returns the money to the payer; a refund on top would pay twice.
      return refusal(['depositId'], 'DEPOSIT_DISPUTED', 'A chargeback is open on this deposit; it cannot be refunded');
    }
    const remaining = deposit.amountMoney().subtract(await this.committed(tx, deposit));
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
      idempotencyKey: request.key ?? null,
      idempotencyFingerprint: request.key ? request.fingerprint : null,
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
  private async committed(tx: SqlEntityManager, deposit: Deposit): Promise<Money> {
    const rows = await tx.execute<Array<{ total: string | number }>>(
      `select coalesce(sum(amount), 0)::text as total from refund where deposit_id = ? and status in ('REQUESTED', 'APPROVED')`,
      [deposit.id],
    );
    return Money.fromDecimal(String(rows[0]?.total ?? '0'), deposit.currency);
  }

  private target(deposit: Deposit): { account: MerchantAccount; provider: MoneyMovementProvider } | undefined {
    const provider = this.deps.providers[deposit.provider];
    const account = this.deps.accounts.get(deposit.merchantAccount);
    return provider && account ? { account, provider } : undefined;
  }

  /** What refunds plug into the money-operation lifecycle. */
  private readonly operation: MoneyOperation<PreparedRefund, Refund, ProviderRefund, RefundSnapshot> = {
    name: 'refund',
    record: (tx, request) => this.admit(tx, request),
    load: (em, id) => em.findOne(Refund, { id }),
    awaitingProvider: (refund) => refund.status === 'REQUESTED' && !refund.providerReference,
    call: async (em, refund) => {
      const deposit = await em.findOneOrFail(Deposit, { id: refund.depositId });
      const target = this.target(deposit);
      if (!target) return { ok: false, error: accountNotConfigured(deposit.merchantAccount) };
      return target.provider.requestRefund(target.account, {
        refundId: refund.id,
        // The payment's reference: for hosted checkout, not the session id the deposit was created with.
        depositReference: deposit.providerPaymentReference()!,
        // Always explicit: the provider's default (everything left) could differ from ours.
        amount: refund.amountMoney(),
        ...(refund.reason ? { reason: refund.reason } : {}),
      });
    },
    accepted: async (em, refund, created) => {
      await this.recordSubmitted(em, refund.id, created);
      return em.refreshOrFail(refund);
    },
    refused: async (tx, refund, error) => {
      // A definite refusal: no refund exists at the provider, and its share is released.
      await tx.nativeUpdate(Refund, { id: refund.id }, { submissionError: refundError(error).code });
      await applyRefundChange(tx, { refundId: refund.id, change: { status: 'REJECTED', providerStatus: `refused:${error.httpStatus ?? 'error'}` }, source: 'submission' }, this.deps.events);
    },
    errorsOf: (error) => [refundError(error)],
    errorsOfRow: (refund) =>
      refund.status === 'REJECTED' && !refund.providerReference && refund.submissionError ? [{ field: [], code: refund.submissionError, message: 'The provider refused this refund' }] : [],
    snapshot: toRefundSnapshot,
  };

  /** Stores the provider's id for the refund. The decision is left to webhooks, which may have overtaken this answer. */
  private async recordSubmitted(em: SqlEntityManager, id: string, created: ProviderRefund): Promise<void> {
    await em.transactional(async (tx) => {
      const locked = await lockRefund(tx, id);
      if (!locked) return;
      const { refund } = locked;
      if (refund.providerReference) {
        if (refund.providerReference !== created.reference) {
          this.deps.logger.warn({ refundId: id, stored: refund.providerReference, answered: created.reference }, 'provider answered a different refund reference than a webhook recorded; kept the first');
        }
        return;
      }
      await attachProviderReference(tx, locked, { reference: created.reference, providerStatus: created.providerStatus }, this.deps.events);
    });
  }
}

/** A validated refund request, ready to admit under the deposit's lock. */
interface PreparedRefund {
  client: ApiClient;
  depositId: string;
  requested: Money | undefined;
  reason: string | undefined;
  key: string | undefined;
  fingerprint: string;
}

/** Admins refund any deposit, a refunds back office those of the merchant accounts it may use; nobody else refunds. */
function mayRefund(client: ApiClient, deposit: Deposit): boolean {
  return maySee(client, 'refund', deposit, { through: ['REFUNDS'] });
}

function validateShape(input: RequestRefundInput): FieldError[] {
  const errors: FieldError[] = [];
  if (input.idempotencyKey !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(input.idempotencyKey)) {
    errors.push({ field: ['idempotencyKey'], code: 'INVALID_FORMAT', message: 'idempotencyKey must be 1 to 255 printable ASCII characters without spaces' });
  }
  if (input.reason !== undefined && (input.reason.length === 0 || input.reason.length > REASON_MAX)) {
    errors.push({ field: ['reason'], code: 'INVALID_FORMAT', message: `reason must be 1 to ${REASON_MAX} characters` });
  }
  return errors;
}

/** The provider's refusal in refund terms: "exceeds" there means more than the payment has left. */
function refundError(error: ProviderError): FieldError {
  if (error.code === 'AMOUNT_ABOVE_MAXIMUM') {
    return { field: ['amount'], code: 'REFUND_EXCEEDS_REFUNDABLE', message: 'The provider says the amount is more than is left to refund on this payment' };
  }
  return { field: [], code: error.code, message: error.message };
}

function refusal(field: string[], code: string, message: string): { ok: false; errors: FieldError[] } {
  return { ok: false, errors: [{ field, code, message }] };
}

function refused(field: string[], code: string, message: string): RequestRefundResult {
  return { refund: null, errors: [{ field, code, message }] };
}

