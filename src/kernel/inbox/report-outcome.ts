// What a webhook handler made of one report, in the transition path's terms, and the one mapping
// from it to the delivery's recorded decision: handlers say what happened to their subject, the
// inbox decides what that makes of the delivery.

import type { PaymentSubjectType } from '../events/payment-event.entity.js';
import type { TransitionResult } from '../transitions.js';
import type { WebhookOutcome } from './webhook-delivery.entity.js';

/** What became of one event: the inbox row records it. */
export interface WebhookDecision {
  outcome: WebhookOutcome;
  reason?: string;
  subjectType?: PaymentSubjectType;
  subjectId?: string;
}

/** The subject a report is about, once a handler has found it. */
export interface ReportSubject {
  type: PaymentSubjectType;
  id: string;
}

/**
 * A handler's answer about one report:
 * - `applied`, `noop`, `stale`, `anomaly`, `not_found`: as the transition path reports them
 *   (`TransitionResult`), also for what a handler decides without a status change (an event of the
 *   other mode is an `anomaly`; a payment-level report already explained by our records a `noop`).
 * - `deferred`: it cannot be decided until the subject's status changes; decided again then.
 * - `in_progress`: other reports about the subject decide; this one is kept and not acted on.
 */
export interface ReportOutcome {
  outcome: TransitionResult<unknown>['outcome'] | 'deferred' | 'in_progress';
  reason?: string;
  /** Absent when no subject was found (then `not_found`) or the report names none. */
  subject?: ReportSubject;
  /** The status reported, for the reason of a report that changed nothing. */
  reported?: string;
  /**
   * Why a report of the status the subject already has still counts as applied: the subject (or
   * its provider reference) was recorded from this very report.
   */
  firstSight?: string;
}

/** What `outcome` makes of a delivery: the inbox's only reading of a handler's answer. */
export function deliveryDecision(outcome: ReportOutcome): WebhookDecision {
  const subject = outcome.subject ? { subjectType: outcome.subject.type, subjectId: outcome.subject.id } : {};
  const reason = outcome.reason !== undefined ? { reason: outcome.reason } : {};
  switch (outcome.outcome) {
    case 'applied':
      return { outcome: 'applied', ...subject, ...reason };
    case 'noop':
    case 'stale':
      if (outcome.firstSight !== undefined) return { outcome: 'applied', ...subject, reason: outcome.firstSight };
      // A distinct event reporting the status the subject has (or has moved past): a duplicate, not an anomaly.
      if (outcome.reason !== undefined) return { outcome: 'duplicate', ...subject, reason: outcome.reason };
      return { outcome: 'duplicate', ...subject, ...(outcome.subject && outcome.reported !== undefined ? { reason: `STATUS_UNCHANGED: ${outcome.subject.type} is already ${outcome.reported}` } : {}) };
    case 'anomaly':
      return { outcome: 'anomaly', ...subject, ...reason };
    case 'not_found':
      // The subject vanished, or never was ours: no subject to name.
      return { outcome: 'unmatched', ...reason };
    case 'deferred':
      return { outcome: 'deferred', ...subject, ...reason };
    case 'in_progress':
      return { outcome: 'ignored', ...subject, ...reason };
  }
}

/** A transition's result about `subject` as a handler's answer: `reported` is the status the report carried. */
export function transitionReport(result: Pick<TransitionResult<unknown>, 'outcome' | 'reason'>, subject: ReportSubject, reported: string, firstSight?: string): ReportOutcome {
  return {
    outcome: result.outcome,
    ...(result.reason !== undefined ? { reason: result.reason } : {}),
    subject,
    reported,
    ...(firstSight !== undefined ? { firstSight } : {}),
  };
}
