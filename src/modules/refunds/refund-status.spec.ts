// Unit spec of the refund transition table: every (from, to) pair, finality, repeats.

import { describe, expect, it } from 'vitest';
import type { RefundStatus } from '../../providers/provider.js';
import {
  REFUND_TERMINAL_STATUSES,
  REFUND_TRANSITIONS,
  assertRefundTransitionsConsistent,
  decideRefundTransition,
  depositRefundStatus,
  isTerminalRefundStatus,
} from './refund-status.js';

const ALL: RefundStatus[] = ['REQUESTED', 'APPROVED', 'REJECTED'];

/** 'a' apply, 'n' no-op, '-' anomaly; columns in the order of ALL. */
const EXPECTED: Record<RefundStatus, string> = {
  //         REQ APP REJ
  REQUESTED: 'n   a   a',
  APPROVED:  '-   n   -',
  REJECTED:  '-   -   n',
};
const KIND = { a: 'apply', n: 'noop', '-': 'anomaly' } as const;

const pairs = ALL.flatMap((from) => {
  const row = EXPECTED[from].split(/\s+/) as Array<keyof typeof KIND>;
  return ALL.map((to, i) => [from, to, KIND[row[i]!]] as const);
});

describe('refund status transitions', () => {
  it('covers every status', () => {
    expect(Object.keys(REFUND_TRANSITIONS).sort()).toEqual([...ALL].sort());
  });

  it.each(pairs)('%s -> %s is %s', (from, to, kind) => {
    expect(decideRefundTransition(from, to).kind).toBe(kind);
  });

  it('decides a refund once: APPROVED and REJECTED are final', () => {
    expect(ALL.filter(isTerminalRefundStatus)).toEqual(REFUND_TERMINAL_STATUSES);
    expect(decideRefundTransition('APPROVED', 'REJECTED')).toEqual({
      kind: 'anomaly',
      reason: 'refund APPROVED is final and cannot move to REJECTED',
    });
  });

  it('passes its start-up check', () => {
    expect(() => assertRefundTransitionsConsistent()).not.toThrow();
  });
});

describe('deposit refund status', () => {
  const known = (status: RefundStatus) => ({ status, providerReference: `rf_${status}` });

  it('is null while the provider knows of no refund', () => {
    expect(depositRefundStatus([])).toBeNull();
    expect(depositRefundStatus([{ status: 'REJECTED', providerReference: null }])).toBeNull();
  });

  it('shows an open request first, then an executed refund, then a refusal', () => {
    expect(depositRefundStatus([known('APPROVED'), known('REQUESTED')])).toBe('REQUESTED');
    expect(depositRefundStatus([known('REJECTED'), known('APPROVED')])).toBe('APPROVED');
    expect(depositRefundStatus([known('REJECTED')])).toBe('REJECTED');
  });
});
