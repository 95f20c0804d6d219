// The QR sandbox's codes and what may happen to them: creation under Q1's rules, settling once
// (Q5) when paid, failed or expired on the scaled clock, the simulate button (Q8), the dashboard's
// refunds and withdrawals (Q7), each queueing its webhook, and a code as Q1's JSON object.

import { randomBytes } from 'node:crypto';
import type { Logger } from '../../lib/logger.js';
import {
  BANK_ACCOUNT_PATTERN,
  DEFAULT_EXPIRY_SECONDS,
  ERROR_CODES,
  EXPIRY_BOUNDS_SECONDS,
  NAME_MAX_LENGTH,
  QR_CODE_ID_PREFIX,
  QR_CURRENCY,
  REFERENCE_MAX_LENGTH,
  SIMULATION_OUTCOMES,
  type AmountUnit,
  type FailureReason,
  type PaymentStatusWord,
  type QrWire,
} from '../../providers/qr-gateway/assumptions.js';
import type { DeliveryQueue } from './deliveries.js';
import { HttpError, invalid } from './errors.js';
import { buildPromptPayPayload, sandboxMerchantId } from './promptpay.js';
import { amountBounds, bahtText, isJsonObject as isObject, type JsonObject } from './wire.js';

/** A stored QR code, as the controls report it. */
export interface QrSandboxCode {
  id: string;
  reference: string;
  /** In the sandbox's amount unit. */
  amount: bigint;
  currency: string;
  status: PaymentStatusWord;
  failureReason?: FailureReason;
  qrPayload: string;
  metadata: JsonObject;
  livemode: boolean;
  createdAt: Date;
  expiresAt: Date;
  paidAt?: Date;
}

export interface StoredCode extends QrSandboxCode {
  apiKey: string;
  /** Refunded through the dashboard so far, in the sandbox's unit. */
  refunded: bigint;
  clientName: string;
  clientBankName?: string;
  expiryTimer?: NodeJS.Timeout;
}

/** What the codes are kept with: the sandbox's amount unit, wire names and clock, its webhook queue, which keys are live, and its log. */
export interface QrCodeBookOptions {
  unit: AmountUnit;
  wire: QrWire;
  timeScale: number;
  queue: DeliveryQueue;
  isLiveKey: (apiKey: string) => boolean;
  log: Logger | undefined;
}

/** Every QR code of the sandbox, by id. */
export class QrCodeBook {
  readonly codes = new Map<string, StoredCode>();
  /** Called when a code settles, so the state file is saved soon. */
  onChange: () => void = () => undefined;
  private readonly bounds: { min: bigint; max: bigint };

  constructor(private readonly options: QrCodeBookOptions) {
    this.bounds = amountBounds(options.unit);
  }

  snapshot(code: StoredCode): QrSandboxCode {
    const { apiKey: _key, clientName: _name, clientBankName: _bank, expiryTimer: _timer, refunded: _refunded, ...rest } = code;
    return { ...rest, metadata: { ...rest.metadata } };
  }

  /** Q1's object. */
  json(code: StoredCode): JsonObject {
    const { wire } = this.options;
    return {
      [wire.codeIdField]: code.id,
      reference: code.reference,
      amount: code.amount,
      currency: code.currency,
      status: code.status,
      [wire.payloadField]: code.qrPayload,
      [wire.expiresAtField]: code.expiresAt.toISOString(),
      created_at: code.createdAt.toISOString(),
      paid_at: code.paidAt?.toISOString() ?? null,
      failure_reason: code.failureReason ?? null,
      client_name: code.clientName,
      client_bank_name: code.clientBankName ?? null,
      metadata: code.metadata,
      livemode: code.livemode,
    };
  }

  private emitPayment(code: StoredCode): void {
    const data: JsonObject = {
      payment_id: code.id,
      reference: code.reference,
      status: code.status,
      amount: code.amount,
      currency: code.currency,
    };
    if (code.failureReason) data.failure_reason = code.failureReason;
    this.options.queue.enqueue(code.apiKey, `payment.${code.status}`, data);
  }

  /** Q5: pending → succeeded | failed, once. */
  settle(code: StoredCode, outcome: 'succeeded' | 'failed', reason?: FailureReason): void {
    if (code.status !== 'pending') throw new HttpError(409, ERROR_CODES.invalidState, `QR code ${code.id} is already ${code.status}`, 'invalid_request_error');
    if (code.expiryTimer) clearTimeout(code.expiryTimer);
    code.expiryTimer = undefined;
    code.status = outcome;
    if (outcome === 'succeeded') code.paidAt = new Date();
    else code.failureReason = reason ?? 'declined';
    this.options.log?.info({ id: code.id, status: code.status, failureReason: code.failureReason }, 'qr sandbox code settled');
    this.emitPayment(code);
    this.onChange();
  }

  /** POST /v1/qr-codes: the body checked against Q1's rules, the code stored with its PromptPay payload and its expiry on the scaled clock. */
  create(apiKey: string, body: unknown): StoredCode {
    const { unit, wire, timeScale, log } = this.options;
    const bounds = this.bounds;
    if (!isObject(body)) throw invalid('The request body must be a JSON object');
    const { amount, currency, reference } = body;
    if (amount === undefined || amount === null) throw invalid('amount is required');
    if (typeof amount !== 'bigint') throw invalid(`amount must be an integer in ${unit}`);
    if (amount <= 0n) throw invalid('amount must be greater than zero');
    if (amount < bounds.min) throw invalid(`amount must be at least ${bounds.min} ${unit}`, ERROR_CODES.amountTooSmall);
    if (amount > bounds.max) throw invalid(`amount must be at most ${bounds.max} ${unit}`, ERROR_CODES.amountTooLarge);
    if (currency === undefined || currency === null) throw invalid('currency is required');
    if (currency !== QR_CURRENCY) throw invalid('currency must be THB', ERROR_CODES.currencyNotSupported);
    if (typeof reference !== 'string' || reference.length === 0 || reference.length > REFERENCE_MAX_LENGTH) {
      throw invalid(`reference is required, 1 to ${REFERENCE_MAX_LENGTH} characters`);
    }
    const clientName = body.client_name;
    if (typeof clientName !== 'string' || clientName.trim() === '' || clientName.length > NAME_MAX_LENGTH) {
      throw invalid(`client_name is required, at most ${NAME_MAX_LENGTH} characters`);
    }
    const bankName = body.client_bank_name;
    if (bankName !== undefined && bankName !== null && (typeof bankName !== 'string' || bankName.length > NAME_MAX_LENGTH)) {
      throw invalid(`client_bank_name must be a string of at most ${NAME_MAX_LENGTH} characters`);
    }
    const bankAccount = body.client_bank_account;
    if (bankAccount !== undefined && bankAccount !== null && (typeof bankAccount !== 'string' || !BANK_ACCOUNT_PATTERN.test(bankAccount))) {
      throw invalid('client_bank_account must be 10 to 15 digits');
    }
    const metadata = body.metadata ?? {};
    if (!isObject(metadata)) throw invalid('metadata must be an object');
    const expiresIn = body[wire.expiryField] ?? BigInt(DEFAULT_EXPIRY_SECONDS);
    if (typeof expiresIn !== 'bigint' || expiresIn < BigInt(EXPIRY_BOUNDS_SECONDS.min) || expiresIn > BigInt(EXPIRY_BOUNDS_SECONDS.max)) {
      throw invalid(`${wire.expiryField} must be whole seconds from ${EXPIRY_BOUNDS_SECONDS.min} to ${EXPIRY_BOUNDS_SECONDS.max}`);
    }

    const id = `${QR_CODE_ID_PREFIX}${randomBytes(10).toString('hex')}`;
    const createdAt = new Date();
    const lifetimeMs = Number(expiresIn) * 1000 * timeScale;
    const code: StoredCode = {
      id,
      apiKey,
      reference,
      amount,
      currency: QR_CURRENCY,
      status: 'pending',
      qrPayload: buildPromptPayPayload({
        amountText: bahtText(amount, unit),
        merchantId: sandboxMerchantId(apiKey),
        referenceLabel: id,
      }),
      metadata,
      livemode: this.options.isLiveKey(apiKey),
      createdAt,
      // expires_at is when the code really stops working, on the scaled clock.
      expiresAt: new Date(createdAt.getTime() + lifetimeMs),
      clientName,
      refunded: 0n,
    };
    if (typeof bankName === 'string') code.clientBankName = bankName;
    this.expireAfter(code, lifetimeMs);
    this.codes.set(id, code);
    log?.info({ id, reference, amount: amount.toString() }, 'qr sandbox code created');
    this.emitPayment(code);
    return code;
  }

  /**
   * The dashboard's simulate button (spec: "success or failure is simulated from the merchant
   * dashboard"; Q8): test keys only, pending codes only. The one path every simulation takes, the
   * dashboard's form, the API twin the gateway's sandbox accounts call, and the test control alike.
   */
  simulate(code: StoredCode, outcome: string): void {
    if (this.options.isLiveKey(code.apiKey)) throw new HttpError(403, ERROR_CODES.testModeOnly, 'Payments can be simulated with test keys only', 'invalid_request_error');
    if (!(SIMULATION_OUTCOMES as readonly string[]).includes(outcome)) throw invalid(`outcome must be one of ${SIMULATION_OUTCOMES.join(', ')}`);
    this.settle(code, outcome as (typeof SIMULATION_OUTCOMES)[number]);
  }

  /** The dashboard's refund of a paid code: refund.completed or refund.failed (payload Q7). */
  refund(code: StoredCode, amount: bigint, outcome: 'completed' | 'failed'): string {
    const { unit, queue, log } = this.options;
    if (code.livemode) throw new HttpError(403, ERROR_CODES.testModeOnly, 'The sandbox dashboard works with test keys only', 'invalid_request_error');
    if (code.status !== 'succeeded') {
      throw new HttpError(409, ERROR_CODES.invalidState, `QR code ${code.id} is ${code.status}; only a paid code can be refunded`, 'invalid_request_error');
    }
    const refundable = code.amount - code.refunded;
    if (amount <= 0n || amount > refundable) throw invalid(`amount must be from 1 to ${refundable} ${unit}`);
    const refundId = `rf_${randomBytes(10).toString('hex')}`;
    if (outcome === 'completed') code.refunded += amount;
    log?.info({ id: code.id, refundId, amount: amount.toString(), outcome }, 'qr sandbox refund made on the dashboard');
    queue.enqueue(code.apiKey, `refund.${outcome}`, { refund_id: refundId, payment_id: code.id, status: outcome, amount, currency: code.currency });
    return refundId;
  }

  /** The dashboard's withdrawal from the balance: pending now, processed and then `outcome` a few (scaled) seconds apart (Q7). */
  withdraw(apiKey: string, amount: bigint, outcome: 'succeeded' | 'failed'): string {
    const { timeScale, queue, log } = this.options;
    if (this.options.isLiveKey(apiKey)) throw new HttpError(403, ERROR_CODES.testModeOnly, 'The sandbox dashboard works with test keys only', 'invalid_request_error');
    if (amount <= 0n) throw invalid('amount must be greater than zero');
    const withdrawalId = `wd_${randomBytes(10).toString('hex')}`;
    // All three events are queued now, the later two due later: the queue keeps them across a restart.
    for (const [status, delayMs] of [['pending', 0], ['processed', 2_000], [outcome, 4_000]] as const) {
      queue.enqueue(apiKey, `withdrawal.${status}`, { withdrawal_id: withdrawalId, status, amount, currency: QR_CURRENCY }, delayMs * timeScale);
    }
    log?.info({ withdrawalId, amount: amount.toString(), outcome }, 'qr sandbox withdrawal made on the dashboard');
    return withdrawalId;
  }

  /** The caller's code `id`; 404 for another key's, as for none. */
  owned(apiKey: string, id: string): StoredCode {
    const code = this.codes.get(id);
    if (!code || code.apiKey !== apiKey) throw new HttpError(404, ERROR_CODES.notFound, `No QR code ${id}`, 'invalid_request_error');
    return code;
  }

  /** Codes restored from the state file; a pending one expires when it would have, its lifetime having run while the sandbox was down. */
  restore(saved: StoredCode[]): void {
    for (const code of saved) {
      this.codes.set(code.id, code);
      if (code.status !== 'pending') continue;
      this.expireAfter(code, Math.max(0, code.expiresAt.getTime() - Date.now()));
    }
  }

  /** Stops every expiry timer (the sandbox closes). */
  clearTimers(): void {
    for (const code of this.codes.values()) if (code.expiryTimer) clearTimeout(code.expiryTimer);
  }

  private expireAfter(code: StoredCode, delayMs: number): void {
    code.expiryTimer = setTimeout(() => {
      code.expiryTimer = undefined;
      if (code.status === 'pending') this.settle(code, 'failed', 'expired');
    }, delayMs);
  }
}
