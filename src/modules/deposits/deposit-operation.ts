// How a deposit goes through the money-operation lifecycle: recorded with its creation event,
// submitted to its provider under our id, and the provider's answer stored. The order of the steps,
// idempotency keys and failures are the lifecycle's (src/kernel/operation.ts), not this file's.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import { Money } from '../../lib/money.js';
import { userErrorCodeOf } from '../../lib/user-error-codes.js';
import { columnList, plainRow, plainRows } from '../../db/plain-rows.js';
import { executePrepared } from '../../db/prepared.js';
import { accountNotConfigured, type MoneyOperation } from '../../kernel/operation.js';
import type { ProviderAdapters } from '../../providers/ports.js';
import type { CreateDepositRequest, ProviderDeposit, RailDetails } from '../../providers/provider.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import { Deposit, type DepositRequest, type Jsonified } from './deposit.entity.js';
import { toDepositSnapshot, type DepositSnapshot, type DepositSnapshotProperty } from './deposit-snapshot.js';
import { depositTransitions, TRANSITION_PROPERTIES } from './deposit-transitions.js';
import type { ValidatedDepositInput } from './deposit-request.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { currentTraceparent } from '../../lib/tracing/trace-context.js';

export interface DepositOperationDeps {
  accounts: MerchantAccountService;
  providers: ProviderAdapters;
  transitions: TransitionPath;
}

/** The event of a deposit's creation, the first of its log. */
export const DEPOSIT_CREATED = 'deposit.created';

/**
 * What deposits (every rail, QR codes included) plug into the money-operation lifecycle
 * (src/kernel/operation.ts): how the row is recorded, submitted and answered.
 */
export function depositOperation(deps: DepositOperationDeps): MoneyOperation<ValidatedDepositInput, Pick<Deposit, LifecycleProperty>, ProviderDeposit, DepositSnapshot> {
  return {
    name: 'deposit',
    // The row and its creation event are one statement (below).
    recordsInOneStatement: true,
    record: async (em, { client, input, account, provider, request }) => {
      // The row and its creation event commit before the provider call: from here on a crash, a
      // time-out or a webhook that overtakes our own answer all find the row (keyed by our id at
      // the provider), and the event log always starts with deposit.created.
      // The entity's values, not an entity: the row is written below in one statement with its event, and
      // is what the lifecycle goes on with (nothing is made, tracked or read back).
      const now = new Date();
      const created = {
        id: newId('dep'),
        clientId: client.id,
        merchantAccount: account.code,
        provider: provider.name,
        rail: request.details.rail,
        livemode: account.livemode,
        status: 'PENDING',
        providerStatus: null,
        statusReason: null,
        amount: request.amount.toDecimal(),
        currency: request.amount.currency,
        fee: null,
        net: null,
        refundedAmount: '0',
        refundStatus: null,
        disputed: false,
        redirectUrl: null,
        merchantReference: input.merchantReference ?? null,
        declineReason: null,
        qrPayload: null,
        qrExpiresAt: null,
        crypto: null,
        metadata: request.metadata && Object.keys(request.metadata).length > 0 ? request.metadata : null,
        approvedAt: null,
        creditClaimedAt: null,
        createdAt: now,
        updatedAt: now,
      } satisfies Pick<Deposit, DepositSnapshotProperty>;
      const stored = storedRequest(request);
      // The row and its creation event: one statement, which the kernel writes from these values.
      await deps.transitions.create<Pick<Deposit, DepositSnapshotProperty>>(em, depositTransitions, {
        event: DEPOSIT_CREATED,
        row: created,
        insert: {
          values: {
            id: created.id,
            client_id: created.clientId,
            merchant_account: created.merchantAccount,
            provider: created.provider,
            rail: created.rail,
            livemode: created.livemode,
            status: created.status,
            provider_status: created.providerStatus,
            status_reason: created.statusReason,
            amount: created.amount,
            currency: created.currency,
            refunded_amount: created.refundedAmount,
            disputed: created.disputed,
            merchant_reference: created.merchantReference,
            metadata: created.metadata,
            request: stored,
            created_at: created.createdAt,
            updated_at: created.updatedAt,
            // The request that made it, for the spans of what follows (docs/tracing.md).
            trace_context: currentTraceparent() ?? null,
          },
          json: ['metadata', 'request'],
          returning: ['id'],
        },
      });
      return { ok: true, row: { ...created, providerReference: null, paymentReference: null, submissionError: null, request: stored, personalDataErasedAt: null } };
    },
    load: async (em, id) => (await plainRows<Pick<Deposit, LifecycleProperty>>(em, Deposit, `select ${columnList(em, Deposit, LIFECYCLE_PROPERTIES)} from deposit where id = ?`, [id]))[0] ?? null,
    awaitingProvider: (deposit) => deposit.status === 'PENDING' && !deposit.providerReference,
    // POST /checkout-sessions takes no idempotency key: a second call could open a second session.
    // The reconciler looks the session's payment up by our id instead.
    notResubmittable: (deposit) =>
      deposit.rail === 'HOSTED_CHECKOUT' ? 'NOT_RESUBMITTABLE: a checkout session has no idempotency key; its payment is looked up instead' : undefined,
    call: async (_em, deposit) => {
      const account = deps.accounts.get(deposit.merchantAccount);
      if (!account) return { ok: false, error: accountNotConfigured(deposit.merchantAccount) };
      return deps.providers.deposits(deposit.provider).createDeposit(account, { depositId: deposit.id, ...requestOf(deposit) });
    },
    accepted: (em, deposit, created) => recordSubmitted(em, deposit, created),
    markUnknown: async (em, deposit, error) => {
      const updatedAt = new Date();
      await em.execute('update deposit set submission_error = ?, updated_at = ? where id = ?', [error.code, updatedAt, deposit.id]);
      return { ...deposit, submissionError: error.code, updatedAt };
    },
    refused: async (tx, deposit, error) => {
      await tx.nativeUpdate(Deposit, { id: deposit.id }, { submissionError: error.code });
      await deps.transitions.apply(tx, depositTransitions, {
        id: deposit.id,
        // Nothing exists at the provider: there are no details to fetch.
        change: { status: 'FAILED', providerStatus: `refused:${error.httpStatus ?? 'error'}`, statusReason: error.providerMessage ?? error.message, detailsIncluded: true },
        source: `submission:${deposit.provider}`,
      });
    },
    errorsOf: (error) => [{ field: [], code: error.code, message: error.message }],
    errorsOfRow: (deposit) =>
      deposit.status === 'FAILED' && deposit.submissionError ? [{ field: [], code: userErrorCodeOf(deposit.submissionError, 'PROVIDER_REJECTED'), message: 'The provider refused this deposit when it was submitted' }] : [],
    snapshot: toDepositSnapshot,
  };
}

/**
 * Stores what the provider answered and returns the deposit as it now stands. The status is left
 * to webhooks: the provider's own webhook may already have moved the deposit on (the sandbox
 * approves test payments at once), and a creation answer never outranks it. One UPDATE, atomic on
 * its own: it keeps whatever a concurrent webhook or retry recorded first (the provider
 * reference, its status word) and returns the row in the same round trip.
 */
async function recordSubmitted(em: SqlEntityManager, deposit: Pick<Deposit, LifecycleProperty>, created: ProviderDeposit): Promise<Pick<Deposit, LifecycleProperty>> {
  const { id } = deposit;
  // Prepared (src/db/prepared.ts): it follows every deposit's provider call.
  const rows = await executePrepared<Record<string, unknown>>(
    em,
    `update deposit set
       provider_reference = coalesce(provider_reference, ?),
       payment_reference = coalesce(payment_reference, case when rail = 'HOSTED_CHECKOUT' then null else ? end),
       redirect_url = coalesce(?, redirect_url),
       provider_status = coalesce(provider_status, ?),
       submission_error = null,
       crypto = coalesce(?::jsonb, crypto),
       qr_payload = coalesce(?, qr_payload),
       qr_expires_at = coalesce(?, qr_expires_at),
       updated_at = ?
     where id = ?
     returning ${columnList(em, Deposit, STANDING_PROPERTIES)}`,
    [
      created.reference,
      // A checkout session id is not a payment reference: that one is learned when the player pays.
      created.reference,
      created.redirectUrl ?? null,
      created.providerStatus,
      created.crypto ? JSON.stringify(created.crypto) : null,
      created.qrCode?.payload ?? null,
      created.qrCode?.expiresAt ?? null,
      new Date(),
      id,
    ],
  );
  if (!rows[0]) throw new Error(`deposit ${id} vanished while its provider answer was recorded`);
  // The stored request is not changed by the answer: kept from the row, not read back.
  return { ...deposit, ...plainRow<Pick<Deposit, (typeof STANDING_PROPERTIES)[number]>>(em, Deposit, rows[0]) };
}

/** What the lifecycle reads back of a deposit after a change: its `LIFECYCLE_PROPERTIES` but the request and its erasure, which no answer changes. */
const STANDING_PROPERTIES = [...TRANSITION_PROPERTIES, 'submissionError'] as const satisfies ReadonlyArray<keyof Deposit>;

/**
 * What the lifecycle holds of a deposit (a `Pick` of the entity, read and written by SQL alone, no
 * entity made or tracked): its snapshot's properties, its references, its last submission error
 * and its stored request.
 */
const LIFECYCLE_PROPERTIES = [...STANDING_PROPERTIES, 'request', 'personalDataErasedAt'] as const satisfies ReadonlyArray<keyof Deposit>;

/** The names of `LIFECYCLE_PROPERTIES`. */
export type LifecycleProperty = (typeof LIFECYCLE_PROPERTIES)[number];

/** What is kept to resubmit a deposit: never a full bank account or card number. */
function storedRequest(request: Omit<CreateDepositRequest, 'depositId'>): DepositRequest {
  const details = JSON.parse(JSON.stringify(request.details)) as Jsonified<RailDetails>;
  // The payer's bank account goes to the QR gateway once and is not kept (a resubmission omits it).
  if (details.rail === 'THAI_QR') delete details.payer.bankAccount;
  return { details, customer: request.customer, ...(request.returnUrl ? { returnUrl: request.returnUrl } : {}) };
}

function requestOf(deposit: Pick<Deposit, LifecycleProperty>): Omit<CreateDepositRequest, 'depositId'> {
  // Only final deposits are erased, and a final deposit is never submitted again: sending masked
  // identifiers to a provider would be a bug, never a request.
  if (deposit.personalDataErasedAt) throw new Error(`deposit ${deposit.id} cannot be submitted: its payer's personal data was erased`);
  const stored = deposit.request;
  const details = { ...stored.details } as RailDetails & { expiresAt?: string | Date };
  if (typeof details.expiresAt === 'string') details.expiresAt = new Date(details.expiresAt);
  return {
  amount: Money.fromDecimal(deposit.amount, deposit.currency),
  details,
  customer: stored.customer,
  ...(stored.returnUrl ? { returnUrl: stored.returnUrl } : {}),
  // A resubmission sends the metadata the first submission did.
  ...(deposit.metadata ? { metadata: deposit.metadata } : {}),
  };
}
