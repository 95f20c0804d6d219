// Payouts: validating a request against the gateway's and the provider's rules, creating it exactly
// once per idempotency key, submitting it to the provider, and reading payouts back with each
// client's visibility. Status changes after creation go through payout-transitions.ts.

import { LockMode } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { requestFingerprint } from '../../lib/fingerprint.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import { Money } from '../../lib/money.js';
import type {
  CreatePayoutRequest,
  DepositProvider,
  FieldError,
  MerchantAccount,
  MoneyMovementProvider,
  PayoutBeneficiary,
  PayoutStatus,
  ProviderError,
  ProviderPayout,
} from '../../providers/provider.js';
import type { ApiClient } from '../clients/api-client.entity.js';
import type { EventService } from '../events/event.service.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import { Payout, type StoredBeneficiary } from './payout.entity.js';
import { applyPayoutChange, PAYOUT_CREATED } from './payout-transitions.js';
import { toPayoutSnapshot } from './payout-snapshot.js';
import type { PayoutSnapshot } from '../events/payment-event.types.js';
import { accountNotConfigured, type MoneyOperation, type OperationRunner, type ResumeResult } from '../../kernel/operation.js';
import { olderThan } from '../../db/keyset.js';
import { maySee, visibleWhere } from '../../kernel/visibility.js';

/** A payout request in gateway terms, as the API layer hands it over (amount not yet parsed). */
export interface CreatePayoutInput {
  country: string;
  amount: string;
  currency?: string;
  beneficiary: PayoutBeneficiary;
  merchantReference?: string;
  idempotencyKey?: string;
  merchantAccount?: string;
}

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

/** The provider capabilities payouts need: the deposit gateway adapter in production. */
export type PayoutProvider = Pick<MoneyMovementProvider, 'validatePayout' | 'createPayout' | 'listPayouts'> & Pick<DepositProvider, 'name' | 'defaultCurrency'>;

const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const MERCHANT_REFERENCE_MAX = 128;
const NAME_MAX = 140;
const FIELD_MAX = 64;

const BENEFICIARY_FIELDS = ['name', 'documentType', 'documentNumber', 'accountNumber', 'bankCode', 'accountType', 'cci'] as const;

/** `****1234`: the last four characters behind a fixed-width mask, so the length is not told either. */
export function maskIdentifier(value: string): string {
  return `****${value.length > 4 ? value.slice(-4) : ''}`;
}

export class PayoutService {
  constructor(
    private readonly deps: {
      accounts: MerchantAccountService;
      provider: PayoutProvider;
      events: EventService;
      operations: OperationRunner;
      logger: Logger;
    },
  ) {}

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
    const resolved = this.deps.accounts.resolve(client, this.deps.provider.name);
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
    const { provider } = this.deps;
    const resolved = this.deps.accounts.resolve(client, provider.name, input.merchantAccount);
    if (!resolved.ok) return { ok: false, errors: [{ field: ['merchantAccount'], code: resolved.code, message: resolved.message }] };

    if (input.merchantReference !== undefined && (input.merchantReference.length === 0 || input.merchantReference.length > MERCHANT_REFERENCE_MAX)) {
      errors.push({ field: ['merchantReference'], code: 'INVALID_FORMAT', message: `merchantReference must be 1 to ${MERCHANT_REFERENCE_MAX} characters` });
    }
    if (input.idempotencyKey !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(input.idempotencyKey)) {
      errors.push({ field: ['idempotencyKey'], code: 'INVALID_FORMAT', message: 'idempotencyKey must be 1 to 255 printable ASCII characters without spaces' });
    }
    for (const field of BENEFICIARY_FIELDS) {
      const value = input.beneficiary[field];
      const max = field === 'name' ? NAME_MAX : FIELD_MAX;
      if (value !== undefined && value.length > max) {
        errors.push({ field: ['beneficiary', field], code: 'FIELD_TOO_LONG', message: `beneficiary.${field} must be at most ${max} characters` });
      }
    }

    const currency = input.currency ?? provider.defaultCurrency({ rail: 'LATAM', country: input.country });
    if (!currency) {
      // No default currency means an unknown country: report that (the adapter's words) first.
      const probe = Money.parse(input.amount, 'USD');
      const countryErrors = probe.ok
        ? provider.validatePayout(resolved.account, { country: input.country, amount: probe.money, beneficiary: input.beneficiary }).filter((error) => error.field[0] === 'country')
        : [];
      errors.push(...(countryErrors.length ? countryErrors : [{ field: ['country'], code: 'INVALID_VALUE', message: `Payouts are not available to ${JSON.stringify(input.country)}` }]));
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

  /** What payouts plug into the money-operation lifecycle. */
  private readonly operation: MoneyOperation<PreparedPayout, Payout, ProviderPayout, PayoutSnapshot> = {
    name: 'payout',
    record: async (tx, { client, input, account, request }) => {
      // Committed, with its creation event, before the provider call: from here on a crash, a
      // timeout or a webhook that overtakes our own answer all find the row, keyed by our id at
      // the provider; and subscribers always see PENDING before any outcome.
      const payout = tx.create(Payout, {
        id: newId('pay'),
        clientId: client.id,
        merchantAccount: account.code,
        provider: account.provider,
        livemode: account.livemode,
        country: request.country,
        status: 'PENDING',
        providerStatus: null,
        statusReason: null,
        amount: request.amount.toDecimal(),
        currency: request.amount.currency,
        beneficiary: storedBeneficiary(request.beneficiary),
        beneficiaryAccountNumber: request.beneficiary.accountNumber ?? null,
        beneficiaryCci: request.beneficiary.cci ?? null,
        beneficiaryDocumentNumber: request.beneficiary.documentNumber ?? null,
        merchantReference: input.merchantReference ?? null,
        idempotencyKey: input.idempotencyKey ?? null,
        idempotencyFingerprint: input.idempotencyKey ? requestFingerprint(input) : null,
        submissionError: null,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      await tx.flush();
      await this.deps.events.append(tx, {
        subjectType: 'payout',
        subjectId: payout.id,
        clientId: payout.clientId,
        type: PAYOUT_CREATED,
        fromStatus: null,
        toStatus: payout.status,
        payout,
      });
      return { ok: true, row: payout };
    },
    load: (em, id) => em.findOne(Payout, { id }),
    awaitingProvider: (payout) => payout.status === 'PENDING' && !payout.providerReference,
    call: async (_em, payout, prepared) => {
      const account = this.deps.accounts.get(payout.merchantAccount);
      if (!account) return { ok: false, error: accountNotConfigured(payout.merchantAccount) };
      // The client's own request when it retries (its fingerprint matched, so it is the first
      // one's, full beneficiary included); otherwise what the row keeps.
      const request = prepared?.request ?? requestOf(payout);
      if (!request) {
        return {
          ok: false,
          error: { code: 'PROVIDER_UNAVAILABLE', message: 'BENEFICIARY_NOT_STORED: the full document number of this payout was not kept; it is resubmitted when its client retries with the same idempotency key', outcomeUnknown: true },
        };
      }
      return this.deps.provider.createPayout(account, { payoutId: payout.id, ...request });
    },
    accepted: async (em, payout, created) => {
      await this.recordSubmitted(em, payout.id, created);
      return em.refreshOrFail(payout);
    },
    refused: async (tx, payout, error) => {
      await tx.nativeUpdate(Payout, { id: payout.id }, { submissionError: error.code });
      await applyPayoutChange(
        tx,
        {
          payoutId: payout.id,
          change: { status: 'FAILED', providerStatus: `refused:${error.httpStatus ?? 'error'}`, statusReason: error.providerMessage ?? error.message },
          source: `submission:${payout.provider}`,
        },
        this.deps.events,
      );
    },
    errorsOf: userErrorsOf,
    errorsOfRow: (payout) =>
      payout.status === 'FAILED' && payout.submissionError
        ? [{ field: [], code: payout.submissionError, message: 'This payout was refused when it was submitted; send a new idempotency key to try again.' }]
        : [],
    snapshot: toPayoutSnapshot,
  };

  /**
   * Stores the provider's reference. The status is left to webhooks: the provider's own webhook may
   * already have moved the payout on, and a creation answer never outranks it.
   */
  private async recordSubmitted(em: SqlEntityManager, id: string, created: ProviderPayout): Promise<void> {
    await em.transactional(async (tx) => {
      const payout = await tx.findOneOrFail(Payout, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      payout.providerReference ??= created.reference;
      payout.providerStatus ??= created.providerStatus;
      payout.submissionError = null;
      await tx.flush();
    });
  }
}

/** A validated payout request, ready to record. */
interface PreparedPayout {
  client: ApiClient;
  input: CreatePayoutInput;
  account: MerchantAccount;
  request: Omit<CreatePayoutRequest, 'payoutId'>;
}

/**
 * The request a payout row is resubmitted with on its own (the reconciler): the full account, CCI
 * and document numbers are kept in admin-only columns. Undefined for a payout written before the
 * full document number was kept: resubmitting the masked one would be wrong; its client's retry
 * with the same idempotency key resubmits it, or the provider's payout list finds it by our id.
 */
function requestOf(payout: Payout): Omit<CreatePayoutRequest, 'payoutId'> | undefined {
  const stored = payout.beneficiary;
  if (stored.documentNumber && !payout.beneficiaryDocumentNumber) return undefined;
  const beneficiary: PayoutBeneficiary = {};
  if (stored.name) beneficiary.name = stored.name;
  if (stored.documentType) beneficiary.documentType = stored.documentType;
  if (payout.beneficiaryDocumentNumber) beneficiary.documentNumber = payout.beneficiaryDocumentNumber;
  if (payout.beneficiaryAccountNumber) beneficiary.accountNumber = payout.beneficiaryAccountNumber;
  if (stored.bankCode) beneficiary.bankCode = stored.bankCode;
  if (stored.accountType) beneficiary.accountType = stored.accountType;
  if (payout.beneficiaryCci) beneficiary.cci = payout.beneficiaryCci;
  return { country: payout.country, amount: payout.amountMoney(), beneficiary };
}

/** A provider failure as user errors: the 422 `missing` array becomes one FIELD_REQUIRED per field path. */
export function userErrorsOf(error: ProviderError): FieldError[] {
  if (error.missing?.length) {
    return error.missing.map((field) => ({ field, code: 'FIELD_REQUIRED', message: `${field.join('.')} is required by the provider for this country` }));
  }
  return [{ field: [], code: error.code, message: error.message }];
}

function storedBeneficiary(beneficiary: PayoutBeneficiary): StoredBeneficiary {
  const masked = (value: string | undefined) => (value ? maskIdentifier(value) : null);
  return {
    name: beneficiary.name ?? null,
    documentType: beneficiary.documentType ?? null,
    documentNumber: masked(beneficiary.documentNumber),
    accountNumber: masked(beneficiary.accountNumber),
    bankCode: beneficiary.bankCode ?? null,
    accountType: beneficiary.accountType ?? null,
    cci: masked(beneficiary.cci),
  };
}

