// Deposits: validating a request against the gateway's and the provider's rules, running it
// through the money-operation lifecycle (deposit-operation.ts), reading deposits back with each
// client's visibility, and filling in what the provider knows beyond the status. Status changes
// after creation go through deposit-transitions.ts.

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
import { alongsideMatched, allMatched, CHANGE_MATCHED, type EventLog } from '../../kernel/events/event-log.js';
import { Deposit } from './deposit.entity.js';
import { isoDateRows, visibilitySql } from '../../db/plain-rows.js';
import { inTransaction } from '../../db/transaction.js';
import type { MoneyOperation, OperationRunner, ResumeResult } from '../../kernel/operation.js';
import { depositOperation, type DepositRow, type PreparedDeposit } from './deposit-operation.js';
import { metadataOf } from './deposit-metadata.js';
import type { CreateDepositInput, RailBlock } from './deposit-request.js';
import { DEPOSIT_SNAPSHOT_PROPERTIES, toDepositSnapshot, type DepositFacts, type DepositSnapshot } from './deposit-snapshot.js';
import { maySee, visibleWhere } from '../../kernel/visibility.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { forPayment } from '../../kernel/payment-scope.js';
import { idempotencyKeyErrors } from '../../kernel/idempotency.js';
import type { ProviderAdapters } from '../../providers/ports.js';
import type { ProviderRegistry } from '../../providers/registry.js';
import { claimDepositCredit, type CreditClaimResult } from './deposit-credit.js';
import { versionedDeposit, versionedDepositColumns, type WrittenDeposit, type WrittenDeposits } from './written-deposits.js';

/** What `fetchDetails` may be told by its caller. */
export interface FetchDetailsOptions {
  /** The deposit's provider and merchant account, when the caller knows them: not read again. */
  heldAt?: { provider: ProviderName; merchantAccount: string };
  /**
   * More statements written in the one statement that writes the details, only when they changed
   * (a job's own completion, `JobInfo.succeededStatement`). Each ends with a `returning` clause and
   * requires `changed`, an SQL condition true when the details' update matched its row: it may run
   * outside a transaction, where nothing would roll it back.
   */
  alongside?: (changed: string) => Array<{ sql: string; params: unknown[] }>;
}

export type { CreateDepositInput, RailBlock } from './deposit-request.js';

export type CreateDepositResult = { deposit: DepositSnapshot | null; errors: FieldError[] };

export interface DepositFilter {
  status?: DepositStatus;
  rail?: Rail;
  merchantReference?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}

/** Admin-only event: the provider reported a net that is not amount minus fee (not applied). */
export const DEPOSIT_NET_MISMATCH = 'deposit.net_mismatch';

/** The columns the visibility policy reads on a deposit row. */
const VISIBILITY_COLUMNS = { clientId: 'client_id', merchantAccount: 'merchant_account' } as const;

const MERCHANT_REFERENCE_MAX = 128;

/** `writeDetails` found the deposit changed between its read and its write: nothing was written. */
const ROW_CHANGED = Symbol('deposit row changed since it was read');
/** Reads and guarded writes of one detail fetch before it takes the row lock instead. */
const DETAILS_WRITE_ATTEMPTS = 3;

/** The provider could not tell a deposit's details now; the job that asked retries later. */
export class DepositDetailsUnavailable extends Error {
  override name = 'DepositDetailsUnavailable';
}

export class DepositService {
  /** What deposits plug into the money-operation lifecycle. */
  private readonly operation: MoneyOperation<PreparedDeposit, DepositRow, ProviderDeposit, DepositSnapshot>;

  constructor(
    private readonly deps: {
      accounts: MerchantAccountService;
      providers: ProviderAdapters;
      /** Which providers serve which rail. */
      registry: Pick<ProviderRegistry, 'forRail'>;
      events: EventLog;
      transitions: TransitionPath;
      operations: OperationRunner;
      logger: Logger;
      /** Rows this instance's webhooks wrote, which a detail fetch starts from instead of reading (written-deposits.ts). */
      written?: WrittenDeposits;
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
    return claimDepositCredit(em, this.deps.events, client, depositId, claimKey);
  }

  /** A deposit the client may see (the visibility policy, src/kernel/visibility.ts), or null. */
  async findVisible(em: SqlEntityManager, client: ApiClient, id: string): Promise<Deposit | null> {
    const deposit = await em.findOne(Deposit, { id });
    return deposit && maySee(client, 'deposit', deposit) ? deposit : null;
  }

  /**
   * Newest first, `limit` deposits after the (createdAt, id) position, of those the client may see,
   * as snapshots: read as plain rows of the snapshot's columns, dates kept as text, no entity made or tracked.
   */
  async page(em: SqlEntityManager, client: ApiClient, options: { limit: number; after?: { createdAt: Date; id: string }; filter?: DepositFilter }): Promise<DepositSnapshot[]> {
    const { filter = {}, after, limit } = options;
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
    const rows = await isoDateRows<DepositFacts>(em, Deposit, DEPOSIT_SNAPSHOT_PROPERTIES, `from deposit where ${where.join(' and ')} order by created_at desc, id desc limit ?`, [...params, limit]);
    return rows.map(toDepositSnapshot);
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
   * @returns whether every statement of `options.alongside` ran and matched a row (they run only
   * when the details changed).
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
    return this.applyDetails(em, depositId, held, result.value, options, this.deps.written?.take(depositId));
  }

  /**
   * What a provider's answer other than a lookup says beyond the status, written as `fetchDetails`
   * writes a lookup's: for an answer whose status was already applied. The card settle call's
   * decline reason is one: when the payment's webhook (which carries no reason) overtook the
   * settle call, the settle's answer still names the reason. Never changes the status; writes
   * nothing (and no event) when the answer adds nothing.
   */
  async recordDetails(em: SqlEntityManager, deposit: { id: string; provider: ProviderName; merchantAccount: string }, truth: ProviderDeposit): Promise<void> {
    await this.applyDetails(em, deposit.id, { provider: deposit.provider, merchantAccount: deposit.merchantAccount }, truth, {}, undefined);
  }

  /** Writes what `truth` adds to the deposit (see `writeDetails`), again if the row changed under it. */
  private async applyDetails(
    em: SqlEntityManager,
    depositId: string,
    held: { provider: ProviderName; merchantAccount: string },
    truth: ProviderDeposit,
    options: FetchDetailsOptions,
    handed: WrittenDeposit | undefined,
  ): Promise<boolean> {
    // A net that does not add up is raised as an event of its own, and a caller's transaction is
    // kept: both read the deposit under its row lock. Otherwise the read takes no lock and the
    // write is one statement that applies only to the row as read.
    const underLock = () => inTransaction(em, async (tx) => (await this.writeDetails(tx, depositId, held, truth, options, true)) === true);
    if (truth.netMismatch || em.isInTransaction()) return underLock();
    for (let attempt = 1; attempt <= DETAILS_WRITE_ATTEMPTS; attempt++) {
      const written = await this.writeDetails(em, depositId, held, truth, options, false, handed);
      handed = undefined;
      if (written !== ROW_CHANGED) return written;
      // Changed between the read and the write (a status report landed): read it again.
    }
    // Changed under every attempt: the row lock keeps the next change waiting.
    return underLock();
  }

  /**
   * Reads the deposit and writes what the provider's record adds to it, with its event and
   * `options.alongside`, in one statement guarded on the row's version (`xmin`, which every update
   * of the row renews): a change committed in between makes it match nothing, and `ROW_CHANGED`
   * comes back with nothing written. With `lock`, in the caller's transaction, the read takes the
   * row lock first, so the guard always holds. With `handed`, the row a webhook's change returned
   * (written-deposits.ts), the read is skipped: the guard on its version decides the same way.
   */
  private async writeDetails(
    em: SqlEntityManager,
    depositId: string,
    held: { provider: ProviderName; merchantAccount: string },
    truth: ProviderDeposit,
    options: FetchDetailsOptions,
    lock: boolean,
    handed?: WrittenDeposit,
  ): Promise<boolean | typeof ROW_CHANGED> {
    // Only for the deposit this read would find: the same id, provider and account.
    const usable = !lock && handed?.row.id === depositId && handed.row.provider === held.provider && handed.row.merchantAccount === held.merchantAccount;
    // A plain row: nothing here needs the entity, and nothing is left for a flush.
    const [row] = usable
      ? []
      : await em.execute<Array<Record<string, unknown>>>(
          `select ${versionedDepositColumns(em)} from deposit where id = ? and provider = ? and merchant_account = ?${lock ? ' for update' : ''}`,
          [depositId, held.provider, held.merchantAccount],
        );
    const found = usable ? handed : row && versionedDeposit(em, row);
    if (!found) {
      this.deps.logger.warn({ depositId, reason: 'DEPOSIT_NOT_FOUND' }, 'deposit details not fetched');
      return false;
    }
    const { row: read, version } = found;
    const inCurrency = (money: Money | undefined) => (money && money.currency === read.currency ? money.toDecimal() : undefined);
    const next = {
      fee: inCurrency(truth.fee) ?? read.fee ?? null,
      net: inCurrency(truth.net) ?? read.net ?? null,
      declineReason: truth.declineReason ?? read.declineReason ?? null,
      statusReason: truth.statusReason ?? read.statusReason ?? null,
      // The payment's own approved_at (spec: "use it rather than created_at to age a deposit") wins
      // over the moment a webhook's envelope was created, which only stood in for it until now.
      approvedAt: read.status === 'SUCCEEDED' || read.status === 'REFUNDED' ? (truth.approvedAt ?? read.approvedAt ?? null) : (read.approvedAt ?? null),
    };
    if (truth.netMismatch) await this.raiseNetMismatch(em, read, truth);
    const facts = (value: typeof next) => JSON.stringify([value.fee, value.net, value.declineReason, value.statusReason, value.approvedAt]);
    if (facts(next) === facts({ fee: read.fee ?? null, net: read.net ?? null, declineReason: read.declineReason ?? null, statusReason: read.statusReason ?? null, approvedAt: read.approvedAt ?? null })) {
      return false;
    }
    const updatedAt = new Date();
    const alongside = options.alongside?.(CHANGE_MATCHED) ?? [];
    // The row and its event in one statement (and what the caller writes alongside).
    const rows = await this.deps.events.appendWith<Record<string, unknown>>(
      em,
      {
        sql: 'update deposit set fee = ?, net = ?, decline_reason = ?, status_reason = ?, approved_at = ?, updated_at = ? where id = ? and xmin = cast(? as xid) returning id',
        params: [next.fee, next.net, next.declineReason, next.statusReason, next.approvedAt, updatedAt, read.id, version],
      },
      {
        subjectType: 'deposit',
        subjectId: read.id,
        clientId: read.clientId,
        type: 'deposit.details_updated',
        fromStatus: read.status,
        toStatus: read.status,
        merchantAccount: read.merchantAccount,
        snapshot: toDepositSnapshot({ ...read, ...next, updatedAt }),
      },
      { statements: alongside, ...(alongside.length > 0 ? { select: alongsideMatched(alongside.length) } : {}) },
    );
    const [written] = rows;
    if (!written) {
      if (lock) throw new Error(`deposit ${read.id} changed under its row lock`);
      return ROW_CHANGED;
    }
    return alongside.length > 0 && allMatched(written, alongside.length);
  }

  /**
   * A reported `net` that is not `amount - fee` (spec: "net: amount minus fee") is not applied: it is
   * raised once per deposit as an admin-only `deposit.net_mismatch` event, and logged as an anomaly.
   */
  private async raiseNetMismatch(tx: SqlEntityManager, deposit: DepositFacts, truth: ProviderDeposit): Promise<void> {
    const raised = await tx.execute<Array<{ n: string }>>(`select count(*)::text as n from payment_event where subject_type = 'deposit' and subject_id = ? and type = ?`, [deposit.id, DEPOSIT_NET_MISMATCH]);
    if (raised[0]?.n !== '0') return;
    this.deps.logger.warn(
      { anomaly: 'NET_MISMATCH', depositId: deposit.id, amount: truth.amount?.toString() ?? null, fee: truth.fee?.toString() ?? null, reportedNet: truth.netMismatch?.toString() ?? null },
      'provider reported a net that is not amount minus fee; not applied',
    );
    await this.deps.events.append(tx, {
      subjectType: 'deposit',
      subjectId: deposit.id,
      clientId: deposit.clientId,
      adminOnly: true,
      type: DEPOSIT_NET_MISMATCH,
      fromStatus: deposit.status,
      toStatus: deposit.status,
      merchantAccount: deposit.merchantAccount,
      snapshot: toDepositSnapshot(deposit),
    });
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

