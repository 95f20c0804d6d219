// Unit spec of the one mapping from a handler's answer to the delivery's decision
// (report-outcome.ts): a transition's outcome, a first sight of a subject counting as applied, and
// the answers decided without a status change (deferred, in progress, not found).

import { describe, expect, it } from 'vitest';
import type { TransitionResult } from '../transitions.js';
import { deliveryDecision, transitionReport, type ReportOutcome, type WebhookDecision } from './report-outcome.js';

describe('deliveryDecision of a transition\'s result about a subject', () => {
  const found = { subjectType: 'refund', subjectId: 'rfd_1' } as const;
  const subject = { type: 'refund', id: 'rfd_1' } as const;
  it.each([
    [{ outcome: 'applied' }, undefined, { ...found, outcome: 'applied' }],
    // A distinct event reporting the status the subject already has: a duplicate, not an anomaly.
    [{ outcome: 'noop' }, undefined, { ...found, outcome: 'duplicate', reason: 'STATUS_UNCHANGED: refund is already APPROVED' }],
    // An earlier step after a later one (a withdrawal's deliveries overtake each other): the path's reason says so.
    [{ outcome: 'stale', reason: 'STALE_STATUS: refund is already APPROVED, past REQUESTED' }, undefined, { ...found, outcome: 'duplicate', reason: 'STALE_STATUS: refund is already APPROVED, past REQUESTED' }],
    // The event named the subject for the first time (its reference, or the subject itself, recorded from it): applied.
    [{ outcome: 'noop' }, 'REFERENCE_RECORDED: the provider refund id arrived before its answer', { ...found, outcome: 'applied', reason: 'REFERENCE_RECORDED: the provider refund id arrived before its answer' }],
    [{ outcome: 'stale', reason: 'STALE_STATUS: x' }, 'REFUND_RECORDED: made outside the gateway', { ...found, outcome: 'applied', reason: 'REFUND_RECORDED: made outside the gateway' }],
    [{ outcome: 'applied' }, 'REFUND_RECORDED: made outside the gateway', { ...found, outcome: 'applied' }],
    [{ outcome: 'anomaly', reason: 'AMOUNT_MISMATCH: x' }, 'REFUND_RECORDED: made outside the gateway', { ...found, outcome: 'anomaly', reason: 'AMOUNT_MISMATCH: x' }],
    [{ outcome: 'anomaly' }, undefined, { ...found, outcome: 'anomaly' }],
    // The subject vanished between the lookup and the change: no subject to name.
    [{ outcome: 'not_found', reason: 'REFUND_NOT_FOUND: no refund rfd_1' }, undefined, { outcome: 'unmatched', reason: 'REFUND_NOT_FOUND: no refund rfd_1' }],
    [{ outcome: 'not_found' }, undefined, { outcome: 'unmatched' }],
  ] as const)('%o (first sight: %s) is %o', (result: Pick<TransitionResult<unknown>, 'outcome' | 'reason'>, firstSight: string | undefined, decision: WebhookDecision) => {
    expect(deliveryDecision(transitionReport(result, subject, 'APPROVED', firstSight))).toEqual(decision);
  });
});

describe('deliveryDecision of an answer decided without a status change', () => {
  const subject = { type: 'deposit', id: 'dep_1' } as const;
  const found = { subjectType: 'deposit', subjectId: 'dep_1' } as const;
  it.each([
    ['a record made from the report', { outcome: 'applied', subject, reason: 'REFUND_RECORDED' }, { ...found, outcome: 'applied', reason: 'REFUND_RECORDED' }],
    ['a report our records already explain', { outcome: 'noop', subject, reason: 'REFUND_ALREADY_RECORDED' }, { ...found, outcome: 'duplicate', reason: 'REFUND_ALREADY_RECORDED' }],
    ['a report other reports decide', { outcome: 'in_progress', subject, reason: 'REFUND_IN_PROGRESS' }, { ...found, outcome: 'ignored', reason: 'REFUND_IN_PROGRESS' }],
    ['a report to decide once the subject changes', { outcome: 'deferred', subject, reason: 'PAYMENT_NOT_SETTLED' }, { ...found, outcome: 'deferred', reason: 'PAYMENT_NOT_SETTLED' }],
    ['an event of the other mode, about no subject of ours', { outcome: 'anomaly', reason: 'LIVEMODE_MISMATCH' }, { outcome: 'anomaly', reason: 'LIVEMODE_MISMATCH' }],
    ['a report naming no subject of ours', { outcome: 'not_found', reason: 'DEPOSIT_NOT_FOUND' }, { outcome: 'unmatched', reason: 'DEPOSIT_NOT_FOUND' }],
    ['a noop with neither reason nor reported status', { outcome: 'noop', subject }, { ...found, outcome: 'duplicate' }],
  ] as const)('%s', (_case, outcome: ReportOutcome, decision: WebhookDecision) => {
    expect(deliveryDecision(outcome)).toEqual(decision);
  });
});
