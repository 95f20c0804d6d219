// A `<subject>Updated` subscription's filter: its subject kind, with a snapshot, its one subject
// when it names one, what the viewer may see; shared by a viewer's subscriptions without an id.

import { describe, expect, it } from 'vitest';
import type { Viewer } from '../visibility.js';
import { declareSubjectKinds } from '../visibility.fixture.js';
import { subjectUpdates, type EventNotification } from './event-notification.js';

// Who sees a kind is the modules' declaration, made at start: made here as the gateway makes it.
declareSubjectKinds();

const cashier: Viewer = { id: 'cli_cashier', roles: ['CASHIER'], merchantAccounts: null };
const admin: Viewer = { id: 'cli_admin', roles: ['ADMIN'], merchantAccounts: null };

function event(overrides: Partial<EventNotification>): EventNotification {
  return {
    position: '1',
    id: 'evt_1',
    type: 'deposit.status_changed',
    subjectType: 'deposit',
    subjectId: 'dep_1',
    clientId: 'cli_cashier',
    merchantAccount: 'acc-a',
    fromStatus: 'PENDING',
    toStatus: 'SUCCEEDED',
    createdAt: '2024-01-01T00:00:00.000Z',
    snapshot: { id: 'dep_1' },
    ...overrides,
  };
}

describe('subjectUpdates', () => {
  it('takes the events of its subject kind that carry a snapshot and the viewer may see', () => {
    const filter = subjectUpdates(cashier, 'deposit');
    expect(filter(event({}))).toBe(true);
    expect(filter(event({ subjectType: 'refund' }))).toBe(false);
    expect(filter(event({ snapshot: undefined }))).toBe(false);
    expect(filter(event({ clientId: 'cli_other' }))).toBe(false);
    expect(subjectUpdates(admin, 'deposit')(event({ clientId: 'cli_other' }))).toBe(true);
  });

  it('with an id, takes only that subject\'s events', () => {
    const filter = subjectUpdates(cashier, 'deposit', 'dep_1');
    expect(filter(event({}))).toBe(true);
    expect(filter(event({ subjectId: 'dep_2' }))).toBe(false);
    expect(filter(event({ clientId: 'cli_other' }))).toBe(false);
  });

  it('gives one viewer\'s subscriptions without an id one function per subject kind', () => {
    expect(subjectUpdates(cashier, 'deposit')).toBe(subjectUpdates(cashier, 'deposit'));
    expect(subjectUpdates(cashier, 'refund')).not.toBe(subjectUpdates(cashier, 'deposit'));
    expect(subjectUpdates(admin, 'deposit')).not.toBe(subjectUpdates(cashier, 'deposit'));
    expect(subjectUpdates(cashier, 'deposit', 'dep_1')).not.toBe(subjectUpdates(cashier, 'deposit', 'dep_1'));
  });
});
