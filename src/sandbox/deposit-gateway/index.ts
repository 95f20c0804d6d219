// Entry point of the deposit gateway sandbox: starts and stops its HTTP server, routes requests to the
// API and the hosted pages, injects test failures (traffic.ts), and exposes the controls tests and demos drive.

import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { Logger } from '../../lib/logger.js';
import { Money } from '../../lib/money.js';
import { Api, type ApiResult } from './api.js';
import { ScaledClock } from './clock.js';
import { HostedPages } from './hosted.js';
import { listen } from '../../lib/http.js';
import { BodyTooLarge, readBody, sendHtml, sendJson } from './http.js';
import { messagePage } from './pages.js';
import { StateFile } from '../state-file.js';
import { SandboxError, Simulator, type Outcome } from './simulator.js';
import { paymentView, payoutView, refundView, SandboxStore, type PaymentView, type SandboxAccount, type StoreSnapshot } from './store.js';
import { ApiTraffic, type FailNextOptions } from './traffic.js';
import { WebhookDispatcher, type DeliveryRecord, type WebhookEnvelope, type WebhookSwitches } from './webhooks.js';

export type { SandboxAccount } from './store.js';
export type { DeliveryRecord, WebhookEnvelope, WebhookSwitches } from './webhooks.js';
export { signPayload } from './webhooks.js';
export { SandboxError } from './simulator.js';
export type { FailNextOptions } from './traffic.js';

export interface DepositGatewaySandboxOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  accounts: SandboxAccount[];
  /** Real milliseconds per simulated millisecond: 1 = real time (default), 0.001 = 1000x faster. */
  timeScale?: number;
  /** Test mode completes direct payments by itself (the `.13` rule). Default true. */
  autoComplete?: boolean;
  /** Accept `http://localhost` / `http://127.0.0.1` return addresses for local demos. Default false (spec: https only). */
  allowInsecureReturnUrls?: boolean;
  /**
   * Directory to keep the sandbox's state in (`deposit-gateway.json`): sessions, payments, refunds,
   * payouts, idempotency answers and undelivered webhooks survive a restart. Without it, state lives
   * in memory only. Give the same `port` again so stored redirect addresses stay valid for the gateway.
   */
  stateDir?: string;
  logger?: Logger;
}

/** What the deposit sandbox writes to its state file. */
interface DepositSandboxState {
  store: StoreSnapshot;
  undelivered: Array<{ apiKey: string; envelope: WebhookEnvelope }>;
}

/** The provider-side record of a payment: the GET view plus what only the provider knows. */
export interface SandboxPaymentSnapshot extends PaymentView {
  livemode: boolean;
  rail: string;
  redirect_url: string;
  return_url: string | null;
  session_id: string | null;
  chargeback: 'opened' | null;
  /** When a LATAM link stops taking a payment (A33), on the scaled clock; null for other rails. */
  link_expires_at: string | null;
}

export interface DepositGatewaySandboxControls {
  addAccount(account: SandboxAccount): void;
  setAccount(apiKey: string, partial: Partial<Omit<SandboxAccount, 'apiKey'>>): void;
  setAutoComplete(on: boolean): void;
  /** Webhook switches for the whole sandbox, or for one account with `apiKey`. */
  webhooks(switches: WebhookSwitches & { apiKey?: string }): void;
  failNext(options?: FailNextOptions): void;
  /** Forgets every failNext rule not used up yet (requests already held still end as their rule says). */
  clearFailures(): void;
  /**
   * What the hosted pages' buttons do. Returns the payment reference. Throws SandboxError if unknown
   * or expired, or for an outcome the payment's rail does not have (a crypto payment is approved or
   * declined, nothing else). `declineReason`: one of the spec's card decline reasons, for a declined card payment.
   */
  complete(referenceOrSessionId: string, outcome: Outcome, options?: { declineReason?: string }): string;
  /** Cancels a refund still under review: refund_status `cancelled`, event `refund.cancelled` (A11). Throws SandboxError once decided. */
  cancelRefund(refundId: string): void;
  /**
   * Emits any event, signed and delivered like the sandbox's own, with `data` as given: an event name
   * the spec does not list shows how a receiver treats event types "added over time".
   */
  emitEvent(apiKey: string, event: string, data: Record<string, unknown>): WebhookEnvelope;
  /** Emits chargeback.opened for an approved (non UPI/PIX) payment. Throws SandboxError otherwise. */
  openChargeback(reference: string): void;
  /** Every delivery attempt (and every dropped webhook, `dropped: true`), oldest first. */
  deliveries(): DeliveryRecord[];
  /** Every event emitted, delivered or not, oldest first. */
  events(apiKey?: string): WebhookEnvelope[];
  /** API requests received under /v1 whose path starts with the prefix (`/payments` or `/v1/payments`). */
  requestCount(pathPrefix?: string, method?: string): number;
  /**
   * Those of them the sandbox has processed: answered, or done for a caller that had gone (a held
   * request counts once its hold is over; one failed by failNext without processing never does).
   */
  processedCount(pathPrefix?: string, method?: string): number;
  /** From now on the payment reports this `net` instead of amount minus fee (a provider fault, for tests). */
  misreportNet(reference: string, net: string): void;
  /** The raw bodies of those requests, byte for byte as received, oldest first. */
  requestBodies(pathPrefix?: string, method?: string): string[];
  /** When each of those requests arrived (epoch ms, the machine's real clock, not the scaled one), oldest first. */
  requestTimes(pathPrefix?: string, method?: string): number[];
  payment(reference: string): SandboxPaymentSnapshot | undefined;
  payout(reference: string): Record<string, unknown> | undefined;
  refunds(paymentReference: string): Array<Record<string, unknown>>;
  /** Every payment, refund and payout the sandbox holds, oldest first (what a dashboard shows the merchant). */
  records(): SandboxRecords;
  /** Resolves when no delivery, retry or simulated timer is pending. */
  idle(): Promise<void>;
}

/** The sandbox's whole store, as `records()` returns it. */
export interface SandboxRecords {
  payments: SandboxPaymentSnapshot[];
  /** Each as GET-style views: `reference` is the payment's. */
  refunds: Array<Record<string, unknown>>;
  payouts: Array<Record<string, unknown>>;
}

export interface DepositGatewaySandbox {
  /** e.g. http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  /** e.g. http://127.0.0.1:PORT */
  checkoutUrl: string;
  controls: DepositGatewaySandboxControls;
  /** Stops the server and all pending deliveries and timers. */
  close(): Promise<void>;
}

/** One running sandbox: what its handlers and controls share. */
interface SandboxContext {
  logger: Logger | undefined;
  clock: ScaledClock;
  store: SandboxStore;
  dispatcher: WebhookDispatcher;
  traffic: ApiTraffic;
  // The server must listen before the checkout address is known; the handlers read these late.
  api: Api | undefined;
  pages: HostedPages | undefined;
  state: StateFile<DepositSandboxState> | undefined;
}

/**
 * Starts a simulator of the deposit gateway's test mode on its own HTTP server.
 *
 * @example
 * const sandbox = await startDepositGatewaySandbox({
 *   accounts: [{ apiKey: 'svc_test_demo', webhookSecret: 'whsec_demo', webhookUrl: 'http://127.0.0.1:4000/webhooks/deposit-gateway/demo' }],
 *   timeScale: 0.001,
 * });
 * // POST `${sandbox.baseUrl}/payments` with `Authorization: Bearer svc_test_demo` …
 * await sandbox.controls.idle();
 * await sandbox.close();
 */
export async function startDepositGatewaySandbox(options: DepositGatewaySandboxOptions): Promise<DepositGatewaySandbox> {
  // `sandbox`, as the QR sandbox names itself: the sandbox host's logger binds `component` already.
  const logger = options.logger?.child({ sandbox: 'deposit-gateway' });
  const clock = new ScaledClock(options.timeScale ?? 1);
  const store = new SandboxStore();
  for (const account of options.accounts) store.accounts.set(account.apiKey, { ...account });
  const dispatcher = new WebhookDispatcher(clock, (apiKey) => store.accounts.get(apiKey), logger);
  const sandbox: SandboxContext = { logger, clock, store, dispatcher, traffic: new ApiTraffic(), api: undefined, pages: undefined, state: undefined };

  const server = http.createServer((request, response) => {
    void route(sandbox, request, response).catch((error: unknown) => {
      if (error instanceof BodyTooLarge) {
        if (!response.headersSent) sendJson(response, 413, { ok: false, error: 'Request body too large' });
        return;
      }
      logger?.error({ err: error, url: request.url }, 'sandbox request failed');
      if (!response.headersSent) sendJson(response, 500, { ok: false, error: 'Internal server error' });
      else response.destroy();
    });
  });

  const address = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const checkoutUrl = `http://${host}:${address.port}`;
  const sim = new Simulator(store, dispatcher, clock, checkoutUrl, options.autoComplete ?? true);
  if (options.stateDir !== undefined) {
    const state = new StateFile<DepositSandboxState>(path.join(options.stateDir, 'deposit-gateway.json'), () => ({ store: store.snapshot(checkoutUrl), undelivered: dispatcher.undelivered() }), logger);
    sandbox.state = state;
    const saved = state.load();
    if (saved) {
      store.restore(saved.store, checkoutUrl);
      dispatcher.resend(saved.undelivered);
      sim.resume();
      logger?.info({ payments: saved.store.payments.length, undeliveredWebhooks: saved.undelivered.length, file: state.file }, 'deposit gateway sandbox state restored');
    }
    const saveSoon = state.saveSoon.bind(state);
    clock.onFire = saveSoon;
    dispatcher.onChange = saveSoon;
  }
  sandbox.api = new Api(store, sim, clock, checkoutUrl, options.allowInsecureReturnUrls ?? false);
  sandbox.pages = new HostedPages(store, sim, clock, checkoutUrl);
  logger?.info({ checkoutUrl, stateFile: sandbox.state?.file ?? null }, 'deposit gateway sandbox listening');

  const controls: DepositGatewaySandboxControls = { ...drivingControls(sandbox, sim), ...readingControls(sandbox) };
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `${checkoutUrl}/v1`,
    checkoutUrl,
    controls,
    close() {
      closing ??= new Promise<void>((resolve) => {
        sandbox.traffic.close();
        // Saved before the dispatcher drops its queues: deliveries cut short are sent again next start.
        try {
          sandbox.state?.close();
        } catch (error) {
          logger?.error({ err: error }, 'deposit gateway sandbox state not saved on close');
        }
        dispatcher.close();
        clock.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

async function route(sandbox: SandboxContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://sandbox.invalid');
  if (url.pathname === '/healthz') return sendJson(response, 200, { ok: true });
  if (url.pathname === '/v1' || url.pathname.startsWith('/v1/')) return routeApi(sandbox, request, response, url);
  if (sandbox.pages && (await sandbox.pages.handle(request, response, url))) {
    if (request.method !== 'GET') sandbox.state?.saveSoon();
    return;
  }
  sendHtml(response, 404, messagePage('Not found', 'There is nothing at this address.'));
}

/** An API request: recorded, passed through the injected failures, then answered by the API (or not, for a caller that has gone). */
async function routeApi(sandbox: SandboxContext, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  const { logger } = sandbox;
  const entry = sandbox.traffic.record(request.method ?? 'GET', url.pathname);
  const bodyText = await readBody(request);
  entry.bodyText = bodyText;
  const header = request.headers.authorization;
  const presentedKey = /^Bearer (\S+)$/.exec(header?.trim() ?? '')?.[1];
  const answer = (): void => {
    const api = sandbox.api;
    if (!api) return sendJson(response, 503, { ok: false, error: 'Service starting' });
    const caller = api.authenticate(header);
    const result: ApiResult = 'status' in caller ? caller : api.handle({ method: request.method ?? 'GET', path: url.pathname.slice(3) || '/', query: url.searchParams, headers: request.headers, bodyText }, caller);
    // Durable before acknowledged: what a create or settle changed is on disk before the answer leaves.
    if (request.method !== 'GET' && !('status' in caller)) sandbox.state?.save();
    logger?.debug({ method: request.method, path: url.pathname, status: result.status }, 'sandbox api request');
    entry.processed = true;
    // A caller that gave up (or died) gets no answer; the work above is done all the same.
    if (response.destroyed || response.writableEnded) return;
    sendJson(response, result.status, result.body);
  };
  sandbox.traffic.pass({ method: request.method, path: url.pathname, apiKey: presentedKey }, response, answer);
}

/** The controls that change the sandbox: accounts, webhooks, failures, and what the hosted pages' buttons and the provider's own events do. */
function drivingControls(sandbox: SandboxContext, sim: Simulator): Omit<DepositGatewaySandboxControls, keyof ReturnType<typeof readingControls>> {
  const { store, dispatcher, traffic } = sandbox;
  return {
    addAccount(account) {
      store.accounts.set(account.apiKey, { ...account });
    },
    setAccount(apiKey, partial) {
      const account = store.accounts.get(apiKey);
      if (!account) throw new SandboxError(`Unknown sandbox account ${apiKey.slice(0, 12)}…`);
      Object.assign(account, partial);
    },
    setAutoComplete(on) {
      sim.autoComplete = on;
    },
    webhooks({ apiKey, ...switches }) {
      dispatcher.configure(switches, apiKey);
    },
    failNext(failure: FailNextOptions = {}) {
      traffic.failNext(failure);
    },
    clearFailures() {
      traffic.clearFailures();
    },
    complete(referenceOrSessionId, outcome, options = {}) {
      const reference = sim.complete(referenceOrSessionId, outcome, options.declineReason ? { decline_reason: options.declineReason } : {});
      sandbox.state?.saveSoon();
      return reference;
    },
    cancelRefund(refundId) {
      const refund = store.refunds.get(refundId);
      if (!refund) throw new SandboxError(`Unknown refund ${refundId}`);
      sim.cancelRefund(refund);
      sandbox.state?.saveSoon();
    },
    emitEvent(apiKey, event, data) {
      if (!store.accounts.has(apiKey)) throw new SandboxError(`Unknown sandbox account ${apiKey.slice(0, 12)}…`);
      return dispatcher.emit(apiKey, event, apiKey.startsWith('svc_live_'), data);
    },
    openChargeback(reference) {
      sim.openChargeback(reference);
      sandbox.state?.saveSoon();
    },
    misreportNet(reference, net) {
      const payment = store.payments.get(reference);
      if (!payment) throw new SandboxError(`Unknown payment ${reference}`);
      payment.reportedNet = Money.fromDecimal(net, payment.amount.currency);
      sandbox.state?.saveSoon();
    },
  };
}

/** The controls that read: requests received, webhooks sent, the records the sandbox holds, and whether it is idle. */
function readingControls(sandbox: SandboxContext) {
  const { store, dispatcher, traffic, clock } = sandbox;
  const controls = {
    deliveries: () => dispatcher.deliveries(),
    events: (apiKey?: string) => dispatcher.events(apiKey),
    requestCount(pathPrefix?: string, method?: string): number {
      return traffic.matching(pathPrefix, method).length;
    },
    processedCount(pathPrefix?: string, method?: string): number {
      return traffic.matching(pathPrefix, method).filter((entry) => entry.processed === true).length;
    },
    requestBodies(pathPrefix?: string, method?: string): string[] {
      return traffic.matching(pathPrefix, method).map((entry) => entry.bodyText ?? '');
    },
    requestTimes(pathPrefix?: string, method?: string): number[] {
      return traffic.matching(pathPrefix, method).map((entry) => entry.receivedAt);
    },
    payment(reference: string): SandboxPaymentSnapshot | undefined {
      const payment = store.payments.get(reference);
      if (!payment) return undefined;
      return {
        ...paymentView(payment),
        livemode: payment.livemode,
        rail: payment.rail,
        redirect_url: payment.redirectUrl,
        return_url: payment.returnUrl,
        session_id: payment.sessionId,
        chargeback: payment.chargeback,
        link_expires_at: payment.linkExpiresAtMs == null ? null : new Date(payment.linkExpiresAtMs).toISOString(),
      };
    },
    payout(reference: string): Record<string, unknown> | undefined {
      const payout = store.payouts.get(reference);
      return payout ? { ...payoutView(payout, { timestamps: true }), livemode: payout.livemode } : undefined;
    },
    refunds: (paymentReference: string) => store.refundsOf(paymentReference).map(refundView),
    records(): SandboxRecords {
      const oldestFirst = <T extends { seq: number }>(items: Iterable<T>) => [...items].sort((a, b) => a.seq - b.seq);
      return {
        payments: oldestFirst(store.payments.values()).map((payment) => controls.payment(payment.reference)!),
        refunds: oldestFirst(store.refunds.values()).map(refundView),
        payouts: oldestFirst(store.payouts.values()).map((payout) => controls.payout(payout.reference)!),
      };
    },
    idle: () => clock.idle(),
  } satisfies Partial<DepositGatewaySandboxControls>;
  return controls;
}
