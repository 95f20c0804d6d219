// Unit spec of the payout transition table: every (from, to) pair, finality, promote-only, repeats.

import { describe, expect, it } from 'vitest';
import type { PayoutStatus } from '../../providers/provider.js';
import {
  PAYOUT_TERMINAL_STATUSES,
  PAYOUT_TRANSITIONS,
  assertPayoutTransitionsConsistent,
  decidePayoutTransition,
  isTerminalPayoutStatus,
} from './payout-status.js';

const ALL: PayoutStatus[] = ['PENDING', 'PAID', 'BOUNCED', 'REVERTED', 'FAILED'];

/** 'a' apply, 'n' no-op, '-' anomaly; columns in the order of ALL. */
const EXPECTED: Record<PayoutStatus, string> = {
  //        PEN PAI BOU REV FAI
  PENDING:  'n   a   a   -   a',
  PAID:     '-   n   -   a   -',
  BOUNCED:  '-   -   n   -   -',
  REVERTED: '-   -   -   n   -',
  FAILED:   '-   -   -   -   n',
};
const KIND = { a: 'apply', n: 'noop', '-': 'anomaly' } as const;

const pairs = ALL.flatMap((from) => {
  const row = EXPECTED[from].split(/\s+/) as Array<keyof typeof KIND>;
  return ALL.map((to, i) => [from, to, KIND[row[i]!]] as const);
});

describe('payout status transitions', () => {
  it('covers every status', () => {
    expect(Object.keys(PAYOUT_TRANSITIONS).sort()).toEqual([...ALL].sort());
  });

  it.each(pairs)('%s -> %s is %s', (from, to, kind) => {
    expect(decidePayoutTransition(from, to).kind).toBe(kind);
  });

  it('never lets a late bounce undo a paid payout', () => {
    expect(decidePayoutTransition('PAID', 'BOUNCED')).toEqual({ kind: 'anomaly', reason: 'payout PAID cannot move to BOUNCED' });
  });

  it('treats BOUNCED, REVERTED and FAILED as final', () => {
    expect(ALL.filter(isTerminalPayoutStatus)).toEqual(PAYOUT_TERMINAL_STATUSES);
    expect([...PAYOUT_TERMINAL_STATUSES].sort()).toEqual(['BOUNCED', 'FAILED', 'REVERTED']);
    for (const from of PAYOUT_TERMINAL_STATUSES) {
      for (const to of ALL.filter((status) => status !== from)) {
        expect(decidePayoutTransition(from, to)).toMatchObject({ kind: 'anomaly', reason: expect.stringContaining('is final') });
      }
    }
  });

  it('passes its start-up check', () => {
    expect(() => assertPayoutTransitionsConsistent()).not.toThrow();
  });
});
