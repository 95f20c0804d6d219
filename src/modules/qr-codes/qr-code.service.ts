// Thai QR payments beyond what every deposit shares: registering the gateway's webhook URL with a
// provider that takes registrations (the QR gateway, or any provider offering the port), listing
// registrations, and driving test mode (simulated payer outcomes). Creating a QR payment is
// DepositService.create with the THAI_QR rail.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../lib/logger.js';
import { newId } from '../../lib/ids.js';
import { forPayment } from '../../kernel/payment-scope.js';
import type { ProviderAdapters } from '../../providers/ports.js';
import type { FieldError, MerchantAccount } from '../../providers/provider.js';
import type { ApiClient } from '../clients/api-client.entity.js';
import type { DepositService } from '../deposits/deposit.service.js';
import type { Deposit } from '../deposits/deposit.entity.js';
import type { MerchantAccountService } from '../merchant-accounts/merchant-account.service.js';
import { QrWebhookRegistration } from './qr-webhook-registration.entity.js';

export type SimulatedOutcome = 'SUCCEEDED' | 'FAILED';

export class QrCodeService {
  constructor(
    private readonly deps: {
      accounts: MerchantAccountService;
      /** The providers' ports: registration and simulation go to the account's own provider. */
      providers: ProviderAdapters;
      deposits: DepositService;
      logger: Logger;
    },
  ) {}

  /**
   * Registers `url` for `events` at the account's provider. The account's configured webhook secret is
   * sent, so deliveries verify with the secret the gateway already holds; no secret is stored or
   * shown anywhere else.
   */
  async register(
    em: SqlEntityManager,
    input: { merchantAccount: string; url: string; events: string[] },
  ): Promise<{ registration: QrWebhookRegistration | null; errors: FieldError[] }> {
    const account = this.deps.accounts.get(input.merchantAccount);
    if (!account) return { registration: null, errors: [{ field: ['merchantAccount'], code: 'MERCHANT_ACCOUNT_NOT_FOUND', message: `No merchant account "${input.merchantAccount}"` }] };
    const found = this.deps.providers.adapterFor(account, 'webhookRegistration');
    if (!found.ok) return { registration: null, errors: [{ field: ['merchantAccount'], ...found.error }] };
    const provider = found.port;
    const known = provider.webhookEvents;
    const unknown = input.events.filter((event) => !known.includes(event));
    if (input.events.length === 0 || unknown.length > 0) {
      return {
        registration: null,
        errors: [{ field: ['events'], code: 'INVALID_VALUE', message: `events must list one or more of ${known.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}` }],
      };
    }
    const result = await provider.registerWebhook(account, { url: input.url, events: input.events, secret: account.webhookSecrets[0]! });
    if (!result.ok) {
      const field = result.error.code === 'WEBHOOK_URL_INVALID' ? ['url'] : [];
      return { registration: null, errors: [{ field, code: result.error.code, message: result.error.message }] };
    }
    const registration = em.create(QrWebhookRegistration, {
      id: newId('whr'),
      merchantAccount: account.code,
      providerWebhookId: result.value.id,
      url: result.value.url,
      events: result.value.events,
      status: result.value.status,
      createdAt: new Date(),
    });
    await em.flush();
    return { registration, errors: [] };
  }

  list(em: SqlEntityManager, merchantAccount?: string): Promise<QrWebhookRegistration[]> {
    return em.find(QrWebhookRegistration, merchantAccount ? { merchantAccount } : {}, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /**
   * Registers the gateway's own webhook URL for every event on an account whose provider takes
   * registrations. With
   * `reuseExisting`, an active registration of that URL already stored is kept (a restart does not
   * register twice); an in-process sandbox forgets its registrations, so those are always renewed.
   */
  async registerGatewayWebhook(em: SqlEntityManager, account: MerchantAccount, webhookBaseUrl: string, options: { reuseExisting: boolean }): Promise<void> {
    const url = `${webhookBaseUrl}/webhooks/${account.provider}/${account.code}`;
    if (options.reuseExisting && (await em.findOne(QrWebhookRegistration, { merchantAccount: account.code, url, status: 'active' }))) return;
    const found = this.deps.providers.adapterFor(account, 'webhookRegistration');
    const events = found.ok ? [...found.port.webhookEvents] : [];
    const { errors } = await this.register(em, { merchantAccount: account.code, url, events });
    if (errors.length > 0) this.deps.logger.error({ account: account.code, errors }, 'could not register the gateway webhook with the provider');
    else this.deps.logger.info({ account: account.code, url }, 'registered the gateway webhook with the provider');
  }

  /**
   * The sandbox's "simulate success/failure" for a QR deposit: on an account the in-process sandbox
   * serves, in test mode. The real provider simulates from its merchant dashboard only (spec: What
   * the service does, 4), so for its accounts this is refused and the dashboard is the way.
   */
  async simulate(em: SqlEntityManager, client: ApiClient, depositId: string, outcome: SimulatedOutcome): Promise<{ deposit: Deposit | null; errors: FieldError[] }> {
    const deposit = await this.deps.deposits.findVisible(em, client, depositId);
    if (!deposit || deposit.rail !== 'THAI_QR') return { deposit: null, errors: [{ field: ['depositId'], code: 'NOT_FOUND', message: `No Thai QR deposit with id ${depositId}` }] };
    const account = this.deps.accounts.get(deposit.merchantAccount);
    const simulation = account && this.deps.providers.adapterFor(account, 'simulation');
    if (!account || !simulation?.ok || account.livemode || !account.sandbox || !deposit.providerReference) {
      const message = !deposit.providerReference
        ? 'The QR code was not created at the provider'
        : account?.livemode
          ? 'Payments can be simulated in test mode only'
          : "This account is the QR gateway's own test environment: simulate the payment from its merchant dashboard; the API simulates payments on the built-in sandbox only";
      return { deposit, errors: [{ field: ['depositId'], code: 'SIMULATION_NOT_AVAILABLE', message }] };
    }
    const reference = deposit.providerReference;
    const result = await forPayment('deposit', deposit.id, () => simulation.port.simulatePayment(account, reference, outcome));
    if (!result.ok) return { deposit, errors: [{ field: [], code: result.error.code, message: result.error.message }] };
    // The status itself arrives as the provider's signed webhook, like a real payment.
    return { deposit: await em.refreshOrFail(deposit), errors: [] };
  }
}
