// The webhook inbox: one row per verified provider event, keyed by the provider's event id, so a
// redelivery is recognised as a duplicate and every event's outcome can be seen and replayed; plus
// one bodiless row per rejected delivery, so admins see failed verifications too.

import { defineEntity, p } from '@mikro-orm/core';
import type { ProviderName } from '../../providers/provider.js';
import type { PaymentSubjectType } from '../events/payment-event.entity.js';

/**
 * - `applied`: changed a subject (one status change, one event row).
 * - `duplicate`: a distinct event reporting the status the subject already has (a no-op). A
 *   redelivery of the same event id never gets here: the unique key refuses a second row.
 * - `ignored`: an event type we do not act on (new types appear over time; spec: Webhooks).
 * - `anomaly`: an impossible transition or a mismatched amount/currency; kept, not applied.
 * - `unmatched`: no subject with that reference.
 * - `deferred`: waits for its subject to reach a state it can apply to (a refund of a payment not
 *   yet settled); re-decided in the transaction that changes that subject's status.
 * - `rejected`: failed verification (signature, freshness, shape); answered 4xx and kept for
 *   admins with its reason and the body's SHA-256, never the body itself.
 */
export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored' | 'anomaly' | 'unmatched' | 'rejected' | 'deferred';

// A body whose verification failed is not trusted input: it is answered 4xx and its row keeps no
// body (`rawBody` is ''), so an attacker cannot poison the inbox or have it replayed.
export const WebhookDeliverySchema = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_delivery',
  properties: {
    id: p.string().primary().length(30),
    provider: p.string().$type<ProviderName>().length(32),
    merchantAccount: p.string().length(64),
    /** The provider's event id, or `<reference>:<status>` where the provider sends none. */
    eventId: p.string().length(255),
    eventName: p.string().length(128),
    outcome: p.string().$type<WebhookOutcome>().length(16),
    reason: p.text().nullable(),
    subjectType: p.string().$type<PaymentSubjectType>().length(16).nullable(),
    subjectId: p.string().length(30).nullable(),
    /**
     * The body exactly as received (utf8), so an admin can inspect and replay it; '' for a
     * rejected delivery, and once retention erased it (`bodyErasedAt`).
     */
    rawBody: p.text(),
    /** SHA-256 hex of the bytes received; kept when the body is not (rejected, or erased by retention). */
    bodySha256: p.string().length(64).nullable(),
    /** When retention erased the body and the personal data in it (WEBHOOK_BODY_RETENTION_MS); null while it is kept. */
    bodyErasedAt: p.datetime().nullable(),
    receivedAt: p.datetime().onCreate(() => new Date()),
    /** When an admin last replayed this stored delivery. */
    replayedAt: p.datetime().nullable(),
  },
  uniques: [
    { name: 'webhook_delivery_event_unique', properties: ['provider', 'merchantAccount', 'eventId'] },
  ],
  indexes: [{ name: 'webhook_delivery_subject_idx', properties: ['subjectType', 'subjectId'] }],
});

export class WebhookDelivery extends WebhookDeliverySchema.class {}

WebhookDeliverySchema.setClass(WebhookDelivery);
