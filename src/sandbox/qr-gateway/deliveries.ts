// Webhook registrations and signed deliveries of the QR sandbox: only subscribed events are sent
// (spec: Events), signed per Q4, retried per Q10 on the scaled clock, with faults tests can inject.

import { randomUUID } from 'node:crypto';
import { backoffDelayMs } from '../../lib/backoff.js';
import type { Logger } from '../../lib/logger.js';
import { DELIVERY_POLICY, QR_WIRE } from '../../providers/qr-gateway/assumptions.js';
import { signDelivery, stringifyJson } from './wire.js';

export interface SandboxRegistration {
  webhookId: string;
  apiKey: string;
  url: string;
  events: string[];
  secret: string;
  status: 'active';
  createdAt: Date;
}

/** One delivery attempt, as `controls.deliveries()` reports it. */
export interface DeliveryAttempt {
  deliveryId: string;
  webhookId: string;
  event: string;
  url: string;
  /** 1 for the first try of a delivery, then 2, 3, … for its retries. */
  attempt: number;
  /** HTTP status of the receiver's answer, when there was one. */
  status?: number;
  /** Why there was no answer: a network error, a time-out or an injected drop. */
  error?: string;
  /** True for the extra copy sent while `duplicate` is on. */
  duplicate?: boolean;
  body: string;
  at: Date;
}

export interface DeliveryFaults {
  /** Send every successful delivery a second time (same body, fresh signature). */
  duplicate?: boolean;
  /** Drop the next N attempts without sending them; each is then retried as a failure would be. */
  dropNext?: number;
}

/** A delivery not yet made, as kept across a restart. */
export interface PendingDelivery {
  id: string;
  webhookId: string;
  event: string;
  body: string;
  attempts: number;
  /** Epoch milliseconds of the first attempt's scheduling: the retry window counts from here. */
  firstAt: number;
}

interface Delivery {
  id: string;
  registration: SandboxRegistration;
  event: string;
  body: string;
  attempts: number;
  firstAt: number;
}

export class DeliveryQueue {
  private readonly registrations: SandboxRegistration[] = [];
  private readonly log: DeliveryAttempt[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly aborter = new AbortController();
  private readonly idleWaiters: Array<() => void> = [];
  private pending = 0;
  private faults: { duplicate: boolean; dropNext: number } = { duplicate: false, dropNext: 0 };
  private closed = false;
  /** Deliveries not yet acknowledged nor given up on: what a restart must send again. */
  private readonly open = new Map<string, Delivery>();
  /** Called when registrations or undelivered deliveries changed (the sandbox saves its state then). */
  onChange: (() => void) | undefined;

  /** `signatureHeader`: where deliveries carry their signature (Q4); default `QR_WIRE.signatureHeader`. */
  constructor(private readonly options: { timeScale: number; signatureHeader?: string; logger?: Logger }) {}

  register(registration: SandboxRegistration): void {
    this.registrations.push(registration);
    this.onChange?.();
  }

  /** Deliveries still to be made, as a restart hands them to `resend`. */
  undelivered(): PendingDelivery[] {
    return [...this.open.values()].map((delivery) => ({ id: delivery.id, webhookId: delivery.registration.webhookId, event: delivery.event, body: delivery.body, attempts: delivery.attempts, firstAt: delivery.firstAt }));
  }

  /** After a restart: sends again what the previous run had not delivered, within its retry window. */
  resend(pending: PendingDelivery[]): void {
    for (const entry of pending) {
      const registration = this.registrations.find((candidate) => candidate.webhookId === entry.webhookId);
      if (!registration || this.closed) continue;
      const delivery: Delivery = { id: entry.id, registration, event: entry.event, body: entry.body, attempts: entry.attempts, firstAt: entry.firstAt };
      this.open.set(delivery.id, delivery);
      this.pending++;
      // An event due later (a withdrawal's next step) keeps its time; one overdue goes now.
      this.schedule(delivery, delivery.attempts === 0 ? Math.max(0, delivery.firstAt - Date.now()) : 0);
    }
  }

  list(): SandboxRegistration[] {
    return this.registrations.map((registration) => ({ ...registration, events: [...registration.events] }));
  }

  setFaults(faults: DeliveryFaults): void {
    if (faults.duplicate !== undefined) this.faults.duplicate = faults.duplicate;
    if (faults.dropNext !== undefined) this.faults.dropNext = Math.max(0, Math.floor(faults.dropNext));
  }

  attempts(): DeliveryAttempt[] {
    return this.log.map((attempt) => ({ ...attempt }));
  }

  /**
   * Sends `event` to every registration of `apiKey` subscribed to it, and to no other; `delayMs`
   * later when given (the event happens then, and its timestamp says so). Kept with the
   * undelivered deliveries, so an event still due when the sandbox stops is sent after a restart.
   */
  enqueue(apiKey: string, event: string, data: unknown, delayMs = 0): void {
    if (this.closed) return;
    const dueAt = Date.now() + delayMs;
    const body = stringifyJson({ event, data, timestamp: new Date(dueAt).toISOString() });
    let added = false;
    for (const registration of this.registrations) {
      if (registration.apiKey !== apiKey || !registration.events.includes(event)) continue;
      const delivery: Delivery = { id: `dlv_${randomUUID()}`, registration, event, body, attempts: 0, firstAt: dueAt };
      this.open.set(delivery.id, delivery);
      this.pending++;
      this.schedule(delivery, delayMs);
      added = true;
    }
    if (added && delayMs > 0) this.onChange?.();
  }

  /** Resolves once no delivery is in flight or waiting for a retry. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    this.aborter.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.pending = 0;
    this.releaseIdle();
  }

  private schedule(delivery: Delivery, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(delivery);
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(delivery: Delivery): Promise<void> {
    if (this.closed) return;
    delivery.attempts++;
    if (this.faults.dropNext > 0) {
      this.faults.dropNext--;
      this.record(delivery, { error: 'dropped (injected fault)' });
      this.retryOrGiveUp(delivery);
      return;
    }
    const result = await this.post(delivery);
    if (this.closed) return;
    this.record(delivery, result);
    if (result.status !== undefined && result.status >= 200 && result.status < 300) {
      if (this.faults.duplicate) this.record(delivery, { ...(await this.post(delivery)), duplicate: true });
      this.finish(delivery);
    } else {
      this.retryOrGiveUp(delivery);
    }
  }

  private async post(delivery: Delivery): Promise<{ status?: number; error?: string }> {
    const { registration, body } = delivery;
    try {
      // The delivery time-out is real time: a receiver's answer does not get faster with the clock.
      const response = await fetch(registration.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'qr-gateway-sandbox/1',
          [this.options.signatureHeader ?? QR_WIRE.signatureHeader]: signDelivery(registration.secret, body, Math.floor(Date.now() / 1000)),
        },
        body,
        signal: AbortSignal.any([this.aborter.signal, AbortSignal.timeout(DELIVERY_POLICY.timeoutMs)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      return { status: response.status };
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      return { error: name === 'TimeoutError' ? `timed out after ${DELIVERY_POLICY.timeoutMs} ms` : describe(error) };
    }
  }

  private retryOrGiveUp(delivery: Delivery): void {
    const scale = this.options.timeScale;
    const delaySeconds = backoffDelayMs(delivery.attempts, { baseMs: DELIVERY_POLICY.firstRetryDelaySeconds, maxMs: DELIVERY_POLICY.maxRetryDelaySeconds });
    const elapsedSeconds = (Date.now() - delivery.firstAt) / 1000 / scale;
    if (elapsedSeconds + delaySeconds > DELIVERY_POLICY.retryWindowSeconds) {
      this.options.logger?.warn({ deliveryId: delivery.id, event: delivery.event, attempts: delivery.attempts }, 'qr sandbox delivery abandoned');
      this.finish(delivery);
      return;
    }
    this.schedule(delivery, delaySeconds * 1000 * scale);
  }

  private record(delivery: Delivery, result: { status?: number; error?: string; duplicate?: boolean }): void {
    const attempt: DeliveryAttempt = {
      deliveryId: delivery.id,
      webhookId: delivery.registration.webhookId,
      event: delivery.event,
      url: delivery.registration.url,
      attempt: delivery.attempts,
      body: delivery.body,
      at: new Date(),
    };
    if (result.status !== undefined) attempt.status = result.status;
    if (result.error !== undefined) attempt.error = result.error;
    if (result.duplicate) attempt.duplicate = true;
    this.log.push(attempt);
    this.options.logger?.debug({ deliveryId: delivery.id, event: delivery.event, attempt: attempt.attempt, status: attempt.status, error: attempt.error }, 'qr sandbox delivery');
  }

  private finish(delivery: Delivery): void {
    if (this.open.delete(delivery.id)) this.onChange?.();
    this.pending = Math.max(0, this.pending - 1);
    if (this.pending === 0) this.releaseIdle();
  }

  private releaseIdle(): void {
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    return typeof cause?.code === 'string' ? cause.code : error.message;
  }
  return String(error);
}
