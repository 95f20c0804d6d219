// Unit spec of the deposit transition table: every (from, to) pair, finality, promote-only, repeats.

import { describe, expect, it } from 'vitest';
import type { DepositStatus } from '../../providers/provider.js';
import {
  DEPOSIT_TERMINAL_STATUSES,
  DEPOSIT_TRANSITIONS,
  assertDepositTransitionsConsistent,
  decideDepositTransition,
  depositStateMachine,
  isTerminalDepositStatus,
} from './deposit-status.js';

const ALL: DepositStatus[] = ['PENDING', 'AUTHORIZED', 'SUCCEEDED', 'DECLINED', 'EXPIRED', 'CANCELLED', 'FAILED', 'REFUNDED'];

/** The expected outcome written out independently of the table: 'a' apply, 'n' no-op, '-' anomaly. */
const EXPECTED: Record<DepositStatus, string> = {
  //          PEN AUT SUC DEC EXP CAN FAI REF
  PENDING:    'n   a   a   a   a   a   a   -',
  AUTHORIZED: '-   n   a   a   a   a   a   -',
  SUCCEEDED:  '-   -   n   -   -   -   -   a',
  DECLINED:   '-   -   -   n   -   -   -   -',
  EXPIRED:    '-   -   -   -   n   -   -   -',
  CANCELLED:  '-   -   -   -   -   n   -   -',
  FAILED:     '-   -   -   -   -   -   n   -',
  REFUNDED:   '-   -   -   -   -   -   -   n',
};
const KIND = { a: 'apply', n: 'noop', '-': 'anomaly' } as const;

const pairs = ALL.flatMap((from) => {
  const row = EXPECTED[from].split(/\s+/) as Array<keyof typeof KIND>;
  return ALL.map((to, i) => [from, to, KIND[row[i]!]] as const);
});

describe('deposit status transitions', () => {
  it('covers every status', () => {
    expect(Object.keys(DEPOSIT_TRANSITIONS).sort()).toEqual([...ALL].sort());
    expect(pairs).toHaveLength(64);
  });

  it.each(pairs)('%s -> %s is %s', (from, to, kind) => {
    const decision = decideDepositTransition(from, to);
    expect(decision.kind).toBe(kind);
    if (decision.kind === 'anomaly') expect(decision.reason).toContain(`${from} `);
  });

  it('keeps a SUCCEEDED deposit SUCCEEDED when a late decline arrives', () => {
    expect(decideDepositTransition('SUCCEEDED', 'DECLINED')).toEqual({
      kind: 'anomaly',
      reason: 'deposit SUCCEEDED cannot move to DECLINED',
    });
  });

  it('treats terminal statuses as final', () => {
    expect([...DEPOSIT_TERMINAL_STATUSES].sort()).toEqual(['CANCELLED', 'DECLINED', 'EXPIRED', 'FAILED', 'REFUNDED']);
    for (const from of DEPOSIT_TERMINAL_STATUSES) {
      expect(isTerminalDepositStatus(from)).toBe(true);
      for (const to of ALL.filter((status) => status !== from)) {
        expect(decideDepositTransition(from, to)).toEqual({
          kind: 'anomaly',
          reason: `deposit ${from} is final and cannot move to ${to}`,
        });
      }
    }
    expect(ALL.filter(isTerminalDepositStatus)).toEqual(DEPOSIT_TERMINAL_STATUSES);
  });

  it('only promotes: no status is ever re-entered, nothing returns to PENDING', () => {
    for (const from of ALL) {
      expect(depositStateMachine.canTransition(from, 'PENDING')).toBe(false);
      for (const to of DEPOSIT_TRANSITIONS[from]) {
        expect(depositStateMachine.canTransition(to, from)).toBe(false);
      }
    }
  });

  it('is a no-op on every repeat', () => {
    for (const status of ALL) expect(decideDepositTransition(status, status)).toEqual({ kind: 'noop' });
  });

  it('passes its start-up check', () => {
    expect(() => assertDepositTransitionsConsistent()).not.toThrow();
  });
});
