// The domain services, created once per gateway and shared by every request (they hold no
// request state; each call receives its own EntityManager fork), and the job kinds they handle.

import type { GatewayConfig } from './config.js';
import { createLogger, type Logger } from './lib/logger.js';
import { JobQueue } from './kernel/jobs.js';
import { LocalPubSub } from './lib/pubsub.js';
import type { MerchantAccount } from './providers/provider.js';
import { createDepositGatewayAdapter } from './providers/deposit-gateway/index.js';
import { createQrGatewayAdapter } from './providers/qr-gateway/index.js';
import { ApiClientService } from './modules/clients/api-client.service.js';
import { EventLog } from './kernel/events/event-log.js';
import { MerchantAccountService } from './modules/merchant-accounts/merchant-account.service.js';
import { WebhookInbox } from './kernel/inbox/inbox.js';
import { DepositService } from './modules/deposits/deposit.service.js';
import { RefundService } from './modules/refunds/refund.service.js';
import { refundWebhookHandler } from './modules/refunds/refund-webhooks.js';
import { chargebackWebhookHandler } from './modules/disputes/chargeback-webhooks.js';
import { PayoutService } from './modules/payouts/payout.service.js';
import { createPayoutWebhookHandler } from './modules/payouts/payout-webhooks.js';
import { withdrawalWebhookHandler } from './modules/withdrawals/withdrawal-webhooks.js';
import { WithdrawalService } from './modules/withdrawals/withdrawal.service.js';
import { QrCodeService } from './modules/qr-codes/qr-code.service.js';
import { CardFormService } from './modules/deposits/card-form.service.js';
import { Reconciler } from './modules/reconciliation/reconciler.js';
import { accountsWithPayoutsDue, reconcilePendingPayouts } from './modules/payouts/payout-reconciliation.js';
import { WebhookAdminService } from './modules/webhooks/webhook-admin.service.js';
import { AdminActionService } from './modules/audit/admin-action.service.js';
import { IdempotencyLayer } from './kernel/idempotency.js';
import { OperationRunner } from './kernel/operation.js';
import { registerDepositJobs } from './modules/deposits/deposit-jobs.js';
import { registerInboxJobs } from './kernel/inbox/deferred.js';
import { TransitionPath } from './kernel/transitions.js';
import { depositWebhookHandler } from './modules/deposits/deposit-webhooks.js';
import { depositTransitions } from './modules/deposits/deposit-transitions.js';
import { refundTransitions } from './modules/refunds/refund-transitions.js';
import { applyPaymentRefunded } from './modules/refunds/refund-accounting.js';
import { payoutTransitions } from './modules/payouts/payout-transitions.js';
import { withdrawalTransitions } from './modules/withdrawals/withdrawal-webhooks.js';

import type { Services } from './graphql/services.js';

export type { Services };

export interface CreateServicesOptions {
  merchantAccounts: MerchantAccount[];
  providers: GatewayConfig['providers'];
  logger?: Logger;
}

export function createServices(options: CreateServicesOptions): Services {
  const accounts = new MerchantAccountService(options.merchantAccounts);
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const { timeoutMs, maxRetries, qrAmountUnit } = options.providers;
  const events = new EventLog();
  const providers = {
    'deposit-gateway': createDepositGatewayAdapter({ timeoutMs, maxRetries, logger: logger.child({ provider: 'deposit-gateway' }) }),
    'qr-gateway': createQrGatewayAdapter({ amountUnit: qrAmountUnit, timeoutMs, maxRetries, logger: logger.child({ provider: 'qr-gateway' }) }),
  };
  // A key's holder may spend every provider attempt before it answers; a crashed holder's key is
  // taken over after that.
  const idempotency = new IdempotencyLayer({ leaseMs: timeoutMs * (maxRetries + 1) + 5_000, logger: logger.child({ component: 'idempotency' }) });
  const operations = new OperationRunner({ idempotency, logger: logger.child({ component: 'operations' }) });
  const jobs = new JobQueue(logger.child({ component: 'jobs' }));
  // Every subject kind's status changes through one path: registered here, once.
  const transitions = new TransitionPath(events, jobs);
  transitions.register(depositTransitions);
  transitions.register(refundTransitions);
  transitions.register(payoutTransitions);
  transitions.register(withdrawalTransitions);
  const deposits = new DepositService({ accounts, providers, events, transitions, operations, logger: logger.child({ component: 'deposits' }) });
  const replaySources = { account: (code: string) => accounts.get(code), provider: (name: keyof typeof providers) => providers[name] };
  const webhooks = new WebhookInbox(replaySources);
  webhooks.register('deposit', depositWebhookHandler({ transitions, paymentRefunded: (tx, report) => applyPaymentRefunded(tx, report, transitions) }));
  webhooks.register('refund', refundWebhookHandler(transitions));
  webhooks.register('chargeback', chargebackWebhookHandler(events));
  webhooks.register('payout', createPayoutWebhookHandler(transitions));
  webhooks.register('withdrawal', withdrawalWebhookHandler(transitions));
  registerDepositJobs(jobs, deposits);
  registerInboxJobs(jobs, webhooks);
  const payouts = new PayoutService({ accounts, provider: providers['deposit-gateway'], events, transitions, operations, logger: logger.child({ component: 'payouts' }) });
  const refunds = new RefundService({ accounts, providers: { 'deposit-gateway': providers['deposit-gateway'] }, transitions, operations, logger: logger.child({ component: 'refunds' }) });
  const reconcilerLogger = logger.child({ component: 'reconciler' });
  return {
    accounts,
    clients: new ApiClientService(() => accounts.codes()),
    events,
    webhooks,
    transitions,
    deposits,
    payouts,
    withdrawals: new WithdrawalService(),
    qrCodes: new QrCodeService({ accounts, provider: providers['qr-gateway'], deposits, logger: logger.child({ component: 'qr-codes' }) }),
    refunds,
    cardForm: new CardFormService({ accounts, provider: providers['deposit-gateway'], deposits, transitions, logger: logger.child({ component: 'card-form' }) }),
    reconciler: new Reconciler({
      accounts,
      providers,
      deposits,
      refunds,
      events,
      transitions,
      jobs,
      logger: reconcilerLogger,
      payouts: {
        accountsDue: (em, options) => accountsWithPayoutsDue(em, options),
        reconcile: async (em, account, options) => {
          const result = await reconcilePendingPayouts(
            em,
            account,
            { provider: providers['deposit-gateway'], events, transitions, resume: (fork, id) => payouts.resume(fork, id) },
            { ...options, logger: reconcilerLogger },
          );
          return { checked: result.checked, applied: result.applied, resubmitted: result.resubmitted, missing: result.missing.length };
        },
      },
    }),
    webhookAdmin: new WebhookAdminService({ webhooks }),
    adminActions: new AdminActionService(),
    pubsub: new LocalPubSub(),
    idempotency,
    jobs,
    providers,
  };
}
