// The QR gateway adapter: Thai QR deposits, webhook registration, test-mode simulation and webhook
// verification, over the provider's HTTP API. The only place that knows the provider's URLs and words.

import { randomBytes } from 'node:crypto';
import type { Logger } from '../../lib/logger.js';
import type {
  CreateDepositRequest,
  DepositProvider,
  FieldError,
  MerchantAccount,
  ProviderDeposit,
  ProviderError,
  ProviderResult,
  RailDetails,
  RawWebhook,
  RegisterWebhookRequest,
  WebhookRegistration,
  WebhookVerification,
} from '../provider.js';
import type { SimulationPort, WebhookRegistrationPort } from '../ports.js';
import { noTransport, type ProviderTransport } from '../transport.js';
import { toProviderAmount } from './amount.js';
import {
  DEFAULT_EXPIRY_SECONDS,
  GENERATED_SECRET_PREFIX,
  IDEMPOTENCY_HEADER,
  PING_PATH,
  QR_CODES_PATH,
  QR_CURRENCY,
  QR_EVENTS,
  QR_WIRE,
  WEBHOOKS_PATH,
  lookupPathOf,
  simulatePath,
  type AmountUnit,
  type QrWire,
} from './assumptions.js';
import { isObject, parseJsonExact, stringifyJsonExact } from './json.js';
import { mapErrorResponse, mapQrCode, mapWebhookEvent, providerError } from './mapping.js';
import { verifySignature } from './signature.js';
import { normalizeBankAccount, validateQrDeposit, validateWebhookRegistration } from './validation.js';

export interface QrGatewayAdapterOptions {
  /** Unit of the provider's integer `amount` (assumption Q2); must match the provider account. */
  amountUnit: AmountUnit;
  /**
   * Sends the provider calls (time-outs, retries, call logs, metrics): the gateway's, or one a test
   * makes (src/kernel/provider-transport.ts). Without one the adapter validates, verifies and
   * parses, and throws on a call.
   */
  transport?: ProviderTransport;
  /** The unstated wire names (Q1, Q3, Q4, Q15); default `QR_WIRE`. The provider's `QR_GATEWAY_WIRE_*` settings; default `QR_WIRE`. */
  wire?: Partial<QrWire>;
  logger?: Logger;
}

export type QrGatewayAdapter = DepositProvider & WebhookRegistrationPort & SimulationPort & { readonly name: 'qr-gateway' };

type HttpOutcome = { ok: true; status: number; body: unknown } | { ok: false; error: ProviderError };

interface CallOptions {
  /** The adapter operation, for the logs and metrics. */
  operation: string;
  body?: unknown;
  idempotencyKey?: string;
  /** Only calls that are safe to repeat are retried: reads, and creation under an idempotency key. */
  retry: boolean;
}

/** A 429 (rate limited) is worth asking again after the back-off, like a 5xx. */
const isTransient = (status: number) => status === 429 || status >= 500;

/** The fields whose values the call logs show: statuses, amounts and ids, never the payer's name or bank account. */
const SHOWN_FIELDS = ['status', 'amount', 'currency', 'reference', 'payment_id', 'id', 'webhook_id', 'outcome', 'code', 'type'];

function fail<T>(error: ProviderError): ProviderResult<T> {
  return { ok: false, error };
}

/** What every operation of one adapter shares: the amount unit and wire names it was made with, its log, and its calls. */
interface QrContext {
  unit: AmountUnit;
  wire: QrWire;
  log: Logger | undefined;
  call: (account: MerchantAccount, method: 'GET' | 'POST', path: string, callOptions: CallOptions) => Promise<HttpOutcome>;
}

function qrContext(options: QrGatewayAdapterOptions): QrContext {
  // The provider registry hands every adapter a logger that binds `provider` already: a second
  // binding would write the key twice on every line.
  const log = options.logger;
  const sender =
    options.transport?.sender({ provider: 'qr-gateway', idempotencyHeader: IDEMPOTENCY_HEADER, transientStatus: isTransient, shownFields: SHOWN_FIELDS, logger: log }) ?? noTransport('qr-gateway');
  return {
    unit: options.amountUnit,
    wire: { ...QR_WIRE, ...options.wire },
    log,
    call: async (account, method, path, callOptions) => {
      // Spec, Authentication 1: requests carry the bearer key and `Content-Type: application/json`:
      // every one, GETs included (a gateway in front of the provider may refuse a request without it).
      const headers = { Authorization: `Bearer ${account.apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' };
      const response = await sender.send({
        operation: callOptions.operation,
        account: account.code,
        method,
        baseUrl: account.baseUrl,
        path,
        headers,
        body: callOptions.body === undefined ? undefined : stringifyJsonExact(callOptions.body),
        idempotencyKey: callOptions.idempotencyKey,
        retryable: callOptions.retry,
      });
      if (response.kind === 'unanswered') return { ok: false, error: providerError('PROVIDER_UNAVAILABLE', { providerMessage: response.message }) };
      let body: unknown;
      try {
        body = response.text === '' ? undefined : parseJsonExact(response.text);
      } catch {
        body = undefined;
      }
      return { ok: true, status: response.status, body };
    },
  };
}

/**
 * Creates the QR gateway adapter.
 *
 * @example
 * const qr = createQrGatewayAdapter({ amountUnit: 'satang', transport, logger });
 * const result = await qr.createDeposit(account, { depositId, amount, details: { rail: 'THAI_QR', payer: { name }, clientId }, customer: {} });
 */
export function createQrGatewayAdapter(options: QrGatewayAdapterOptions): QrGatewayAdapter {
  const context = qrContext(options);
  return {
    name: 'qr-gateway',
    rails: ['THAI_QR'] as const,
    webhookEvents: QR_EVENTS,
    ...depositOperations(context),
    ...webhookOperations(context),
    ...simulationOperations(context),
  };
}

/** Deposits: validating, creating a QR code, looking one up, and the ping. */
function depositOperations(context: QrContext): Pick<QrGatewayAdapter, 'validateDeposit' | 'defaultCurrency' | 'createDeposit' | 'getDeposit' | 'ping'> {
  const { unit, wire, log, call } = context;
  return {
    validateDeposit(_account: MerchantAccount, request: Omit<CreateDepositRequest, 'depositId'>): FieldError[] {
      return validateQrDeposit(request, unit);
    },

    defaultCurrency(details: RailDetails): string {
      return details.rail === 'THAI_QR' ? QR_CURRENCY : '';
    },

    async createDeposit(account: MerchantAccount, request: CreateDepositRequest): Promise<ProviderResult<ProviderDeposit>> {
      const { details } = request;
      const problems = validateQrDeposit(request, unit);
      if (details.rail !== 'THAI_QR' || problems.length > 0) {
        return fail(providerError('PROVIDER_REJECTED', { message: problems[0]?.message ?? 'The QR gateway serves THAI_QR only' }));
      }
      const amount = toProviderAmount(request.amount, unit);
      if (!amount.ok) return fail(providerError('PROVIDER_REJECTED', { message: 'This QR account takes whole baht only' }));

      const body: Record<string, unknown> = {
        amount: amount.value,
        currency: QR_CURRENCY,
        reference: request.depositId,
        client_name: details.payer.name.trim(),
        metadata: { client_id: details.clientId },
      };
      // Q3: a lifetime is sent only when one was asked for; the field's name is not stated.
      if (details.expiresInSeconds !== undefined) body[wire.expiryField] = details.expiresInSeconds;
      if (details.payer.bankName?.trim()) body.client_bank_name = details.payer.bankName.trim();
      if (details.payer.bankAccount) body.client_bank_account = normalizeBankAccount(details.payer.bankAccount);

      const requestedAt = Date.now();
      const outcome = await call(account, 'POST', QR_CODES_PATH, { operation: 'createDeposit', body, idempotencyKey: request.depositId, retry: true });
      const result = qrCodeResult(context, outcome, true, new Date(requestedAt + (details.expiresInSeconds ?? DEFAULT_EXPIRY_SECONDS) * 1000));
      if (result.ok) log?.info({ account: account.code, depositId: request.depositId, reference: result.value.reference }, 'qr code created');
      else log?.warn({ account: account.code, depositId: request.depositId, code: result.error.code, httpStatus: result.error.httpStatus }, 'qr code not created');
      return result;
    },

    async getDeposit(account: MerchantAccount, reference: string): Promise<ProviderResult<ProviderDeposit>> {
      return qrCodeResult(context, await call(account, 'GET', lookupPathOf(wire, reference), { operation: 'getDeposit', retry: true }), false);
    },

    async ping(account: MerchantAccount): Promise<boolean> {
      const outcome = await call(account, 'GET', PING_PATH, { operation: 'ping', retry: false });
      return outcome.ok && outcome.status >= 200 && outcome.status < 300;
    },
  };
}

/** Webhooks: verifying and reading a delivery, and registering an endpoint with the provider. */
function webhookOperations(context: QrContext): Pick<QrGatewayAdapter, 'verifyWebhook' | 'parseWebhook' | 'registerWebhook'> {
  const { wire, log, call } = context;
  return {
    verifyWebhook(account: MerchantAccount, webhook: RawWebhook): WebhookVerification {
      const check = verifySignature({
        header: webhook.headers[wire.signatureHeader],
        body: webhook.body,
        secrets: account.webhookSecrets,
        now: webhook.receivedAt ?? new Date(),
      });
      if (!check.ok) return { ok: false, reason: check.reason };
      return parseVerifiedWebhook(context, account, webhook.body);
    },

    parseWebhook(account: MerchantAccount, body: Buffer): WebhookVerification {
      return parseVerifiedWebhook(context, account, body);
    },

    async registerWebhook(account: MerchantAccount, request: RegisterWebhookRequest): Promise<ProviderResult<WebhookRegistration>> {
      const problem = validateWebhookRegistration(request, account.livemode);
      if (problem) return fail(providerError(problem.code, { message: problem.message }));
      const events = [...new Set(request.events)];
      // Always send a secret: the registration response has no secret field (Q19).
      const secret = request.secret ?? `${GENERATED_SECRET_PREFIX}${randomBytes(32).toString('hex')}`;

      // Not retried: registrations are not idempotent, a repeat would register the URL twice.
      const outcome = await call(account, 'POST', WEBHOOKS_PATH, { operation: 'registerWebhook', body: { url: request.url, events, secret }, retry: false });
      if (!outcome.ok) return fail(outcome.error);
      if (outcome.status < 200 || outcome.status >= 300) {
        const error = mapErrorResponse(outcome.status, outcome.body, 'registerWebhook');
        log?.warn({ account: account.code, code: error.code, httpStatus: outcome.status }, 'webhook registration refused');
        return fail(error);
      }
      const body = outcome.body;
      if (!isObject(body) || typeof body.webhook_id !== 'string') {
        return fail(providerError('PROVIDER_UNAVAILABLE', { httpStatus: outcome.status, providerMessage: 'unreadable registration response' }));
      }
      const createdAt = typeof body.created_at === 'string' ? new Date(body.created_at) : new Date();
      const registration: WebhookRegistration = {
        id: body.webhook_id,
        url: typeof body.url === 'string' ? body.url : request.url,
        events: Array.isArray(body.events) ? body.events.filter((event): event is string => typeof event === 'string') : events,
        status: typeof body.status === 'string' ? body.status : 'active',
        createdAt: Number.isNaN(createdAt.getTime()) ? new Date() : createdAt,
        secret,
      };
      log?.debug({ account: account.code, webhookId: registration.id, events: registration.events }, 'webhook registered');
      return { ok: true, value: registration };
    },
  };
}

/** The sandbox's simulate button (Q8). */
function simulationOperations(context: QrContext): Pick<QrGatewayAdapter, 'simulatePayment'> {
  return {
    async simulatePayment(account: MerchantAccount, reference: string, outcome: 'SUCCEEDED' | 'FAILED'): Promise<ProviderResult<ProviderDeposit>> {
      // Q8: the real provider simulates from its merchant dashboard only; this route is the sandbox's
      // twin of its dashboard's simulate button, which it reaches through the same code.
      if (!account.sandbox || account.livemode) {
        return fail(providerError('PROVIDER_REJECTED', { message: 'Payments can be simulated on sandbox test accounts only' }));
      }
      const body = { outcome: outcome === 'SUCCEEDED' ? 'succeeded' : 'failed' };
      return qrCodeResult(context, await context.call(account, 'POST', simulatePath(reference), { operation: 'simulatePayment', body, retry: false }), false);
    },
  };
}

/**
 * A QR code object response (create, lookup, simulate) as a result. A create passes the moment
 * its code expires by default (`expiresAfter`, Q3) and needs the code's payload.
 */
function qrCodeResult(context: QrContext, outcome: HttpOutcome, requirePayload: boolean, expiresAfter?: Date): ProviderResult<ProviderDeposit> {
  if (!outcome.ok) return fail(outcome.error);
  if (outcome.status < 200 || outcome.status >= 300) return fail(mapErrorResponse(outcome.status, outcome.body, 'qrCode'));
  const deposit = mapQrCode(outcome.body, context.unit, context.wire, expiresAfter);
  if (!deposit || (requirePayload && !deposit.qrCode)) {
    // A 2xx we cannot read may still have created the code: say so, so the record stays recoverable.
    return fail(providerError('PROVIDER_UNAVAILABLE', { httpStatus: outcome.status, providerMessage: 'unreadable QR code response' }));
  }
  return { ok: true, value: deposit };
}

/** Reads a body whose signature was already checked. */
function parseVerifiedWebhook(context: QrContext, account: MerchantAccount, body: Buffer): WebhookVerification {
  let payload: unknown;
  try {
    payload = parseJsonExact(body.toString('utf8'));
  } catch {
    return { ok: false, reason: 'PAYLOAD_INVALID' };
  }
  const event = mapWebhookEvent(payload, body, context.unit, account.livemode);
  return event ? { ok: true, event } : { ok: false, reason: 'PAYLOAD_INVALID' };
}
