// Unit spec of the webhook route's answers (webhooks.ts), with no database and no server: the HTTP
// status and body for what became of each delivery (`webhookAnswer`: 2xx when it is stored or kept
// for good, whatever its outcome; 4xx for a path or a signature the provider must not retry as is;
// 5xx when nothing was stored, so the provider's retry is a first delivery), and which request
// lines the fast path takes (`webhookPath`).

import { describe, expect, it } from 'vitest';
import type { AcceptWebhookOutcome, WebhookTarget } from '../kernel/inbox/inbox.js';
import type { WebhookOutcome } from '../kernel/inbox/webhook-delivery.entity.js';
import type { SignatureRejection, WebhookEvent } from '../providers/provider.js';
import { webhookAnswer, webhookPath } from './webhooks.js';

const target: WebhookTarget = {
  provider: 'deposit-gateway',
  account: { code: 'acct-1', provider: 'deposit-gateway', livemode: false, baseUrl: 'http://provider.test/v1', apiKey: 'svc_test_x', webhookSecrets: ['whsec'] },
};
const event: WebhookEvent = { eventId: 'evt_1', name: 'payment.approved', subject: { kind: 'deposit', reference: 'pi_1', status: 'SUCCEEDED', providerStatus: 'approved' } };

describe('webhookAnswer', () => {
  it('is 404 for a path that names no provider\'s account: nothing is read or stored', () => {
    expect(webhookAnswer({ kind: 'not_found' })).toEqual({ status: 404, body: { received: false, reason: 'NOT_FOUND' } });
  });

  it.each(['SIGNATURE_MISSING', 'SIGNATURE_MALFORMED', 'SIGNATURE_MISMATCH', 'TIMESTAMP_OUT_OF_WINDOW'] as const)(
    'is 401 for %s, whether or not its record could be kept',
    (reason: SignatureRejection) => {
      for (const record of [{ ok: true as const, pruned: 0 }, { ok: false as const, error: new Error('database down') }]) {
        expect(webhookAnswer({ ...target, kind: 'refused', reason, record })).toEqual({ status: 401, body: { received: false, reason } });
      }
    },
  );

  it.each(['PAYLOAD_INVALID', 'TEXT_NOT_STORABLE'] as const)('is 200 for an authentic delivery no retry could apply (%s): kept as rejected, the provider stops', (reason) => {
    expect(webhookAnswer({ ...target, kind: 'unprocessable', reason, record: { ok: true, pruned: 0 } })).toEqual({ status: 200, body: { received: true, outcome: 'rejected', reason } });
  });

  it.each(['applied', 'duplicate', 'ignored', 'anomaly', 'unmatched', 'deferred'] as const)('is 200 for a delivery stored and decided %s: durable, so acknowledged', (outcome: WebhookOutcome) => {
    const received: AcceptWebhookOutcome = { ...target, kind: 'received', event, result: { outcome, reason: 'WHATEVER', deliveryId: 'whd_1' } };
    expect(webhookAnswer(received)).toEqual({ status: 200, body: { received: true, outcome } });
  });

  it('is 200 for a redelivery of an event already stored', () => {
    expect(webhookAnswer({ ...target, kind: 'received', event, result: { outcome: 'duplicate', reason: 'EVENT_ALREADY_RECEIVED' } })).toEqual({ status: 200, body: { received: true, outcome: 'duplicate' } });
  });

  it('is 503 when a handler cannot decide it yet: nothing committed, the provider\'s retry is a first delivery', () => {
    expect(webhookAnswer({ ...target, kind: 'retry_later', event, message: 'refund rf_1 matches 2 in-flight refunds' })).toEqual({ status: 503, body: { received: false, reason: 'RETRY_LATER' } });
  });

  it('is 500 when the database failed: nothing committed, and the answer says nothing of why', () => {
    expect(webhookAnswer({ ...target, kind: 'failed', event, error: new Error('connection terminated') })).toEqual({ status: 500, body: { received: false, reason: 'INTERNAL_ERROR' } });
  });
});

describe('webhookPath', () => {
  it.each([
    ['/webhooks/deposit-gateway/acct-1', { provider: 'deposit-gateway', account: 'acct-1', pathname: '/webhooks/deposit-gateway/acct-1' }],
    ['/webhooks/deposit-gateway/acct-1/', { provider: 'deposit-gateway', account: 'acct-1', pathname: '/webhooks/deposit-gateway/acct-1/' }],
    ['/WEBHOOKS/qr-gateway/acct%2Dqr?retry=2', { provider: 'qr-gateway', account: 'acct-qr', pathname: '/WEBHOOKS/qr-gateway/acct%2Dqr' }],
  ])('reads %s', (url, path) => {
    expect(webhookPath('POST', url)).toEqual(path);
  });

  it.each([
    ['a GET', 'GET', '/webhooks/deposit-gateway/acct-1'],
    ['no URL', 'POST', undefined],
    ['a third segment', 'POST', '/webhooks/deposit-gateway/acct-1/extra'],
    ['a missing account', 'POST', '/webhooks/deposit-gateway'],
    ['a segment that does not decode', 'POST', '/webhooks/deposit-gateway/%E0%A4%A'],
    ['another path', 'POST', '/graphql'],
  ])('leaves %s to Express', (_case, method, url) => {
    expect(webhookPath(method, url)).toBeUndefined();
  });
});
