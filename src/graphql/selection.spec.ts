// What a list reads by its query's selection: the properties each field needs (FieldReads), and the
// deposit and refund nodes made from rows of only those properties, field by field the nodes of
// the whole snapshot.

import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { depositFields } from '../modules/deposits/deposit.fixture.js';
import type { Deposit } from '../modules/deposits/deposit.entity.js';
import { DEPOSIT_SNAPSHOT_PROPERTIES, toDepositSnapshot, type DepositSnapshotProperty } from '../modules/deposits/deposit-snapshot.js';
import { DEPOSIT_FIELD_READS, DepositNode } from '../modules/deposits/deposit.types.js';
import { REFUND_SNAPSHOT_PROPERTIES, toRefundSnapshot, type RefundFacts } from '../modules/refunds/refund-snapshot.js';
import { RefundNode } from '../modules/refunds/refund.types.js';
import { REFUND_FIELD_READS } from './loaders.js';
import { FieldReads, selectsOnly } from './selection.js';

/** The selection of a document's first operation, with the document's fragments, as a resolver's info holds them. */
function selectionOf(text: string): { info: { fragments: Record<string, FragmentDefinitionNode> }; set: SelectionSetNode } {
  const document = parse(text);
  const operation = document.definitions.find((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = Object.fromEntries(document.definitions.filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION).map((fragment) => [fragment.name.value, fragment]));
  return { info: { fragments }, set: operation.selectionSet };
}

function readsOf<P extends string>(reads: FieldReads<P>, text: string): readonly P[] {
  const { info, set } = selectionOf(text);
  return reads.of(info, [set]);
}

/** A row of only `properties`, as a read of those columns gives it (dates as ISO text). */
function readOf<T extends object>(row: T, properties: readonly string[]): T {
  return Object.fromEntries(properties.map((property) => [property, (row as Record<string, unknown>)[property]])) as T;
}

const ISO = (date: Date) => date.toISOString();

/** Deposits whose every nullable property has a value in one of them, and a null in another: as `isoDateRows` gives them. */
const DEPOSIT_ROWS = [
  depositFields(),
  depositFields({
    status: 'SUCCEEDED', statusReason: '05', fee: '0.3', net: '9.7', refundedAmount: '2.5', refundStatus: 'APPROVED', disputed: true,
    redirectUrl: 'https://pay.example/1', merchantReference: 'order-1', declineReason: null, metadata: { z: '1', a: '2' },
    approvedAt: new Date('2026-01-02T03:05:00.000Z'), creditClaimedAt: new Date('2026-01-02T03:06:00.120Z'), livemode: true,
  }),
  depositFields({ rail: 'THAI_QR', currency: 'THB', amount: '100', qrPayload: '000201…', qrExpiresAt: new Date('2026-01-02T04:04:05.000Z'), declineReason: 'expired_card', refundedAmount: null as unknown as string }),
  depositFields({ rail: 'CRYPTO', currency: 'USD', crypto: { quoteTtlMinutes: 15, underpayTolerancePct: '0.5' }, metadata: {} }),
].map((deposit) => {
  const row = readOf(deposit, DEPOSIT_SNAPSHOT_PROPERTIES) as Record<string, unknown>;
  for (const property of ['qrExpiresAt', 'approvedAt', 'creditClaimedAt', 'createdAt', 'updatedAt']) if (row[property] instanceof Date) row[property] = ISO(row[property]);
  return row as unknown as Parameters<typeof DepositNode.fromRow>[0] & Pick<Deposit, DepositSnapshotProperty>;
});

const REFUND_ROWS: RefundFacts[] = [
  { id: 'rfd_1', depositId: 'dep_1', clientId: 'cli_1', origin: 'GATEWAY', status: 'REQUESTED', providerStatus: null, amount: '5', currency: 'EUR', reason: null, createdAt: '2026-01-02T03:04:05.000Z', updatedAt: '2026-01-02T03:04:06.000Z' },
  { id: 'rfd_2', depositId: 'dep_1', clientId: null, origin: 'PROVIDER', status: 'APPROVED', providerStatus: 'refunded', amount: '2.50', currency: 'EUR', reason: 'late', createdAt: '2026-01-02T03:04:07.000Z', updatedAt: '2026-01-02T03:04:08.000Z' },
];

describe('FieldReads', () => {
  const reads = new FieldReads<'id' | 'a' | 'b' | 'c' | 'pos'>({ id: [], x: ['a'], y: ['a', 'b'], z: ['c'] }, ['id', 'pos'], ['id', 'a', 'b', 'c', 'pos']);

  it('reads what the fields ask, in the order of every property, with what every row needs', () => {
    expect(readsOf(reads, '{ y }')).toEqual(['id', 'a', 'b', 'pos']);
    expect(readsOf(reads, '{ __typename id }')).toEqual(['id', 'pos']);
  });

  it('follows fragments and inline fragments, under any alias and any directive', () => {
    expect(readsOf(reads, '{ ...F } fragment F on T { ... on T { alias: z @skip(if: true) } }')).toEqual(['id', 'c', 'pos']);
  });

  it('reads every property for a field it does not know or a fragment the document lacks', () => {
    expect(readsOf(reads, '{ x unknown }')).toBe(reads.every);
    expect(readsOf(reads, '{ x ...Missing }')).toBe(reads.every);
    expect(readsOf(reads, '{ x y z }')).toBe(reads.every);
  });

  it('gives one list object per set, the same on every call, and every property past its number of sets', () => {
    expect(readsOf(reads, '{ x }')).toBe(readsOf(reads, '{ ... on T { x } }'));
    const many = new FieldReads<string>(Object.fromEntries(Array.from({ length: 40 }, (_, n) => [`f${n}`, [`p${n}`]])), [], Array.from({ length: 40 }, (_, n) => `p${n}`));
    const lists = Array.from({ length: 40 }, (_, n) => readsOf(many, `{ f${n} }`));
    expect(lists.slice(0, 32).every((list, n) => list.length === 1 && list[0] === `p${n}`)).toBe(true);
    expect(lists.slice(32).every((list) => list === many.every)).toBe(true);
    expect(readsOf(many, '{ f0 }')).toBe(lists[0]);
  });

  it('refuses a field that reads a property it does not list', () => {
    expect(() => new FieldReads<string>({ x: ['b'] }, ['id'], ['id'])).toThrow(/b/);
  });
});

describe('selectsOnly', () => {
  it('holds when every field is one of the names, through fragments; not for another or a missing fragment', () => {
    const check = (text: string) => {
      const { info, set } = selectionOf(text);
      return selectsOnly(info, [set], ['edges', 'pageInfo']);
    };
    expect(check('{ edges { x } __typename ...F } fragment F on C { pageInfo { y } }')).toBe(true);
    expect(check('{ edges { x } totalCount }')).toBe(false);
    expect(check('{ edges { x } ...Missing }')).toBe(false);
  });
});

describe('DepositNode.fromRow', () => {
  it('makes from a whole row the node the snapshot makes', () => {
    for (const row of DEPOSIT_ROWS) expect(DepositNode.fromRow(row)).toEqual(DepositNode.from(toDepositSnapshot(row)));
  });

  it('answers each field from a row of what DEPOSIT_FIELD_READS reads for it alone, as the whole row does', () => {
    const fields = Object.keys((DEPOSIT_FIELD_READS as unknown as { byField: Record<string, unknown> }).byField);
    expect(fields.length).toBeGreaterThan(20);
    for (const field of fields) {
      const properties = readsOf(DEPOSIT_FIELD_READS, `{ ${field} }`);
      expect(properties, field).not.toBe(DEPOSIT_FIELD_READS.every);
      for (const row of DEPOSIT_ROWS) {
        const whole = DepositNode.from(toDepositSnapshot(row)) as unknown as Record<string, unknown>;
        const partial = DepositNode.fromRow(readOf(row, properties)) as unknown as Record<string, unknown>;
        if (field in whole) expect(partial[field], `${field} of ${row.id}`).toEqual(whole[field]);
      }
    }
  });

  it('reads the refunds\' visibility facts when refunds are asked', () => {
    expect(readsOf(DEPOSIT_FIELD_READS, '{ refunds { id } }')).toEqual(expect.arrayContaining(['id', 'clientId', 'merchantAccount', 'createdAt']));
  });
});

describe('RefundNode.fromRow', () => {
  it('makes from a whole row the node the snapshot makes', () => {
    for (const row of REFUND_ROWS) expect(RefundNode.fromRow(row)).toEqual(RefundNode.from(toRefundSnapshot(row)));
  });

  it('answers each field from a row of what REFUND_FIELD_READS reads for it alone, as the whole row does', () => {
    const fields = Object.keys((REFUND_FIELD_READS as unknown as { byField: Record<string, unknown> }).byField);
    for (const field of fields) {
      const properties = readsOf(REFUND_FIELD_READS, `{ ${field} }`);
      expect(properties, field).not.toBe(REFUND_FIELD_READS.every);
      for (const row of REFUND_ROWS) {
        const whole = RefundNode.from(toRefundSnapshot(row)) as unknown as Record<string, unknown>;
        const partial = RefundNode.fromRow(readOf(row, properties)) as unknown as Record<string, unknown>;
        if (field in whole) expect(partial[field], `${field} of ${row.id}`).toEqual(whole[field]);
      }
    }
    expect(REFUND_FIELD_READS.every).toBe(REFUND_SNAPSHOT_PROPERTIES);
  });
});
