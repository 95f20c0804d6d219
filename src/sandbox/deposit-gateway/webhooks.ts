// Webhook events of the sandbox: the envelope, HMAC signing, one ordered delivery queue per account,
// retries with exponential backoff on the scaled clock, and the test switches that disturb delivery.

import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { backoffDelayMs } from '../../lib/backoff.js';
import type { Logger } from '../../lib/logger.js';
import { SIGNATURE_HEADER } from '../../providers/deposit-gateway/assumptions.js';
import type { ScaledClock, TimerHandle } from './clock.js';
import type { SandboxAccount } from './store.js';

/** Spec: Webhook event envelope. */
export interface WebhookEnvelope {
  id: string;
  event: string;
  livemode: boolean;
  created_at: string;
  data: Record<string, unknown>;
}

/** One delivery attempt, or a webhook a test switch dropped. */
export interface DeliveryRecord {
  eventId: string;
  event: string;
  url: string | null;
  /** HTTP status of the receiver's answer; null on a network error, a timeout or a drop. */
  statusCode: number | null;
  error: string | null;
  /** 1 for the first attempt; 0 for a dropped webhook. */
  attempt: number;
  /** ISO time the attempt started. */
  at: string;
  dropped: boolean;
  /** True when this failed attempt was the last one (the 24-hour retry window is spent). */
  gaveUp: boolean;
}

export interface WebhookSwitches {
  /** Deliver every webhook twice (same event id, fresh signature). */
  duplicate?: boolean;
  /** Hold each payment's (or payout's) events and release them newest first. */
  outOfOrder?: boolean;
  /** Never deliver the next N webhooks; the provider-side state still changes. */
  dropNext?: number;
  /** Delay the next webhook by this many real milliseconds; later webhooks are not held behind it. */
  delayNextMs?: number;
}

interface SwitchState {
  duplicate?: boolean;
  outOfOrder?: boolean;
  dropNext: number;
  delayNextMs: number;
}

interface QueueItem {
  apiKey: string;
  envelope: WebhookEnvelope;
  attempt: number;
  /** Simulated milliseconds spent in backoff so far. */
  waitedMs: number;
}

/** Spec: "The merchant returns a 2xx status within 10 seconds". */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Spec: "retried with exponential backoff for up to 24 hours". */
// Assumption: the schedule is 10 s doubling per attempt, capped at 1 hour between attempts.
export const RETRY_WINDOW_MS = 24 * 3600 * 1000;
export const FIRST_RETRY_MS = 10_000;
export const MAX_RETRY_GAP_MS = 3600 * 1000;
/** How long out-of-order mode gathers one object's events before releasing them reversed. */
export const OUT_OF_ORDER_HOLD_MS = 2_000;
/** Floor on the real delivery timeout: a fast clock must not time out a healthy local receiver. */
const MIN_REAL_TIMEOUT_MS = 250;

export function signPayload(secret: string, timestamp: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${digest}`;
}

export class WebhookDispatcher {
  private readonly global: SwitchState = { duplicate: false, outOfOrder: false, dropNext: 0, delayNextMs: 0 };
  private readonly perAccount = new Map<string, SwitchState>();
  private readonly queues = new Map<string, { items: QueueItem[]; running: boolean }>();
  private readonly held = new Map<string, { envelopes: Array<{ apiKey: string; envelope: WebhookEnvelope }>; timer: TimerHandle }>();
  private readonly inFlight = new Set<http.ClientRequest>();
  private readonly records: DeliveryRecord[] = [];
  private readonly emitted: Array<{ apiKey: string; envelope: WebhookEnvelope }> = [];
  /** Events not yet acknowledged by the receiver nor given up on: what a restart must send again. */
  private readonly open = new Map<string, { apiKey: string; envelope: WebhookEnvelope }>();
  private closed = false;
  /** Called when the set of undelivered events changed (the sandbox saves its state then). */
  onChange: (() => void) | undefined;

  constructor(
    private readonly clock: ScaledClock,
    private readonly account: (apiKey: string) => SandboxAccount | undefined,
    private readonly logger: Logger | undefined,
  ) {}

  /** Sets switches for the whole sandbox, or for one account when `apiKey` is given. */
  configure(switches: WebhookSwitches, apiKey?: string): void {
    const state = apiKey === undefined ? this.global : this.accountSwitches(apiKey);
    if (switches.duplicate !== undefined) state.duplicate = switches.duplicate;
    if (switches.outOfOrder !== undefined) state.outOfOrder = switches.outOfOrder;
    if (switches.dropNext !== undefined) state.dropNext = switches.dropNext;
    if (switches.delayNextMs !== undefined) state.delayNextMs = switches.delayNextMs;
  }

  deliveries(): DeliveryRecord[] {
    return this.records.map((record) => ({ ...record }));
  }

  events(apiKey?: string): WebhookEnvelope[] {
    return this.emitted.filter((entry) => apiKey === undefined || entry.apiKey === apiKey).map((entry) => entry.envelope);
  }

  /** Records an event and hands it to delivery, through whatever switches are on. */
  emit(apiKey: string, event: string, livemode: boolean, data: Record<string, unknown>): WebhookEnvelope {
    const envelope: WebhookEnvelope = {
      id: `evt_${Date.now().toString(36)}${randomBytes(8).toString('hex')}`,
      event,
      livemode,
      created_at: this.clock.now().toISOString(),
      data,
    };
    this.emitted.push({ apiKey, envelope });
    if (this.closed) return envelope;
    this.open.set(envelope.id, { apiKey, envelope });
    if (this.take(apiKey, 'dropNext') > 0) {
      this.record({ eventId: envelope.id, event, url: this.account(apiKey)?.webhookUrl ?? null, statusCode: null, error: 'dropped by test switch', attempt: 0, dropped: true, gaveUp: false });
      this.open.delete(envelope.id);
      return envelope;
    }
    const delay = this.take(apiKey, 'delayNextMs');
    if (delay > 0) {
      this.clock.afterReal(delay, () => this.route(apiKey, envelope));
      return envelope;
    }
    this.route(apiKey, envelope);
    return envelope;
  }

  /** Events still to be delivered (oldest first), as a restart hands them to `resend`. */
  undelivered(): Array<{ apiKey: string; envelope: WebhookEnvelope }> {
    return [...this.open.values()];
  }

  /** After a restart: delivers again what the previous run had not delivered, as first attempts. */
  resend(pending: Array<{ apiKey: string; envelope: WebhookEnvelope }>): void {
    for (const entry of pending) {
      this.emitted.push(entry);
      this.open.set(entry.envelope.id, entry);
      this.route(entry.apiKey, entry.envelope);
    }
  }

  close(): void {
    this.closed = true;
    for (const request of this.inFlight) request.destroy(new Error('sandbox closed'));
    this.inFlight.clear();
    for (const entry of this.held.values()) entry.timer.cancel();
    this.held.clear();
    this.queues.clear();
  }

  private accountSwitches(apiKey: string): SwitchState {
    let state = this.perAccount.get(apiKey);
    if (!state) {
      state = { dropNext: 0, delayNextMs: 0 };
      this.perAccount.set(apiKey, state);
    }
    return state;
  }

  private flag(apiKey: string, name: 'duplicate' | 'outOfOrder'): boolean {
    return this.perAccount.get(apiKey)?.[name] ?? this.global[name] ?? false;
  }

  /** Consumes a one-shot switch, the account's own before the sandbox-wide one. */
  private take(apiKey: string, name: 'dropNext' | 'delayNextMs'): number {
    const own = this.perAccount.get(apiKey);
    const state = own && own[name] > 0 ? own : this.global;
    const value = state[name];
    if (value <= 0) return 0;
    if (name === 'dropNext') state.dropNext -= 1;
    else state.delayNextMs = 0;
    return value;
  }

  private route(apiKey: string, envelope: WebhookEnvelope): void {
    if (this.closed) return;
    if (!this.flag(apiKey, 'outOfOrder')) {
      this.enqueueCopies(apiKey, envelope);
      return;
    }
    // Events of one object are gathered while they keep coming, then released newest first.
    // A grouping key only: an event a test emits may carry any JSON there, keyed as String() prints it.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    const subject = String(envelope.data.payment_reference ?? envelope.data.reference ?? envelope.id);
    const key = `${apiKey}\u0000${subject}`;
    const existing = this.held.get(key);
    existing?.timer.cancel();
    const envelopes = existing?.envelopes ?? [];
    envelopes.push({ apiKey, envelope });
    const timer = this.clock.after(OUT_OF_ORDER_HOLD_MS, () => {
      this.held.delete(key);
      for (const entry of [...envelopes].reverse()) this.enqueueCopies(entry.apiKey, entry.envelope);
    });
    this.held.set(key, { envelopes, timer });
  }

  private enqueueCopies(apiKey: string, envelope: WebhookEnvelope): void {
    const copies = this.flag(apiKey, 'duplicate') ? 2 : 1;
    for (let i = 0; i < copies; i += 1) this.enqueue({ apiKey, envelope, attempt: 1, waitedMs: 0 });
  }

  private enqueue(item: QueueItem): void {
    if (this.closed) return;
    let queue = this.queues.get(item.apiKey);
    if (!queue) {
      queue = { items: [], running: false };
      this.queues.set(item.apiKey, queue);
    }
    queue.items.push(item);
    if (!queue.running) {
      queue.running = true;
      void this.clock.track(this.drain(queue));
    }
  }

  /** One account's deliveries go out one at a time, in the order they were queued. */
  private async drain(queue: { items: QueueItem[]; running: boolean }): Promise<void> {
    try {
      for (let item = queue.items.shift(); item && !this.closed; item = queue.items.shift()) {
        await this.attempt(item);
      }
    } finally {
      queue.running = false;
    }
  }

  private async attempt(item: QueueItem): Promise<void> {
    const account = this.account(item.apiKey);
    const url = account?.webhookUrl;
    if (!account || !url) {
      // Nowhere to deliver (no webhook URL in the dashboard): nothing to send again later either.
      if (this.open.delete(item.envelope.id)) this.onChange?.();
      return;
    }
    const body = JSON.stringify(item.envelope);
    // Spec: each retry is signed afresh, so its `t` passes the receiver's freshness window.
    const signature = signPayload(account.webhookSecret, Math.floor(this.clock.now().getTime() / 1000), body);
    const at = this.clock.now().toISOString();
    const outcome = await this.post(url, body, signature);
    if (this.closed) return;
    const delivered = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const gap = backoffDelayMs(item.attempt, { baseMs: FIRST_RETRY_MS, maxMs: MAX_RETRY_GAP_MS });
    const gaveUp = !delivered && item.waitedMs + gap > RETRY_WINDOW_MS;
    this.record({ eventId: item.envelope.id, event: item.envelope.event, url, statusCode: outcome.statusCode, error: outcome.error, attempt: item.attempt, at, dropped: false, gaveUp });
    this.logger?.debug({ event: item.envelope.event, eventId: item.envelope.id, attempt: item.attempt, statusCode: outcome.statusCode, error: outcome.error }, 'sandbox webhook attempt');
    if (delivered || gaveUp) {
      if (this.open.delete(item.envelope.id)) this.onChange?.();
      return;
    }
    this.clock.after(gap, () => this.enqueue({ ...item, attempt: item.attempt + 1, waitedMs: item.waitedMs + gap }));
  }

  private post(url: string, body: string, signature: string): Promise<{ statusCode: number | null; error: string | null }> {
    return new Promise((resolve) => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        resolve({ statusCode: null, error: `invalid webhook URL ${url}` });
        return;
      }
      const transport = target.protocol === 'https:' ? https : http;
      const timeoutMs = Math.max(this.clock.toReal(DELIVERY_TIMEOUT_MS), MIN_REAL_TIMEOUT_MS);
      let settled = false;
      const finish = (result: { statusCode: number | null; error: string | null }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.inFlight.delete(request);
        resolve(result);
      };
      const request = transport.request(
        target,
        {
          method: 'POST',
          agent: false,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            [SIGNATURE_HEADER]: signature,
            'user-agent': 'deposit-gateway-sandbox/1',
            connection: 'close',
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => finish({ statusCode: response.statusCode ?? null, error: null }));
          response.on('error', (error) => finish({ statusCode: null, error: error.message }));
        },
      );
      const timer = setTimeout(() => {
        finish({ statusCode: null, error: `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` });
        request.destroy();
      }, timeoutMs);
      request.on('error', (error) => finish({ statusCode: null, error: error.message }));
      this.inFlight.add(request);
      request.end(body);
    });
  }

  private record(entry: Omit<DeliveryRecord, 'at'> & { at?: string }): void {
    this.records.push({ ...entry, at: entry.at ?? this.clock.now().toISOString() });
  }
}
