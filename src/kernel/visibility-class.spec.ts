// visibilityClass is sound for sharing one subscription execution: two viewers of one class get
// the same answer from maySee for every record, subject and capacity, and hold the same roles
// (what the resolvers' admin checks and the auth checker read). Checked over every viewer the
// policy can meet, and over reorderings and repeats of their roles and accounts. A class's
// visibility (what a subscription group executes with) answers as its callers do, and names none
// of them but the owner of a cashier's class, who is its only caller.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROLES } from './roles.js';
import { maySee, seenBy, visibilityClass, visibilityOf, type Viewer, type VisibilityOptions } from './visibility.js';
import { declareSubjectKinds, SUBJECT_TYPES } from './visibility.fixture.js';

declareSubjectKinds();

const CLIENTS = ['cli_one', 'cli_two', 'cli_three'];
const ACCOUNTS = ['acc-a', 'acc-b', 'acc-c'];

function subsets<T>(items: readonly T[]): T[][] {
  return items.reduce<T[][]>((all, item) => [...all, ...all.map((subset) => [...subset, item])], [[]]);
}

const viewers: Viewer[] = subsets(ROLES).flatMap((roles) =>
  [null, [], ['acc-a'], ['acc-b'], ['acc-a', 'acc-b'], ['acc-b', 'acc-a']].flatMap((merchantAccounts) => CLIENTS.map((id) => ({ id, roles, merchantAccounts }))),
);

const records = [...CLIENTS, null, undefined].flatMap((clientId) =>
  [...ACCOUNTS, null].flatMap((merchantAccount) => [false, true, undefined].map((adminOnly) => ({ clientId, merchantAccount, adminOnly }))),
);

const capacities: VisibilityOptions[] = [{}, ...subsets(ROLES).map((through) => ({ through }))];

/** What `answers` gave each viewer object: the cases below read most viewers more than once. */
const answered = new WeakMap<Viewer, string>();

/**
 * Every answer maySee gives the viewer, in a fixed order, and the role set the resolvers read.
 * `maySee(viewer, subject, record, options)` is `seenBy(viewer, subject, options)(record)`
 * (visibility.ts): the viewer's grants are worked out once per subject and capacity, not once per
 * record (six million calls made this spec take eight seconds); the first record of each is also
 * asked of maySee itself.
 */
function answers(viewer: Viewer): string {
  const known = answered.get(viewer);
  if (known !== undefined) return known;
  const seen: string[] = [];
  for (const options of capacities) {
    for (const subject of SUBJECT_TYPES) {
      const sees = seenBy(viewer, subject, options);
      if (maySee(viewer, subject, records[0]!, options) !== sees(records[0]!)) throw new Error(`maySee and seenBy differ for ${JSON.stringify(viewer)}`);
      seen.push(records.map((record) => (sees(record) ? '1' : '0')).join(''));
    }
  }
  const roles = ROLES.map((role) => (viewer.roles.includes(role) ? '1' : '0')).join('');
  const text = `${roles}|${seen.join('|')}`;
  answered.set(viewer, text);
  return text;
}

describe('visibilityClass', () => {
  it('puts viewers in one class only when maySee answers them alike, for every viewer the policy can meet', () => {
    const byClass = new Map<string, { first: Viewer; answers: string }>();
    for (const viewer of viewers) {
      const key = visibilityClass(viewer);
      const known = byClass.get(key);
      if (!known) {
        byClass.set(key, { first: viewer, answers: answers(viewer) });
        continue;
      }
      expect(answers(viewer), `${JSON.stringify(viewer)} and ${JSON.stringify(known.first)} share ${key}`).toBe(known.answers);
    }
    // Classes do group: clients differing only in id share one unless they own records.
    expect(byClass.size).toBeLessThan(viewers.length);
  });

  it('ignores the order and repeats of roles and accounts, and the id of a client that owns nothing', () => {
    expect(visibilityClass({ id: 'cli_one', roles: ['REFUNDS', 'PAYOUTS'], merchantAccounts: ['acc-b', 'acc-a'] })).toBe(
      visibilityClass({ id: 'cli_two', roles: ['PAYOUTS', 'REFUNDS', 'PAYOUTS'], merchantAccounts: ['acc-a', 'acc-b', 'acc-a'] }),
    );
    expect(visibilityClass({ id: 'cli_one', roles: ['ADMIN'] })).toBe(visibilityClass({ id: 'cli_two', roles: ['ADMIN'], merchantAccounts: null }));
  });

  it('keeps apart what differs in what may be seen: owners, accounts, no restriction against an empty one, roles', () => {
    expect(visibilityClass({ id: 'cli_one', roles: ['CASHIER'] })).not.toBe(visibilityClass({ id: 'cli_two', roles: ['CASHIER'] }));
    expect(visibilityClass({ id: 'cli_one', roles: ['REFUNDS'], merchantAccounts: ['acc-a'] })).not.toBe(visibilityClass({ id: 'cli_one', roles: ['REFUNDS'], merchantAccounts: ['acc-b'] }));
    expect(visibilityClass({ id: 'cli_one', roles: ['REFUNDS'], merchantAccounts: null })).not.toBe(visibilityClass({ id: 'cli_one', roles: ['REFUNDS'], merchantAccounts: [] }));
    expect(visibilityClass({ id: 'cli_one', roles: ['ADMIN'] })).not.toBe(visibilityClass({ id: 'cli_one', roles: ['ADMIN', 'PAYOUTS'] }));
  });

  it('gives a viewer a visibility that answers as it does, is of its class, and holds its id only as the owner of its own records', () => {
    for (const viewer of viewers) {
      const visibility = visibilityOf(viewer);
      expect(answers(visibility), JSON.stringify(viewer)).toBe(answers(viewer));
      expect(visibilityClass(visibility)).toBe(visibilityClass(viewer));
      expect(Object.keys(visibility).sort()).toEqual(['merchantAccounts', 'owner', 'roles']);
      expect(visibility.owner).toBe(viewer.roles.includes('CASHIER') ? (viewer as { id: string }).id : null);
      expect(Object.isFrozen(visibility) && Object.isFrozen(visibility.roles)).toBe(true);
    }
    // A cashier's grant without an owner would be every record: a visibility made without one grants nothing.
    const seen = (viewer: Viewer) => answers(viewer).split('|').slice(1).join('');
    expect(seen({ roles: ['CASHIER'], merchantAccounts: null, owner: null })).toMatch(/^0+$/);
  });

  it('two viewers with the same class get the same answers, for any roles and accounts in any order (fuzzed)', () => {
    const role = fc.constantFrom(...ROLES);
    const viewer = fc.record({
      id: fc.constantFrom(...CLIENTS),
      roles: fc.array(role, { maxLength: 6 }),
      merchantAccounts: fc.option(fc.array(fc.constantFrom(...ACCOUNTS), { maxLength: 5 }), { nil: null }),
    });
    fc.assert(
      fc.property(viewer, viewer, (a, b) => {
        if (visibilityClass(a) !== visibilityClass(b)) return;
        expect(answers(a)).toBe(answers(b));
      }),
      { seed: 20261123, numRuns: 2000 },
    );
  });
});
