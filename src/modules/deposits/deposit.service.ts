// Deposits: validating a request against the gateway's and the provider's rules, running it
// through the money-operation lifecycle (deposit-operation.ts), reading deposits back with each
// client's visibility, and asking the provider what it knows beyond the status (written by
// deposit-details.ts). Status changes after creation go through deposit-transitions.ts.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { requestFingerprint } from '../../lib/fingerprint.js';
import type { Logger } from '../../lib/logger.js';
import { Money } from '../../lib/money.js';
import type {
  CreateDepositRequest,
  DepositProvider,
  DepositStatus,
  FieldError,
  MerchantAccount,
  ProviderDeposit,
  ProviderName,
  Rail,
  RailDetails,
} from '../../providers/provider.js';
import type { ApiClient } from '../clients/api-client.entity.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import { Deposit } from './deposit.entity.js';
import { isoDateRows, visibilitySql } from '../../db/plain-rows.js';
import type { MoneyOperation, OperationRunner, ResumeResult } from '../../kernel/operation.js';
import { depositOperation, type LifecycleProperty } from './deposit-operation.js';
import { metadataOf } from './deposit-metadata.js';
import type { CreateDepositInput, RailBlock, ValidatedDepositInput } from './deposit-request.js';
import { DEPOSIT_SNAPSHOT_PROPERTIES, type DepositSnapshot, type DepositSnapshotProperty } from './deposit-snapshot.js';
import type { WithIsoDates } from '../../lib/iso-time.js';
import { maySee, visibleWhere } from '../../kernel/visibility.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { forPayment } from '../../kernel/payment-scope.js';
import { idempotencyKeyErrors } from '../../kernel/idempotency.js';
import type { ProviderAdapters } from '../../providers/ports.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import { claimDepositCredit, type CreditClaimResult } from './deposit-credit.js';
import type { DetailsHandOff } from './written-deposits.js';
import { applyDetails, DepositDetailsUnavailable, type FetchDetailsOptions } from './deposit-details.js';

export type { CreateDepositInput, RailBlock } from './deposit-request.js';

export type CreateDepositResult = { deposit: DepositSnapshot | null; errors: FieldError[] };

export interface DepositFilter {
  status?: DepositStatus;
  rail?: Rail;
  merchantReference?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}

/** The columns the visibility policy reads on a deposit row. */
const VISIBILITY_COLUMNS = { clientId: 'client_id', merchantAccount: 'merchant_account' } as const;

const MERCHANT_REFERENCE_MAX = 128;

export class DepositService {
  /** What deposits plug into the money-operation lifecycle. */
  private readonly operation: MoneyOperation<ValidatedDepositInput, Pick<Deposit, LifecycleProperty>, ProviderDeposit, DepositSnapshot>;

  constructor(
    private readonly deps: {
      accounts: MerchantAccountService;
      providers: ProviderAdapters;
      /** Which providers serve which rail. */
      registry: Pick<ProviderRegistry, 'forRail'>;
      transitions: TransitionPath;
      operations: OperationRunner;
      logger: Logger;
      /** Rows this instance's webhooks wrote, which a detail fetch starts from instead of reading (written-deposits.ts). */
      written?: DetailsHandOff;
    },
  ) {
    this.operation = depositOperation(deps);
  }

  /**
   * Creates a deposit and submits it to its provider, through the money-operation lifecycle
   * (src/kernel/operation.ts). Bad input comes back as field errors before any provider call. With
   * an idempotency key, the same key and input return the first answer (waiting for it if it is
   * still being worked on) without a second provider call; other input is IDEMPOTENCY_KEY_REUSED.
   */
  async create(em: SqlEntityManager, client: ApiClient, input: CreateDepositInput): Promise<CreateDepositResult> {
    const prepared = this.prepare(client, input);
    if (!prepared.ok) return { deposit: null, errors: prepared.errors };
    // Only a request under an idempotency key is told from others by its content.
    const fingerprint = input.idempotencyKey !== undefined ? requestFingerprint(input) : undefined;
    const result = await this.deps.operations.execute(
      em,
      this.operation,
      { clientId: client.id, idempotencyKey: input.idempotencyKey, fingerprint },
      { client, input, ...prepared },
    );
    return { deposit: result.subject, errors: result.errors };
  }

  /**
   * Submits a deposit still waiting for its provider's answer (a time-out, or a crash between its
   * commit and the provider call) under its own id, which the provider takes as its idempotency key.
   */
  resume(em: SqlEntityManager, id: string): Promise<ResumeResult> {
    return this.deps.operations.resume(em, this.operation, id);
  }

  /** Claims the credit of a SUCCEEDED deposit exactly once, a retry under the winning claim's key included (deposit-credit.ts). */
  claimCredit(em: SqlEntityManager, client: ApiClient, depositId: string, claimKey?: string): Promise<CreditClaimResult> {
    return claimDepositCredit(em, this.deps.transitions, client, depositId, claimKey);
  }

  /** A deposit the client may see (the visibility policy, src/kernel/visibility.ts), or null. */
  async findVisible(em: SqlEntityManager, client: ApiClient, id: string): Promise<Deposit | null> {
    const deposit = await em.findOne(Deposit, { id });
    return deposit && maySee(client, 'deposit', deposit) ? deposit : null;
  }

  /**
   * Newest first, `limit` deposits after the (createdAt, id) position, of those the client may see,
   * as plain rows of `properties` (every property of the snapshot unless given; a list given must
   * hold `id` and `createdAt`, the page's order), dates kept as text, no entity made or tracked.
   * `properties` is one of a few lists kept by the caller: each list is a statement of its own.
   */
  async page(
    em: SqlEntityManager,
    client: ApiClient,
    options: { limit: number; after?: { createdAt: Date; id: string }; filter?: DepositFilter; properties?: readonly DepositSnapshotProperty[] },
  ): Promise<Array<WithIsoDates<Pick<Deposit, 'id' | 'createdAt'> & Partial<Pick<Deposit, DepositSnapshotProperty>>>>> {
    const { filter = {}, after, limit, properties = DEPOSIT_SNAPSHOT_PROPERTIES } = options;
    if (!properties.includes('id') || !properties.includes('createdAt')) throw new Error('a page of deposits reads their id and creation time');
    // SQL text, not the query builder: building the statement cost more CPU than running it.
    const visible = visibilitySql(visibleWhere(client, 'deposit'), VISIBILITY_COLUMNS);
    const where = [visible.sql];
    const params = [...visible.params];
    const condition = (sql: string, ...values: unknown[]) => {
      where.push(sql);
      params.push(...values);
    };
    if (filter.status) condition('status = ?', filter.status);
    if (filter.rail) condition('rail = ?', filter.rail);
    if (filter.merchantReference) condition('merchant_reference = ?', filter.merchantReference);
    if (filter.createdAfter) condition('created_at >= ?', filter.createdAfter);
    if (filter.createdBefore) condition('created_at < ?', filter.createdBefore);
    // Keyset: strictly after (createdAt, id) in the order below, ties on the time broken by the id.
    if (after) condition('(created_at < ? or (created_at = ? and id < ?))', after.createdAt, after.createdAt, after.id);
    return isoDateRows(em, Deposit, properties, `from deposit where ${where.join(' and ')} order by created_at desc, id desc limit ?`, [...params, limit]);
  }

  /**
   * Fills what the provider knows beyond the status (fee, net, decline reason, processor code,
   * approval time) from its record of the payment, and tells subscribers. Never changes the
   * status: status moves only through webhooks and reconciliation. Idempotent: a second run with
   * nothing new changes nothing. Throws `DepositDetailsUnavailable` when the provider cannot
   * answer, so the `deposit.fetch_details` job that runs it is retried with back-off.
   *
   * @param reference the provider's payment reference (for hosted checkout it differs from the
   * session id the deposit was created with).
   * @returns whether the success of `options.completes` was written with the details (only when
   * they changed).
   */
  async fetchDetails(em: SqlEntityManager, depositId: string, reference: string, options: FetchDetailsOptions = {}): Promise<boolean> {
    // Where the deposit is held, from the caller when it knows (the job's payload), else read.
    const held = options.heldAt ?? (await em.execute<Array<{ provider: ProviderName; merchant_account: string }>>('select provider, merchant_account from deposit where id = ?', [depositId])).map((row) => ({ provider: row.provider, merchantAccount: row.merchant_account }))[0];
    const account = held && this.deps.accounts.get(held.merchantAccount);
    if (!held || !account) {
      // Nothing any retry could fix: the deposit or its account is gone from this gateway.
      this.deps.logger.warn({ depositId, reason: held ? 'ACCOUNT_NOT_CONFIGURED' : 'DEPOSIT_NOT_FOUND' }, 'deposit details not fetched');
      return false;
    }
    const result = await forPayment('deposit', depositId, () => this.deps.providers.deposits(held.provider).getDeposit(account, reference));
    if (!result.ok) throw new DepositDetailsUnavailable(`${result.error.code}: ${result.error.message}`);
    // The row as this instance's webhook just wrote it, if it did: the first attempt starts from it.
    return applyDetails(this.deps, em, { depositId, held, truth: result.value, options }, this.deps.written?.take(depositId));
  }

  /**
   * What a provider's answer other than a lookup says beyond the status, written as `fetchDetails`
   * writes a lookup's: for an answer whose status was already applied. The card settle call's
   * decline reason is one: when the payment's webhook (which carries no reason) overtook the
   * settle call, the settle's answer still names the reason. Never changes the status; writes
   * nothing (and no event) when the answer adds nothing.
   */
  async recordDetails(em: SqlEntityManager, deposit: { id: string; provider: ProviderName; merchantAccount: string }, truth: ProviderDeposit): Promise<void> {
    await applyDetails(this.deps, em, { depositId: deposit.id, held: { provider: deposit.provider, merchantAccount: deposit.merchantAccount }, truth, options: {} }, undefined);
  }


  /** `fetchDetails` for a caller that goes on whatever happens (the reconciler): failures are logged, not thrown. */
  async refreshFromProvider(em: SqlEntityManager, depositId: string, reference: string): Promise<void> {
    try {
      await this.fetchDetails(em, depositId, reference);
    } catch (error) {
      this.deps.logger.warn({ err: error, depositId }, 'refreshing deposit details failed');
    }
  }

  /**
   * The provider a deposit on this rail goes to: the named account's, when it serves the rail;
   * otherwise the first registered provider serving the rail that has an account the client may use.
   */
  private providerFor(client: ApiClient, rail: Rail, accountCode: string | undefined): ProviderName | undefined {
    const candidates = this.deps.registry.forRail(rail);
    const named = accountCode !== undefined ? this.deps.accounts.get(accountCode) : undefined;
    if (named && candidates.includes(named.provider)) return named.provider;
    return candidates.find((name) => this.deps.accounts.resolve(client, name).ok) ?? candidates[0];
  }

  private prepare(
    client: ApiClient,
    input: CreateDepositInput,
  ): { ok: true; account: MerchantAccount; provider: DepositProvider; request: Omit<CreateDepositRequest, 'depositId'> } | { ok: false; errors: FieldError[] } {
    const errors: FieldError[] = [];
    const blocks = (Object.entries(input.rails) as [RailBlock, RailDetails | null | undefined][]).filter(([, details]) => details != null);
    if (blocks.length !== 1) {
      return {
        ok: false,
        errors: [
          {
            field: blocks.length === 0 ? [] : [blocks[1]![0]],
            code: blocks.length === 0 ? 'RAIL_REQUIRED' : 'RAIL_AMBIGUOUS',
            message:
              blocks.length === 0
                ? 'Choose one rail: give exactly one of hostedCheckout, card, openBanking, latam, upi, pix or crypto'
                : `Give exactly one rail block; got ${blocks.map(([name]) => name).join(' and ')}`,
          },
        ],
      };
    }
    const details = blocks[0]![1]!;
    const serving = this.providerFor(client, details.rail, input.merchantAccount);
    if (serving === undefined) return { ok: false, errors: [{ field: ['merchantAccount'], code: 'MERCHANT_ACCOUNT_NOT_FOUND', message: `No provider serves ${details.rail} deposits` }] };
    const resolved = this.deps.accounts.resolve(client, serving, input.merchantAccount);
    if (!resolved.ok) return { ok: false, errors: [{ field: ['merchantAccount'], code: resolved.code, message: resolved.message }] };
    const provider = this.deps.providers.deposits(resolved.account.provider);

    if (input.merchantReference !== undefined && (input.merchantReference.length === 0 || input.merchantReference.length > MERCHANT_REFERENCE_MAX)) {
      errors.push({ field: ['merchantReference'], code: 'INVALID_FORMAT', message: `merchantReference must be 1 to ${MERCHANT_REFERENCE_MAX} characters` });
    }
    errors.push(...idempotencyKeyErrors(input.idempotencyKey));

    const currency = input.currency ?? provider.defaultCurrency(details);
    if (!currency) {
      // No default currency usually means a rail field is wrong (an unknown country or bank
      // country): report that first. The amount is checked once there is a currency to read it in.
      const probe = Money.parse(input.amount, 'EUR');
      const railErrors = probe.ok
        ? provider.validateDeposit(resolved.account, { amount: probe.money, details, customer: input.customer ?? {} }).filter((error) => error.field[0] !== 'amount' && error.field[0] !== 'currency')
        : [];
      errors.push(...(railErrors.length ? railErrors : ([{ field: ['currency'], code: 'FIELD_REQUIRED', message: 'currency is required for this rail: it has no default currency' }] satisfies FieldError[])));
      return { ok: false, errors };
    }
    const parsed = Money.parse(input.amount, currency);
    if (!parsed.ok) {
      const field = parsed.error.code === 'CURRENCY_INVALID' ? ['currency'] : ['amount'];
      errors.push({ field, code: parsed.error.code, message: parsed.error.message });
      return { ok: false, errors };
    }
    const metadata = input.metadata !== undefined ? metadataOf(input.metadata) : undefined;
    if (metadata && !metadata.ok) errors.push(...metadata.errors);
    const request = {
      amount: parsed.money,
      details,
      customer: input.customer ?? {},
      ...(input.returnUrl !== undefined ? { returnUrl: input.returnUrl } : {}),
      ...(metadata?.ok && Object.keys(metadata.metadata).length > 0 ? { metadata: metadata.metadata } : {}),
    };
    errors.push(...provider.validateDeposit(resolved.account, request));
    return errors.length ? { ok: false, errors } : { ok: true, account: resolved.account, provider, request };
  }
}

