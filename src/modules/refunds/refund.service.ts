// Refunds: checking a request against the deposit and what is already refunded, creating it exactly
// once per idempotency key, submitting it to the provider, and reading refunds back per client.
// Status changes after creation go through refund-transitions.ts.

import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { requestFingerprint } from '../../lib/fingerprint.js';
import { newId } from '../../lib/ids.js';
import { awaitSubmission } from '../in-flight-submission.js';
import type { Logger } from '../../lib/logger.js';
import { Money } from '../../lib/money.js';
import type { FieldError, MerchantAccount, MoneyMovementProvider, ProviderError, ProviderName, ProviderRefund } from '../../providers/provider.js';
import type { ApiClient } from '../clients/api-client.entity.js';
import { Deposit } from '../deposits/deposit.entity.js';
import type { EventService } from '../events/event.service.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import { Refund } from './refund.entity.js';
import { applyRefundChange, attachProviderReference, lockRefund } from './refund-transitions.js';
import type { ResumeResult } from '../resume.js';

/** A refund request in gateway terms, as the API layer hands it over (amount not yet parsed). */
export interface RequestRefundInput {
  depositId: string;
  /** Major units in the deposit's currency; omitted: everything still refundable. */
  amount?: string;
  reason?: string;
  idempotencyKey?: string;
}

export type RequestRefundResult = { refund: Refund | null; errors: FieldError[] };

const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const REASON_MAX = 500;

type Admission = { kind: 'created'; refundId: string } | { kind: 'existing'; refundId: string } | { kind: 'refused'; error: FieldError };

export class RefundService {
  constructor(
    private readonly deps: {
      accounts: MerchantAccountService;
      /** Providers that take refunds; a deposit at any other provider cannot be refunded here. */
      providers: Partial<Record<ProviderName, MoneyMovementProvider>>;
      events: EventService;
      logger: Logger;
    },
  ) {}

  /**
   * Opens a refund of a SUCCEEDED deposit and submits it to the provider. The open and executed
   * refunds of a deposit never add up to more than its amount, also when requests race. With an
   * idempotency key, the same key and input return the first refund without a second provider
   * call; the same key with other input is IDEMPOTENCY_KEY_REUSED.
   */
  async request(em: SqlEntityManager, client: ApiClient, input: RequestRefundInput): Promise<RequestRefundResult> {
    const errors = validateShape(input);
    if (errors.length) return { refund: null, errors };
    const key = input.idempotencyKey;
    const fingerprint = key ? requestFingerprint({ depositId: input.depositId, amount: input.amount, reason: input.reason }) : null;
    if (key) {
      const existing = await em.findOne(Refund, { clientId: client.id, idempotencyKey: key });
      if (existing) return this.replay(em, existing, fingerprint!);
    }

    const deposit = await em.findOne(Deposit, { id: input.depositId });
    if (!deposit || !mayRefund(client)) return refused(['depositId'], 'NOT_FOUND', `No deposit with id ${input.depositId}`);
    const target = this.target(deposit);
    if (!target) return refused(['depositId'], 'REFUND_NOT_SUPPORTED', 'Deposits at this provider cannot be refunded through the gateway');
    let requested: Money | undefined;
    if (input.amount !== undefined) {
      const parsed = Money.parse(input.amount, deposit.currency);
      if (!parsed.ok) return refused(['amount'], parsed.error.code, parsed.error.message);
      requested = parsed.money;
    }

    let admission: Admission;
    try {
      admission = await em.transactional((tx) => this.admit(tx, client, deposit.id, { requested, reason: input.reason, key, fingerprint }));
    } catch (error) {
      // Two first requests with one key for different deposits: the unique index lets one in.
      if (error instanceof UniqueConstraintViolationException && key) {
        em.clear();
        const winner = await em.findOneOrFail(Refund, { clientId: client.id, idempotencyKey: key });
        return this.replay(em, winner, fingerprint!);
      }
      throw error;
    }
    if (admission.kind === 'refused') return { refund: null, errors: [admission.error] };
    if (admission.kind === 'existing') return this.replay(em, await em.findOneOrFail(Refund, { id: admission.refundId }), fingerprint!);
    const refund = await em.findOneOrFail(Refund, { id: admission.refundId }, { refresh: true });
    return this.submit(em, refund, deposit, target);
  }

  /** A refund the client may see (refunds back offices and admins: any; a cashier: those of its own deposits), or null. */
  async findVisible(em: SqlEntityManager, client: ApiClient, id: string): Promise<Refund | null> {
    const refund = await em.findOne(Refund, { id });
    if (!refund) return null;
    if (mayRefund(client)) return refund;
    const owner = await em.findOne(Deposit, { id: refund.depositId });
    return owner?.clientId === client.id ? refund : null;
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
  private async admit(
    tx: SqlEntityManager,
    client: ApiClient,
    depositId: string,
    request: { requested: Money | undefined; reason: string | undefined; key: string | undefined; fingerprint: string | null },
  ): Promise<Admission> {
    const deposit = await tx.findOneOrFail(Deposit, { id: depositId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (request.key) {
      // A concurrent duplicate that held the lock first has committed its refund by now.
      const raced = await tx.findOne(Refund, { clientId: client.id, idempotencyKey: request.key });
      if (raced) return { kind: 'existing', refundId: raced.id };
    }
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
      clientId: client.id,
      amount: amount.toDecimal(),
      currency: amount.currency,
      reason: request.reason ?? null,
      status: 'REQUESTED',
      providerReference: null,
      providerStatus: null,
      idempotencyKey: request.key ?? null,
      idempotencyFingerprint: request.fingerprint,
      submissionError: null,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    // Committed before the provider call: a crash, a timeout or a webhook that overtakes the
    // answer all find the row, and its id is the provider's idempotency key.
    await tx.flush();
    return { kind: 'created', refundId: refund.id };
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

  /** The answer to a repeated idempotency key. */
  private async replay(em: SqlEntityManager, existing: Refund, fingerprint: string): Promise<RequestRefundResult> {
    if (existing.idempotencyFingerprint !== fingerprint) {
      return refused(['idempotencyKey'], 'IDEMPOTENCY_KEY_REUSED', 'This idempotency key was already used with different input');
    }
    const settled = await awaitSubmission(em, existing, 'REQUESTED');
    if (settled.status === 'REJECTED' && !settled.providerReference && settled.submissionError) {
      return { refund: settled, errors: [{ field: [], code: settled.submissionError, message: 'The provider refused this refund' }] };
    }
    if (settled.providerReference || settled.status !== 'REQUESTED') return { refund: settled, errors: [] };
    // The first attempt's outcome is unknown: resubmitting is safe, the provider sees the same
    // refund id as its idempotency key and returns the original refund.
    const deposit = await em.findOneOrFail(Deposit, { id: settled.depositId });
    const target = this.target(deposit);
    if (!target) return refused(['depositId'], 'REFUND_NOT_SUPPORTED', 'Deposits at this provider cannot be refunded through the gateway');
    return this.submit(em, settled, deposit, target);
  }

  private async submit(
    em: SqlEntityManager,
    refund: Refund,
    deposit: Deposit,
    target: { account: MerchantAccount; provider: MoneyMovementProvider },
  ): Promise<RequestRefundResult> {
    const result = await target.provider.requestRefund(target.account, {
      refundId: refund.id,
      // The payment's reference: for hosted checkout, not the session id the deposit was created with.
      depositReference: deposit.providerPaymentReference()!,
      // Always explicit: the provider's default (everything left) could differ from ours.
      amount: refund.amountMoney(),
      ...(refund.reason ? { reason: refund.reason } : {}),
    });
    if (result.ok) {
      await this.recordSubmitted(em, refund.id, result.value);
      return { refund: await em.refreshOrFail(refund), errors: [] };
    }
    return this.recordFailure(em, refund, result.error);
  }

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

  private async recordFailure(em: SqlEntityManager, refund: Refund, error: ProviderError): Promise<RequestRefundResult> {
    const userError = refundError(error);
    if (error.outcomeUnknown) {
      // Unknown at the provider: the refund stays REQUESTED and keeps its share of the deposit. A
      // retry with the same idempotency key settles it, and so does the provider's webhook.
      refund.submissionError = error.code;
      await em.flush();
      this.deps.logger.warn({ refundId: refund.id, code: error.code }, 'refund submission outcome unknown; kept recoverable');
      return { refund, errors: [userError] };
    }
    // A definite refusal: no refund exists at the provider, and its share is released.
    await em.transactional(async (tx) => {
      await tx.nativeUpdate(Refund, { id: refund.id }, { submissionError: userError.code });
      await applyRefundChange(
        tx,
        { refundId: refund.id, change: { status: 'REJECTED', providerStatus: `refused:${error.httpStatus ?? 'error'}` }, source: 'submission' },
        this.deps.events,
      );
    });
    return { refund: await em.refreshOrFail(refund), errors: [userError] };
  }

  // ---------------------------------------------------------------------------------------------
  // Recovery: the reconciler's way back into the request path. Kept in this one block, apart from
  // the request/submit code it reuses unchanged.

  /**
   * Resubmits a refund still REQUESTED without a provider reference (its provider call timed out or
   * failed with an unknown outcome, or the process stopped before making it) under its own id, which
   * the provider takes as its idempotency key, and records the answer as a request does: a refusal
   * releases its share of the deposit, an answer stores the provider's refund id.
   */
  async resume(em: SqlEntityManager, id: string): Promise<ResumeResult> {
    const refund = await em.findOne(Refund, { id }, { refresh: true });
    if (!refund) return { outcome: 'not_found', reason: `REFUND_NOT_FOUND: no refund ${id}` };
    if (refund.providerReference || refund.status !== 'REQUESTED' || refund.origin === 'PROVIDER') return { outcome: 'not_needed' };
    const deposit = await em.findOneOrFail(Deposit, { id: refund.depositId });
    const target = this.target(deposit);
    if (!target) return { outcome: 'unknown', reason: `REFUND_NOT_SUPPORTED: deposits at ${deposit.provider}/${deposit.merchantAccount} cannot be refunded through the gateway` };
    if (!deposit.providerPaymentReference()) return { outcome: 'unknown', reason: 'PAYMENT_REFERENCE_UNKNOWN: the deposit\'s payment reference is not recorded yet' };
    const result = await this.submit(em, refund, deposit, target);
    const error = result.errors[0];
    const reason = error ? { reason: `${error.code}: ${error.message}` } : {};
    if (result.refund?.providerReference) return { outcome: 'submitted' };
    if (result.refund?.status === 'REJECTED') return { outcome: 'refused', ...reason };
    return { outcome: 'unknown', ...reason };
  }
}

/** Refunds back offices and admins refund any deposit; nobody else refunds. */
function mayRefund(client: ApiClient): boolean {
  return client.isAdmin() || client.hasRole('REFUNDS');
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

function refusal(field: string[], code: string, message: string): Admission {
  return { kind: 'refused', error: { field, code, message } };
}

function refused(field: string[], code: string, message: string): RequestRefundResult {
  return { refund: null, errors: [{ field, code, message }] };
}

