// Payouts: validating a request against the gateway's and the provider's rules, running it through
// the money-operation lifecycle (payout-operation.ts), and reading payouts back with each client's
// visibility. Status changes after creation go through payout-transitions.ts.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { requestFingerprint } from '../../lib/fingerprint.js';
import type { Logger } from '../../lib/logger.js';
import { Money } from '../../lib/money.js';
import type {
  CreatePayoutRequest,
  FieldError,
  MerchantAccount,
  PayoutStatus,
  ProviderPayout,
} from '../../providers/provider.js';
import type { ApiClient } from '../clients/api-client.entity.js';
import type { EventLog } from '../../kernel/events/event-log.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import { Payout } from './payout.entity.js';
import type { PayoutSnapshot } from './payout-snapshot.js';
import type { MoneyOperation, OperationRunner, ResumeResult } from '../../kernel/operation.js';
import { payoutOperation, type PreparedPayout } from './payout-operation.js';
import type { CreatePayoutInput } from './payout-request.js';
import type { ProviderAdapters } from '../../providers/ports.js';
import { olderThan } from '../../db/keyset.js';
import { maySee, visibleWhere } from '../../kernel/visibility.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { idempotencyKeyErrors } from '../../kernel/idempotency.js';

export type { CreatePayoutInput } from './payout-request.js';

export type CreatePayoutResult = { payout: PayoutSnapshot | null; errors: FieldError[] };

export interface PayoutFilter {
  /**
   * Test and live payouts never share a list. When absent, the mode of the account a payout of
   * this client would go to by default (see `defaultLivemode`).
   */
  livemode?: boolean;
  status?: PayoutStatus;
  country?: string;
  merchantAccount?: string;
  merchantReference?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}


const MERCHANT_REFERENCE_MAX = 128;
const NAME_MAX = 140;
const FIELD_MAX = 64;

const BENEFICIARY_FIELDS = ['name', 'documentType', 'documentNumber', 'accountNumber', 'bankCode', 'accountType', 'cci'] as const;


export class PayoutService {
  /** What payouts plug into the money-operation lifecycle. */
  private readonly operation: MoneyOperation<PreparedPayout, Payout, ProviderPayout, PayoutSnapshot>;

  constructor(
    private readonly deps: {
      accounts: MerchantAccountService;
      /** The providers' ports: a payout goes to an account whose provider offers payouts. */
      providers: ProviderAdapters;
      events: EventLog;
      transitions: TransitionPath;
      operations: OperationRunner;
      logger: Logger;
    },
  ) {
    this.operation = payoutOperation(deps);
  }

  /**
   * Creates a payout and submits it to the provider, through the money-operation lifecycle
   * (src/kernel/operation.ts). Bad input comes back as field errors before any provider call.
   * With an idempotency key, the same key and input return the first answer (waiting for it if it
   * is still being worked on) without a second provider call; the same key with other input is
   * IDEMPOTENCY_KEY_REUSED.
   */
  async create(em: SqlEntityManager, client: ApiClient, input: CreatePayoutInput): Promise<CreatePayoutResult> {
    const prepared = this.prepare(client, input);
    if (!prepared.ok) return { payout: null, errors: prepared.errors };
    const result = await this.deps.operations.execute(
      em,
      this.operation,
      { clientId: client.id, idempotencyKey: input.idempotencyKey, fingerprint: requestFingerprint(input) },
      { client, input, account: prepared.account, request: prepared.request },
    );
    return { payout: result.subject, errors: result.errors };
  }

  /**
   * Submits a payout still waiting for its provider's answer under its own id (the provider's
   * idempotency key). Resumed without the client's request, it needs the full beneficiary, which
   * the row keeps only partly (see `requestOf`).
   */
  resume(em: SqlEntityManager, id: string): Promise<ResumeResult> {
    return this.deps.operations.resume(em, this.operation, id);
  }

  /**
   * A payout the client may see, or null. Admins see every payout; a PAYOUTS client (a back-office
   * payout service) sees every payout of the merchant accounts it may use, whoever created it;
   * other clients see none.
   */
  async findVisible(em: SqlEntityManager, client: ApiClient, id: string): Promise<Payout | null> {
    const payout = await em.findOne(Payout, { id });
    return payout && maySee(client, 'payout', payout) ? payout : null;
  }

  /** The livemode a list shows when the caller names none: that of the account `createPayout` would use by default. */
  defaultLivemode(client: ApiClient): boolean {
    const resolved = this.deps.accounts.withPort(client, 'payouts');
    return resolved.ok ? resolved.account.livemode : false;
  }

  /** Newest first, `limit` rows after the (createdAt, id) position, of one mode only, restricted to what the client may see. */
  page(em: SqlEntityManager, client: ApiClient, options: { limit: number; after?: { createdAt: Date; id: string }; filter?: PayoutFilter }): Promise<Payout[]> {
    const { filter = {}, after, limit } = options;
    const where: Record<string, unknown>[] = [{ livemode: filter.livemode ?? this.defaultLivemode(client) }, visibleWhere(client, 'payout')];
    if (filter.status) where.push({ status: filter.status });
    if (filter.country) where.push({ country: filter.country });
    if (filter.merchantAccount) where.push({ merchantAccount: filter.merchantAccount });
    if (filter.merchantReference) where.push({ merchantReference: filter.merchantReference });
    if (filter.createdAfter) where.push({ createdAt: { $gte: filter.createdAfter } });
    if (filter.createdBefore) where.push({ createdAt: { $lt: filter.createdBefore } });
    if (after) where.push(olderThan('createdAt', after.createdAt, after.id));
    return em.find(Payout, { $and: where }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit });
  }

  /** Full beneficiary account and CCI numbers by payout id, for admin callers only (one query for any number of payouts). */
  async fullAccountNumbers(em: SqlEntityManager, ids: readonly string[]): Promise<Map<string, { accountNumber: string | null; cci: string | null }>> {
    const rows = ids.length ? await em.find(Payout, { id: { $in: [...new Set(ids)] } }, { fields: ['id', 'beneficiaryAccountNumber', 'beneficiaryCci'] }) : [];
    return new Map(rows.map((row) => [row.id, { accountNumber: row.beneficiaryAccountNumber ?? null, cci: row.beneficiaryCci ?? null }]));
  }

  private prepare(client: ApiClient, input: CreatePayoutInput): { ok: true; account: MerchantAccount; request: Omit<CreatePayoutRequest, 'payoutId'> } | { ok: false; errors: FieldError[] } {
    const errors: FieldError[] = [];
    const resolved = this.deps.accounts.withPort(client, 'payouts', input.merchantAccount);
    if (!resolved.ok) return { ok: false, errors: [{ field: ['merchantAccount'], code: resolved.code, message: resolved.message }] };
    const provider = resolved.port;

    if (input.merchantReference !== undefined && (input.merchantReference.length === 0 || input.merchantReference.length > MERCHANT_REFERENCE_MAX)) {
      errors.push({ field: ['merchantReference'], code: 'INVALID_FORMAT', message: `merchantReference must be 1 to ${MERCHANT_REFERENCE_MAX} characters` });
    }
    errors.push(...idempotencyKeyErrors(input.idempotencyKey));
    for (const field of BENEFICIARY_FIELDS) {
      const value = input.beneficiary[field];
      const max = field === 'name' ? NAME_MAX : FIELD_MAX;
      if (value !== undefined && value.length > max) {
        errors.push({ field: ['beneficiary', field], code: 'FIELD_TOO_LONG', message: `beneficiary.${field} must be at most ${max} characters` });
      }
    }

    const currency = input.currency ?? provider.payoutCurrency(input.country);
    if (!currency) {
      // No default currency means an unknown country: report that (the adapter's words) first.
      const probe = Money.parse(input.amount, 'USD');
      const countryErrors = probe.ok
        ? provider.validatePayout(resolved.account, { country: input.country, amount: probe.money, beneficiary: input.beneficiary }).filter((error) => error.field[0] === 'country')
        : [];
      errors.push(...(countryErrors.length ? countryErrors : ([{ field: ['country'], code: 'INVALID_VALUE', message: `Payouts are not available to ${JSON.stringify(input.country)}` }] satisfies FieldError[])));
      return { ok: false, errors };
    }
    const parsed = Money.parse(input.amount, currency);
    if (!parsed.ok) {
      errors.push({ field: parsed.error.code === 'CURRENCY_INVALID' ? ['currency'] : ['amount'], code: parsed.error.code, message: parsed.error.message });
      return { ok: false, errors };
    }
    const request = { country: input.country, amount: parsed.money, beneficiary: input.beneficiary };
    // Field paths from the adapter are already relative to the input: ['beneficiary', 'bankCode'].
    errors.push(...provider.validatePayout(resolved.account, request));
    return errors.length ? { ok: false, errors } : { ok: true, account: resolved.account, request };
  }
}
