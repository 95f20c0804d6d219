// Reading webhook envelopes: each event family's subject, amounts from their source text, the
// event id's fallback, and unknown events kept as other.

import { describe, expect, it } from 'vitest';
import { Money } from '../../lib/money.js';
import type { DepositStatus } from '../provider.js';
import { eur, json } from './mapping.fixture.js';
import { parseWebhookEnvelope } from './webhook-events.js';

describe('webhook envelopes', () => {
  const envelope = (event: string, data: Record<string, unknown> | string, extra = '') =>
    json(`{"id":"evt_1","event":"${event}","livemode":false,"created_at":"2025-11-21T05:00:00Z","data":${typeof data === 'string' ? data : JSON.stringify(data)}${extra}}`);

  it.each<[string, string, DepositStatus]>([
    ['payment.pending', 'redirected', 'PENDING'],
    ['payment.pending', 'pending', 'PENDING'],
    ['payment.approved', 'approved_for_payment', 'AUTHORIZED'],
    ['payment.approved', 'approved', 'SUCCEEDED'],
    ['payment.declined', 'declined', 'DECLINED'],
    ['payment.declined', 'expired', 'EXPIRED'],
    ['payment.declined', 'cancelled', 'CANCELLED'],
    ['payment.declined', 'error', 'FAILED'],
    ['payment.refunded', 'refunded', 'REFUNDED'],
  ])('%s with status %s is a deposit %s', (event, word, status) => {
    const parsed = parseWebhookEnvelope(envelope(event, { reference: 'pay_1', merchant_reference: 'dep_1', status: word, amount: '10.50', currency: 'EUR' }));
    expect(parsed).toEqual({
      eventId: 'evt_1',
      name: event,
      livemode: false,
      occurredAt: new Date('2025-11-21T05:00:00Z'),
      subject: { kind: 'deposit', reference: 'pay_1', merchantReference: 'dep_1', status, providerStatus: word, amount: eur('10.50') },
    });
  });

  it('reads a crypto JSON-number amount from its source text', () => {
    const parsed = parseWebhookEnvelope(envelope('payment.approved', '{"reference":"pay_c","status":"approved","amount":20.10,"currency":"USD"}'));
    expect(parsed?.subject).toMatchObject({ kind: 'deposit', amount: Money.fromDecimal('20.10', 'USD') });
    const big = parseWebhookEnvelope(envelope('payment.approved', '{"reference":"pay_c","status":"approved","amount":90071992547409.93,"currency":"USD"}'));
    expect(big?.subject.kind === 'deposit' && big.subject.amount?.toDecimal()).toBe('90071992547409.93');
  });

  it('refuses an amount that is not exact for its currency, or has no currency', () => {
    expect(parseWebhookEnvelope(envelope('payment.approved', '{"reference":"p","status":"approved","amount":10.001,"currency":"USD"}'))).toBeUndefined();
    expect(parseWebhookEnvelope(envelope('payment.approved', '{"reference":"p","status":"approved","amount":"10.00"}'))).toBeUndefined();
  });

  it('takes the status from the event name when data has none, and keeps the decline reason', () => {
    const parsed = parseWebhookEnvelope(envelope('payment.declined', { reference: 'p', decline_reason: 'expired_card', amount: '5.00', currency: 'EUR' }));
    expect(parsed?.subject).toEqual({ kind: 'deposit', reference: 'p', status: 'DECLINED', providerStatus: 'declined', amount: eur('5.00'), declineReason: 'expired_card' });
  });

  it('falls back to reference:status when the envelope has no id', () => {
    const parsed = parseWebhookEnvelope(json('{"event":"payment.approved","data":{"reference":"pay_9","status":"approved","amount":"1.00","currency":"EUR"}}'));
    expect(parsed?.eventId).toBe('pay_9:approved');
    expect(parsed).not.toHaveProperty('livemode');
  });

  it('maps refund events (A4)', () => {
    const parsed = parseWebhookEnvelope(envelope('refund.approved', { reference: 'rf_1', payment_reference: 'pay_1', merchant_reference: 'dep_1', status: 'approved', amount: '5.00', currency: 'EUR' }));
    expect(parsed?.subject).toEqual({ kind: 'refund', reference: 'rf_1', depositReference: 'pay_1', status: 'APPROVED', providerStatus: 'approved', amount: eur('5.00') });
    const requested = parseWebhookEnvelope(envelope('refund.requested', { reference: 'rf_1', payment_reference: 'pay_1' }));
    expect(requested?.subject).toMatchObject({ kind: 'refund', status: 'REQUESTED', providerStatus: 'pending' });
    const rejected = parseWebhookEnvelope(envelope('refund.rejected', { reference: 'rf_1', status: 'rejected' }));
    expect(rejected?.subject).toMatchObject({ kind: 'refund', status: 'REJECTED' });
  });

  it.each([
    ['payout.paid', 'paid', 'PAID'],
    ['payout.bounced', 'bounced', 'BOUNCED'],
    ['payout.reverted', 'reverted', 'REVERTED'],
    ['payout.failed', 'failed', 'FAILED'],
  ])('maps %s to a payout %s', (event, word, status) => {
    const parsed = parseWebhookEnvelope(envelope(event, { reference: 'po_1', merchant_reference: 'pyo_1', status: word, amount: '250000', currency: 'COP' }));
    expect(parsed?.subject).toEqual({ kind: 'payout', reference: 'po_1', merchantReference: 'pyo_1', status, providerStatus: word, amount: Money.fromDecimal('250000', 'COP') });
  });

  it('maps chargeback.opened', () => {
    const parsed = parseWebhookEnvelope(envelope('chargeback.opened', { reference: 'pay_1', merchant_reference: 'dep_1', status: 'opened', amount: '10.00', currency: 'EUR' }));
    expect(parsed?.subject).toEqual({ kind: 'chargeback', reference: 'pay_1', merchantReference: 'dep_1' });
  });

  it('keeps unknown events and unknown words as other, to be stored and ignored', () => {
    expect(parseWebhookEnvelope(envelope('subscription.created', { reference: 'sub_1', status: 'active' }))?.subject).toEqual({ kind: 'other', reference: 'sub_1' });
    expect(parseWebhookEnvelope(envelope('payment.on_hold', { reference: 'pay_1', status: 'on_hold' }))?.subject).toEqual({ kind: 'other', reference: 'pay_1' });
    expect(parseWebhookEnvelope(envelope('chargeback.closed', { reference: 'pay_1' }))?.subject).toEqual({ kind: 'other', reference: 'pay_1' });
    expect(parseWebhookEnvelope(json('{"id":"evt_2","event":"account.updated"}'))?.subject).toEqual({ kind: 'other' });
  });

  it('refuses envelopes it cannot key or place', () => {
    expect(parseWebhookEnvelope(json('{"id":"evt_1","data":{}}'))).toBeUndefined();
    expect(parseWebhookEnvelope(json('{"event":"payment.approved","data":{"status":"approved"}}'))).toBeUndefined();
    expect(parseWebhookEnvelope(json('{"id":"evt_1","event":"payment.approved","data":{"status":"approved"}}'))).toBeUndefined();
    expect(parseWebhookEnvelope(json('"payment.approved"'))).toBeUndefined();
  });
});
