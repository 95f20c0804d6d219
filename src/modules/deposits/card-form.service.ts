// The embedded card form: what the merchant page needs to show it (never the `integrity` value), the
// signed return address its form posts the shopper back to, and the server-to-server settle call that
// promotes a card deposit to its outcome.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../lib/logger.js';
import type { Money } from '../../lib/money.js';
import { userErrorCodeOf } from '../../lib/user-error-codes.js';
import type { CardFormPort, ProviderAdapters } from '../../providers/ports.js';
import type { DepositStatus, FieldError, MerchantAccount } from '../../providers/provider.js';
import type { ApiClient } from '../clients/api-client.entity.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import { Deposit } from './deposit.entity.js';
import type { DepositService } from './deposit.service.js';
import { depositTransitions } from './deposit-transitions.js';
import { signOrderToken, verifyOrderToken, type OrderTokenCheck } from './card-form.token.js';
import type { TransitionPath } from '../../kernel/transitions.js';
import { forPayment } from '../../kernel/payment-scope.js';

/** Path of the gateway's card form return address; the order token follows it. */
export const CARD_FORM_RETURN_PATH = '/card-form/return';

/** What the merchant page needs to place the provider's card form. */
export interface CardSessionView {
  depositId: string;
  /** The payment already reached a terminal state at the provider: show a result page, no form. */
  settled: boolean;
  /** The provider's status of the payment, in gateway terms. */
  status: DepositStatus;
  amount: Money;
  /** Per-checkout loader script; load it without an integrity attribute (spec: Card session). */
  scriptUrl: string | null;
  brands: string[];
  /**
   * The form's action: this gateway's return address with a signed order token. The processor sends
   * the shopper back here, and the gateway settles server to server. Null once settled.
   */
  formAction: string | null;
}

/** `notFound`: no deposit the caller may see. Otherwise a stable code and message; `providerFailure` when the provider could not answer. */
export type CardSessionResult =
  | { ok: true; session: CardSessionView }
  | { ok: false; notFound: true }
  | { ok: false; notFound: false; error: FieldError; providerFailure?: boolean };

export interface SettleCardResult {
  deposit: Deposit | null;
  errors: FieldError[];
  /** The deposit already had the settled outcome (a repeated call): nothing changed. */
  alreadyProcessed: boolean;
}

/** The shopper came back from the processor: what the return address did. */
export type CardReturnResult =
  | { ok: false; reason: Exclude<OrderTokenCheck, { ok: true }>['reason'] | 'NOT_FOUND' }
  | { ok: true; settle: SettleCardResult; deposit: Deposit };

/** What settling a CARD deposit at the provider takes: the deposit, the account and card form port that serve it, its reference. */
interface CardSettlement {
  ok: true;
  deposit: Deposit;
  account: MerchantAccount;
  port: CardFormPort;
  reference: string;
}

export class CardFormService {
  constructor(
    private readonly deps: {
      accounts: MerchantAccountService;
      /** The providers' ports: a card deposit's form is its own account's provider's. */
      providers: ProviderAdapters;
      deposits: DepositService;
      transitions: TransitionPath;
      logger: Logger;
      /** Where shoppers reach this gateway (its public URL, no trailing slash), known once the HTTP server listens. */
      returnBaseUrl: () => string | undefined;
    },
  ) {}

  async session(em: SqlEntityManager, client: ApiClient, depositId: string): Promise<CardSessionResult> {
    const found = await this.cardDeposit(em, client, depositId);
    if (!found.ok) return found;
    const { deposit, reference } = found;
    const result = await forPayment('deposit', deposit.id, () => found.port.getCardSession(found.account, reference));
    if (!result.ok) return { ok: false, notFound: false, providerFailure: true, error: { field: [], code: result.error.code, message: result.error.message } };
    const session = result.value;
    // `integrity` is never read from the provider's answer: the spec says to ignore it, because the
    // per-checkout loader's hash is not fixed and a browser would silently block the script.
    const returnBaseUrl = this.deps.returnBaseUrl();
    return {
      ok: true,
      session: {
        depositId: deposit.id,
        settled: session.settled,
        status: session.status,
        amount: deposit.amountMoney(),
        scriptUrl: session.settled ? null : (session.scriptUrl ?? null),
        brands: session.settled ? [] : session.brands,
        formAction: session.settled || !returnBaseUrl ? null : `${returnBaseUrl}${CARD_FORM_RETURN_PATH}/${signOrderToken(found.account, deposit.id)}`,
      },
    };
  }

  /**
   * Asks the provider for the authoritative outcome (spec: Card settle call) and applies it through
   * the one transition function. Promote-only and idempotent: a repeated call changes nothing. The
   * provider's echo of our deposit id is checked before anything is applied.
   */
  async settle(em: SqlEntityManager, client: ApiClient, depositId: string): Promise<SettleCardResult> {
    const found = await this.cardDeposit(em, client, depositId);
    if (!found.ok) {
      const error: FieldError = found.notFound ? { field: ['depositId'], code: 'NOT_FOUND', message: `No deposit with id ${depositId}` } : found.error;
      return { deposit: null, errors: [error], alreadyProcessed: false };
    }
    return this.settleFound(em, found);
  }

  /**
   * The shopper's return from the processor (spec: card-session step 3): the order token is verified
   * before anything is read or asked, the query parameters are ignored, and the settle call goes to
   * the provider server to server. A bad token changes nothing and calls no one.
   */
  async settleReturn(em: SqlEntityManager, token: string): Promise<CardReturnResult> {
    const check = verifyOrderToken(token, (code) => this.deps.accounts.get(code));
    if (!check.ok) return check;
    const deposit = await em.findOne(Deposit, { id: check.depositId });
    if (!deposit || deposit.merchantAccount !== check.accountCode) return { ok: false, reason: 'NOT_FOUND' };
    const found = this.prepare(deposit);
    if (!found.ok) return { ok: true, deposit, settle: { deposit, errors: [found.error], alreadyProcessed: false } };
    const settle = await this.settleFound(em, found);
    return { ok: true, deposit: settle.deposit ?? deposit, settle };
  }

  private async settleFound(em: SqlEntityManager, found: CardSettlement): Promise<SettleCardResult> {
    const { deposit, account, port, reference } = found;
    const result = await forPayment('deposit', deposit.id, () => port.settleCard(account, reference));
    if (!result.ok) return { deposit, errors: [{ field: [], code: result.error.code, message: result.error.message }], alreadyProcessed: false };
    const truth = result.value.deposit;

    if (truth.merchantReference !== deposit.id) {
      // Spec: "on approved, verify merchant_reference matches the order before fulfilling". A
      // different echo means the provider answered about another order: apply nothing.
      this.deps.logger.error(
        { anomaly: 'MERCHANT_REFERENCE_MISMATCH', depositId: deposit.id, reference, reportedMerchantReference: truth.merchantReference ?? null, reportedStatus: truth.providerStatus },
        'card settle answered for another order; nothing applied',
      );
      return {
        deposit,
        errors: [{ field: ['depositId'], code: 'MERCHANT_REFERENCE_MISMATCH', message: 'The provider\'s settle result is not about this deposit; nothing was applied' }],
        alreadyProcessed: false,
      };
    }

    if (truth.status === 'REFUNDED' && (deposit.status === 'SUCCEEDED' || deposit.status === 'REFUNDED')) {
      // The settle call asks how the card payment ended, and that was applied before: approved.
      // `refunded` ("returned, in full or in part", the spec) speaks of refunds since, which reach
      // the deposit through their own events and reconciliation, not through a settle call that
      // any cashier may repeat at will.
      return { deposit, errors: [], alreadyProcessed: true };
    }

    const applied = await em.transactional(async (tx) => {
      // Committed with the change: the settle result carries no fee or net (the detail fetch, as
      // after a webhook), and refunds that overtook the payment are released (reactions of the change).
      return this.deps.transitions.apply(tx, depositTransitions, {
          id: deposit.id,
          change: {
            status: truth.status,
            providerStatus: truth.providerStatus,
            ...(truth.declineReason !== undefined ? { declineReason: truth.declineReason } : {}),
            ...(truth.amount !== undefined ? { amount: truth.amount } : {}),
            providerReference: truth.reference,
          },
          source: `card-settle:${account.code}`,
      });
    });
    // The status was applied before: by an earlier settle, or by the payment's own webhook, which
    // names no decline reason. What this answer adds is recorded now, so the caller sees it at once,
    // not only once the detail fetch has run; an earlier settle's answer added it already.
    if (applied.outcome === 'noop') await this.deps.deposits.recordDetails(em, deposit, truth);
    const current = await em.refreshOrFail(deposit);
    if (applied.outcome === 'anomaly') {
      // A warning, not an error: a client asks for this call as often as it likes, so what it
      // answers must not page an operator each time. The reason is on the record and in the answer.
      this.deps.logger.warn({ anomaly: applied.reason, depositId: deposit.id, reference }, 'card settle result refused');
      const code = userErrorCodeOf(applied.reason, 'ANOMALY');
      return { deposit: current, errors: [{ field: [], code, message: 'The provider\'s settle result does not fit this deposit; nothing was applied' }], alreadyProcessed: false };
    }
    return { deposit: current, errors: [], alreadyProcessed: applied.outcome === 'noop' && result.value.settled };
  }

  private async cardDeposit(
    em: SqlEntityManager,
    client: ApiClient,
    depositId: string,
  ): Promise<CardSettlement | { ok: false; notFound: true } | { ok: false; notFound: false; error: FieldError }> {
    const deposit = await this.deps.deposits.findVisible(em, client, depositId);
    if (!deposit) return { ok: false, notFound: true };
    return this.prepare(deposit);
  }

  private prepare(deposit: Deposit): CardSettlement | { ok: false; notFound: false; error: FieldError } {
    if (deposit.rail !== 'CARD') {
      return { ok: false, notFound: false, error: { field: ['depositId'], code: 'NOT_A_CARD_DEPOSIT', message: `Deposit ${deposit.id} is on the ${deposit.rail} rail; the card form serves CARD deposits only` } };
    }
    const account = this.deps.accounts.get(deposit.merchantAccount);
    if (!account) {
      return { ok: false, notFound: false, error: { field: [], code: 'ACCOUNT_NOT_CONFIGURED', message: `Merchant account ${deposit.merchantAccount} is not configured on this gateway` } };
    }
    if (!deposit.providerReference) {
      return { ok: false, notFound: false, error: { field: ['depositId'], code: 'DEPOSIT_NOT_SUBMITTED', message: `Deposit ${deposit.id} has not reached the provider yet; try again shortly` } };
    }
    const found = this.deps.providers.adapterFor(account, 'cardForm');
    if (!found.ok) return { ok: false, notFound: false, error: { field: ['depositId'], ...found.error } };
    return { ok: true, deposit, account, port: found.port, reference: deposit.providerReference };
  }
}
