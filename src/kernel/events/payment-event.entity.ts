// The global, ordered, append-only log of applied status changes: the source of `events(after:)`
// catch-up and of live subscriptions. A row is written in the same transaction as the change.

import { defineEntity, p } from '@mikro-orm/core';

/** The kind of subject an event is about, as the module that owns it names it (`deposit`, `refund`, ...). */
export type PaymentSubjectType = string;

export const PaymentEventSchema = defineEntity({
  name: 'PaymentEvent',
  tableName: 'payment_event',
  properties: {
    /**
     * Identity column assigned at insert: the log's order and the client's cursor. Kept as a
     * string so a bigint never loses precision in JavaScript.
     */
    position: p.bigint('string').primary().autoincrement(),
    id: p.string().length(30).unique('payment_event_id_unique'),
    subjectType: p.string().$type<PaymentSubjectType>().length(16),
    subjectId: p.string().length(30),
    /**
     * Owner of the subject, so a cashier's catch-up reads only its own events. Null for a subject
     * that belongs to no client (a withdrawal from the merchant's balance): admins alone see it.
     */
    clientId: p.string().length(30).nullable(),
    /**
     * Merchant account of the subject (a refund: its deposit's), so a back office limited to some
     * accounts reads its catch-up log with the same visibility policy as its lists (src/kernel/visibility.ts).
     */
    merchantAccount: p.string().length(64),
    /** An anomaly the gateway raised about the subject: admins alone see it, whoever sees the subject. */
    adminOnly: p.boolean().default(false),
    /** e.g. `deposit.status_changed`. */
    type: p.string().length(64),
    fromStatus: p.string().length(16).nullable(),
    toStatus: p.string().length(16).nullable(),
    /** Snapshot of the subject after the change, as clients may see it. */
    data: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [
    { name: 'payment_event_client_position_idx', properties: ['clientId', 'position'] },
    { name: 'payment_event_subject_idx', properties: ['subjectType', 'subjectId', 'position'] },
    { name: 'payment_event_account_position_idx', properties: ['merchantAccount', 'position'] },
  ],
});

export class PaymentEvent extends PaymentEventSchema.class {}

PaymentEventSchema.setClass(PaymentEvent);
