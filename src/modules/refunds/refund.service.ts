// Refunds: checking a request's shape and its deposit, running it through the money-operation
// lifecycle (refund-operation.ts, where what is left to refund is checked under the deposit's lock),
// and reading refunds back per client. Status changes after creation go through refund-transitions.ts.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { isoDateRows, placeholders } from '../../db/plain-rows.js';
import { requestFingerprint } from '../../lib/fingerprint.js';
import type { Logger } from '../../lib/logger.js';
import { Money } from '../../lib/money.js';
import type { UserErrorCode } from '../../lib/user-error-codes.js';
import type { ProviderAdapters } from '../../providers/ports.js';
import type { FieldError, ProviderRefund } from '../../providers/provider.js';
import { maySee } from '../../kernel/visibility.js';
import type { ApiClient } from '../clients/api-client.entity.js';
import { Deposit } from '../deposits/deposit.entity.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import { Refund } from './refund.entity.js';
import { DEPOSIT_SNAPSHOT_PROPERTIES, toDepositSnapshot, type DepositSnapshot } from '../deposits/deposit-snapshot.js';
import { REFUND_SNAPSHOT_PROPERTIES, toRefundSnapshot, type RefundFacts, type RefundFactsRead, type RefundSnapshot, type RefundSnapshotProperty } from './refund-snapshot.js';
import type { MoneyOperation, OperationRunner, ResumeResult } from '../../kernel/operation.js';
import { refundOperation, refundTarget, type PreparedRefund } from './refund-operation.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { idempotencyKeyErrors } from '../../kernel/idempotency.js';

/** A refund request in gateway terms, as the API layer hands it over (amount not yet parsed). */
export interface RequestRefundInput {
  depositId: string;
  /** Major units in the deposit's currency; omitted: everything still refundable. */
  amount?: string;
  reason?: string;
  idempotencyKey?: string;
}

export type RequestRefundResult = { refund: RefundSnapshot | null; errors: FieldError[] };

const REASON_MAX = 500;

export class RefundService {
  /** What refunds plug into the money-operation lifecycle. */
  private readonly operation: MoneyOperation<PreparedRefund, Refund, ProviderRefund, RefundSnapshot>;

  constructor(
    private readonly deps: {
      accounts: MerchantAccountService;
      /** The providers' ports: a deposit whose provider offers no refunds cannot be refunded here. */
      providers: ProviderAdapters;
      transitions: TransitionPath;
      operations: OperationRunner;
      logger: Logger;
    },
  ) {
    this.operation = refundOperation(deps);
  }

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
    const target = refundTarget(this.deps, deposit);
    if (!target.ok) return refused(['depositId'], target.code, target.message);
    let requested: Money | undefined;
    if (input.amount !== undefined) {
      const parsed = Money.parse(input.amount, deposit.currency);
      if (!parsed.ok) return refused(['amount'], parsed.error.code, parsed.error.message);
      requested = parsed.money;
      const amountErrors = target.port.validateRefund?.(target.account, { amount: requested }) ?? [];
      if (amountErrors.length) return { refund: null, errors: amountErrors };
    }
    const fingerprint = requestFingerprint({ depositId: input.depositId, amount: input.amount, reason: input.reason });
    const result = await this.deps.operations.execute(
      em,
      this.operation,
      { clientId: client.id, idempotencyKey: input.idempotencyKey, fingerprint },
      { client, depositId: deposit.id, requested, reason: input.reason },
    );
    return { refund: result.subject, errors: result.errors };
  }

  /** Submits a refund still waiting for its provider's answer under its own id (the provider's idempotency key). */
  resume(em: SqlEntityManager, id: string): Promise<ResumeResult> {
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

  /**
   * The refunds of each deposit, oldest first, as snapshots, in one query (for a per-request
   * DataLoader): plain rows of the snapshot's columns, dates kept as text, no entity made or tracked.
   */
  async forDeposits(em: SqlEntityManager, depositIds: readonly string[]): Promise<Map<string, RefundSnapshot[]>> {
    const rows = await this.refundRows<RefundFacts>(em, depositIds, REFUND_SNAPSHOT_PROPERTIES);
    return new Map([...rows].map(([depositId, refunds]) => [depositId, refunds.map(toRefundSnapshot)]));
  }

  /**
   * `forDeposits` reading only `properties` of each refund (with its id and its deposit's id,
   * always): plain rows, dates as ISO text, for a list that makes its objects from what its query
   * asks. `properties` is one of a few lists kept by the caller: each list is a statement of its own.
   */
  async rowsForDeposits(em: SqlEntityManager, depositIds: readonly string[], properties: readonly RefundSnapshotProperty[]): Promise<Map<string, RefundFactsRead[]>> {
    if (!properties.includes('id') || !properties.includes('depositId')) throw new Error('a read of refunds lists their id and deposit id');
    return this.refundRows<RefundFactsRead>(em, depositIds, properties);
  }

  /** The refunds of each deposit, oldest first, as plain rows of `properties`, in one query. */
  private async refundRows<R extends RefundFactsRead>(em: SqlEntityManager, depositIds: readonly string[], properties: readonly RefundSnapshotProperty[]): Promise<Map<string, R[]>> {
    const grouped = new Map<string, R[]>(depositIds.map((id) => [id, []]));
    if (depositIds.length === 0) return grouped;
    const ids = [...new Set(depositIds)];
    const rows = await isoDateRows<R>(em, Refund, properties, `from refund where deposit_id in (${placeholders(ids.length)}) order by created_at asc, id asc`, ids);
    for (const row of rows) grouped.get(row.depositId)?.push(row);
    return grouped;
  }

  /** Deposits by id as snapshots, in one query (for a per-request DataLoader behind `Refund.deposit`). */
  async depositsOf(em: SqlEntityManager, ids: readonly string[]): Promise<Map<string, DepositSnapshot>> {
    if (ids.length === 0) return new Map();
    const unique = [...new Set(ids)];
    const rows = await isoDateRows<Parameters<typeof toDepositSnapshot>[0]>(em, Deposit, DEPOSIT_SNAPSHOT_PROPERTIES, `from deposit where id in (${placeholders(unique.length)})`, unique);
    return new Map(rows.map((row) => [row.id, toDepositSnapshot(row)]));
  }
}


/** Admins refund any deposit, a refunds back office those of the merchant accounts it may use; nobody else refunds. */
function mayRefund(client: ApiClient, deposit: Deposit): boolean {
  return maySee(client, 'refund', deposit, { through: ['REFUNDS'] });
}

function validateShape(input: RequestRefundInput): FieldError[] {
  const errors: FieldError[] = [];
  errors.push(...idempotencyKeyErrors(input.idempotencyKey));
  if (input.reason !== undefined && (input.reason.length === 0 || input.reason.length > REASON_MAX)) {
    errors.push({ field: ['reason'], code: 'INVALID_FORMAT', message: `reason must be 1 to ${REASON_MAX} characters` });
  }
  return errors;
}



function refused(field: string[], code: UserErrorCode, message: string): RequestRefundResult {
  return { refund: null, errors: [{ field, code, message }] };
}

