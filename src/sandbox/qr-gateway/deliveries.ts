// Webhook registrations and signed deliveries of the QR sandbox: only subscribed events are sent
// (spec: Events), signed per Q4, retried per Q10 on the scaled clock, with faults tests can inject.

import { randomUUID } from 'node:crypto';
import type { Logger } from '../../lib/logger.js';
import { DELIVERY_POLICY, SIGNATURE_HEADER } from '../../providers/qr-gateway/assumptions.js';
import { stringifyJsonExact } from '../../providers/qr-gateway/json.js';
import { signatureHeader } from '../../providers/qr-gateway/signature.js';

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

  constructor(private readonly options: { timeScale: number; logger?: Logger }) {}

  register(registration: SandboxRegistration): void {
    this.registrations.push(registration);
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

  /** Sends `event` to every registration of `apiKey` subscribed to it, and to no other. */
  enqueue(apiKey: string, event: string, data: unknown): void {
    if (this.closed) return;
    const body = stringifyJsonExact({ event, data, timestamp: new Date().toISOString() });
    for (const registration of this.registrations) {
      if (registration.apiKey !== apiKey || !registration.events.includes(event)) continue;
      const delivery: Delivery = { id: `dlv_${randomUUID()}`, registration, event, body, attempts: 0, firstAt: Date.now() };
      this.pending++;
      this.schedule(delivery, 0);
    }
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
      this.finish();
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
          [SIGNATURE_HEADER]: signatureHeader([registration.secret], body, Math.floor(Date.now() / 1000)),
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
    const delaySeconds = Math.min(
      DELIVERY_POLICY.firstRetryDelaySeconds * 2 ** (delivery.attempts - 1),
      DELIVERY_POLICY.maxRetryDelaySeconds,
    );
    const elapsedSeconds = (Date.now() - delivery.firstAt) / 1000 / scale;
    if (elapsedSeconds + delaySeconds > DELIVERY_POLICY.retryWindowSeconds) {
      this.options.logger?.warn({ deliveryId: delivery.id, event: delivery.event, attempts: delivery.attempts }, 'qr sandbox delivery abandoned');
      this.finish();
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

  private finish(): void {
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
