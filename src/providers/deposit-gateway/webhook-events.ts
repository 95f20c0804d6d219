// Reading a verified deposit gateway webhook envelope (spec: Webhook event envelope, Events; refund,
// payout and chargeback data per A4) as the gateway's WebhookEvent: the event's subject by its name's
// family, and unknown events kept as `other`, to be stored and ignored.

import type { WebhookEvent } from '../provider.js';
import { REFUND_EVENT_STATUS } from './assumptions.js';
import { isObject, text, type JsonObject } from './json.js';
import { date, depositStatusOf, money, payoutStatusOf, refundStatusOf, withoutUndefined } from './mapping.js';

/**
 * Maps a verified envelope `{ id, event, livemode, created_at, data }` (spec: Webhook event envelope;
 * refund, payout and chargeback data per A4). Undefined when the envelope is unusable. Events this
 * adapter does not know become `other`: "unknown events are ignored rather than rejected" (spec: Events).
 */
export function parseWebhookEnvelope(body: unknown): WebhookEvent | undefined {
  if (!isObject(body)) return undefined;
  const name = text(body, 'event');
  if (!name) return undefined;
  const data = isObject(body.data) ? body.data : undefined;
  const reference = text(data, 'reference');
  const word = text(data, 'status');
  const eventId = text(body, 'id') ?? (reference && word ? `${reference}:${word}` : undefined);
  if (!eventId) return undefined;

  let subject: WebhookEvent['subject'] | undefined;
  try {
    subject = webhookSubject(name, data, reference, word);
  } catch {
    return undefined;
  }
  if (!subject) return undefined;
  return withoutUndefined({
    eventId,
    name,
    livemode: typeof body.livemode === 'boolean' ? body.livemode : undefined,
    occurredAt: date(body.created_at),
    subject,
  });
}

function webhookSubject(
  name: string,
  data: JsonObject | undefined,
  reference: string | undefined,
  word: string | undefined,
): WebhookEvent['subject'] | undefined {
  const [family, action = ''] = splitOnce(name, '.');
  const other: WebhookEvent['subject'] = reference ? { kind: 'other', reference } : { kind: 'other' };
  const amount = () => money(data?.amount, text(data, 'currency'));
  switch (family) {
    case 'payment': {
      const providerStatus = word ?? action;
      const status = depositStatusOf(providerStatus);
      if (!status) return other;
      if (!reference) return undefined;
      return withoutUndefined({
        kind: 'deposit' as const,
        reference,
        merchantReference: text(data, 'merchant_reference'),
        status,
        providerStatus,
        amount: amount(),
        declineReason: text(data, 'decline_reason'),
      });
    }
    case 'refund': {
      const fromName = Object.hasOwn(REFUND_EVENT_STATUS, name) ? REFUND_EVENT_STATUS[name as keyof typeof REFUND_EVENT_STATUS] : undefined;
      const providerStatus = word ?? fromName;
      const status = providerStatus ? refundStatusOf(providerStatus) : undefined;
      if (!status || !providerStatus) return other;
      if (!reference) return undefined;
      return withoutUndefined({
        kind: 'refund' as const,
        reference,
        depositReference: text(data, 'payment_reference'),
        status,
        providerStatus,
        amount: amount(),
      });
    }
    case 'payout': {
      const providerStatus = word ?? action;
      const status = payoutStatusOf(providerStatus);
      if (!status) return other;
      if (!reference) return undefined;
      return withoutUndefined({
        kind: 'payout' as const,
        reference,
        merchantReference: text(data, 'merchant_reference'),
        status,
        providerStatus,
        amount: amount(),
      });
    }
    case 'chargeback':
      if (action !== 'opened') return other;
      if (!reference) return undefined;
      return withoutUndefined({ kind: 'chargeback' as const, reference, merchantReference: text(data, 'merchant_reference') });
    default:
      return other;
  }
}

function splitOnce(value: string, separator: string): [string, string?] {
  const at = value.indexOf(separator);
  return at < 0 ? [value] : [value.slice(0, at), value.slice(at + separator.length)];
}
