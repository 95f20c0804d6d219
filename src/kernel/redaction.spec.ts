// The redaction policies' rules: an admin reads every field, any other reader the admin-only ones
// as null, and a gateway whose subject kinds are not all covered does not start.

import { describe, expect, it } from 'vitest';
import { ROLES } from './roles.js';
import { mayRead, readsUnmasked, redact, redactionPolicy, Redactions } from './redaction.js';
import { declareSubjectKinds, SUBJECT_TYPES } from './visibility.fixture.js';

declareSubjectKinds();

interface Snapshot {
  id: string;
  statusReason: string | null;
  secretNote?: string | null;
  amount: string;
}

const policy = redactionPolicy<Snapshot>('deposit', { adminOnly: ['statusReason', 'secretNote'], unmaskedForAdmins: ['beneficiary.accountNumber'] });
const snapshot: Snapshot = { id: 'dep_1', statusReason: '05 Do not honour', secretNote: 'for admins', amount: '10.00' };

const readers = ROLES.map((role) => ({ roles: [role] }));
const admins = readers.filter((reader) => reader.roles.includes('ADMIN'));
const others = [{ roles: [] }, ...readers.filter((reader) => !reader.roles.includes('ADMIN'))];

describe('a redaction policy', () => {
  it('gives an admin the snapshot as it is, and every other reader each admin-only field as null, the rest untouched', () => {
    for (const reader of [...admins, { roles: ['CASHIER', 'ADMIN'] as const }]) expect(redact(reader, policy, snapshot)).toEqual(snapshot);
    for (const reader of others) {
      expect(redact(reader, policy, snapshot)).toEqual({ id: 'dep_1', statusReason: null, secretNote: null, amount: '10.00' });
      expect(JSON.stringify(redact(reader, policy, snapshot))).not.toMatch(/Do not honour|for admins/);
    }
    // the snapshot given is left as it was (the event bus shares one with every subscriber)
    expect(snapshot.statusReason).toBe('05 Do not honour');
  });

  it('adds no field a snapshot lacks (a snapshot written before the field existed)', () => {
    const older = { id: 'dep_0', statusReason: 'x', amount: '1.00' };
    expect(redact({ roles: ['CASHIER'] }, policy, older)).toEqual({ id: 'dep_0', statusReason: null, amount: '1.00' });
  });

  it('answers field by field as it redacts', () => {
    for (const reader of admins) for (const field of ['id', 'statusReason', 'secretNote', 'amount']) expect(mayRead(reader, policy, field)).toBe(true);
    for (const reader of others) {
      expect(['id', 'statusReason', 'secretNote', 'amount'].filter((field) => mayRead(reader, policy, field))).toEqual(['id', 'amount']);
    }
  });

  it('unmasks only what it names, and only for admins', () => {
    for (const reader of admins) {
      expect(readsUnmasked(reader, policy, 'beneficiary.accountNumber')).toBe(true);
      expect(readsUnmasked(reader, policy, 'beneficiary.cci')).toBe(false);
    }
    for (const reader of others) expect(readsUnmasked(reader, policy, 'beneficiary.accountNumber')).toBe(false);
  });
});

describe('the registered policies', () => {
  const complete = () => {
    const redactions = new Redactions();
    for (const subjectType of SUBJECT_TYPES) redactions.register(redactionPolicy<Snapshot>(subjectType, { adminOnly: subjectType === 'deposit' ? ['statusReason'] : [] }));
    return redactions;
  };

  it('redact by subject type, with that kind\'s policy', () => {
    const redactions = complete();
    expect(redactions.redact({ roles: ['REFUNDS'] }, 'deposit', snapshot).statusReason).toBeNull();
    expect(redactions.redact({ roles: ['REFUNDS'] }, 'refund', snapshot).statusReason).toBe('05 Do not honour');
    expect(redactions.all().map((registered) => registered.subjectType)).toEqual(SUBJECT_TYPES);
  });

  it('refuse a second policy for one kind, and a subject type without one, by name', () => {
    const redactions = complete();
    expect(() => redactions.register(redactionPolicy('payout', { adminOnly: [] }))).toThrow('The payout subject kind has a redaction policy already');
    expect(() => redactions.redact({ roles: ['ADMIN'] }, 'chargeback', snapshot)).toThrow('No redaction policy is registered for the chargeback subject kind');
  });

  it('stop the start while a subject type of the event log has no policy', () => {
    const redactions = new Redactions();
    redactions.register(policy);
    expect(() => redactions.assertComplete()).toThrow(`No redaction policy is registered for ${SUBJECT_TYPES.filter((type) => type !== 'deposit').join(', ')}`);
    expect(() => complete().assertComplete()).not.toThrow();
  });
});
