// How a payout goes through the money-operation lifecycle: recorded with its creation event (the
// beneficiary masked, full numbers only in admin-only columns), submitted under our id, and the
// provider's answer stored. Steps, idempotency keys and failures are the lifecycle's
// (src/kernel/operation.ts), not this file's.

import { LockMode } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { columnValues } from '../../db/plain-rows.js';
import { newId } from '../../lib/ids.js';
import { maskIdentifier } from '../../lib/masking.js';
import { userErrorCodeOf } from '../../lib/user-error-codes.js';
import { accountNotConfigured, markEntityUnknown, type MoneyOperation } from '../../kernel/operation.js';
import type { CreatePayoutRequest, FieldError, MerchantAccount, PayoutBeneficiary, ProviderError, ProviderPayout } from '../../providers/provider.js';
import type { ApiClient } from '../clients/api-client.entity.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import { Payout, type StoredBeneficiary } from './payout.entity.js';
import { toPayoutSnapshot, type PayoutSnapshot } from './payout-snapshot.js';
import { payoutTransitions, PAYOUT_CREATED } from './payout-transitions.js';
import type { CreatePayoutInput } from './payout-request.js';
import type { ProviderAdapters } from '../../providers/ports.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { currentTraceparent } from '../../lib/tracing/trace-context.js';

export interface PayoutOperationDeps {
  accounts: MerchantAccountService;
  /** The providers' ports: a payout goes to its own account's provider. */
  providers: ProviderAdapters;
  transitions: TransitionPath;
}

/**
 * What payouts plug into the money-operation lifecycle (src/kernel/operation.ts): how the row is
 * recorded, submitted and answered.
 */
export function payoutOperation(deps: PayoutOperationDeps): MoneyOperation<PreparedPayout, Payout, ProviderPayout, PayoutSnapshot> {
  return {
    name: 'payout',
    // The row and its creation event are one statement (below).
    recordsInOneStatement: true,
    record: async (em, { client, input, account, request }) => {
      // Committed, with its creation event, before the provider call: from here on a crash, a
      // timeout or a webhook that overtakes our own answer all find the row, keyed by our id at
      // the provider; and subscribers always see PENDING before any outcome.
      const now = new Date();
      // The payout as created, for its event's snapshot; the kernel writes the row from the values below.
      const created = em.create(Payout, {
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
        submissionError: null,
        createdAt: now,
        updatedAt: now,
      }, { persist: false });
      const returned = await deps.transitions.create<Payout>(em, payoutTransitions, {
        event: PAYOUT_CREATED,
        row: created,
        insert: {
          values: {
            ...columnValues(em, Payout, created),
            // The request that made it, for the spans of what follows (docs/tracing.md).
            trace_context: currentTraceparent() ?? null,
          },
          json: ['beneficiary'],
          returning: '*',
        },
      });
      // The row as written, managed from here on (nothing is left to flush).
      return { ok: true, row: em.map(Payout, returned!) };
    },
    load: (em, id) => em.findOne(Payout, { id }, { refresh: true }),
    awaitingProvider: (payout) => payout.status === 'PENDING' && !payout.providerReference,
    call: async (_em, payout, prepared) => {
      const account = deps.accounts.get(payout.merchantAccount);
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
      // Checked when the payout was requested: gone only if the configuration changed since, and
      // then the payout waits, recoverable, for an account that can take it.
      const found = deps.providers.adapterFor(account, 'payouts');
      if (!found.ok) return { ok: false, error: accountNotConfigured(payout.merchantAccount) };
      return found.port.createPayout(account, { payoutId: payout.id, ...request });
    },
    accepted: async (em, payout, created) => {
      await recordSubmitted(em, payout.id, created);
      return em.refreshOrFail(payout);
    },
    markUnknown: markEntityUnknown,
    refused: async (tx, payout, error) => {
      await tx.nativeUpdate(Payout, { id: payout.id }, { submissionError: error.code });
      await deps.transitions.apply(tx, payoutTransitions, {
        id: payout.id,
        change: { status: 'FAILED', providerStatus: `refused:${error.httpStatus ?? 'error'}`, statusReason: error.providerMessage ?? error.message },
        source: `submission:${payout.provider}`,
      });
    },
    errorsOf: userErrorsOf,
    errorsOfRow: (payout) =>
      payout.status === 'FAILED' && payout.submissionError
        ? [{ field: [], code: userErrorCodeOf(payout.submissionError, 'PROVIDER_REJECTED'), message: 'This payout was refused when it was submitted; send a new idempotency key to try again.' }]
        : [],
    snapshot: toPayoutSnapshot,
  };
}

/**
 * Stores the provider's reference. The status is left to webhooks: the provider's own webhook may
 * already have moved the payout on, and a creation answer never outranks it.
 */
async function recordSubmitted(em: SqlEntityManager, id: string, created: ProviderPayout): Promise<void> {
  await em.transactional(async (tx) => {
    const payout = await tx.findOneOrFail(Payout, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    payout.providerReference ??= created.reference;
    payout.providerStatus ??= created.providerStatus;
    payout.submissionError = null;
    await tx.flush();
  });
}

/** A validated payout request, ready to record. */
export interface PreparedPayout {
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
