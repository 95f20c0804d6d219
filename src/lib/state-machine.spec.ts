// Unit spec of the generic promote-only state machine and its start-up consistency check.

import { describe, expect, it } from 'vitest';
import { defineStateMachine, type StateMachineDefinition } from './state-machine.js';

type Light = 'OFF' | 'ON' | 'DIMMED' | 'BROKEN';

const definition: StateMachineDefinition<Light> = {
  name: 'light',
  initial: 'OFF',
  terminal: ['BROKEN'],
  table: { OFF: ['ON', 'BROKEN'], ON: ['DIMMED', 'BROKEN'], DIMMED: ['BROKEN'], BROKEN: [] },
};

function broken(table: Record<string, readonly string[]>, overrides: Partial<StateMachineDefinition<string>> = {}) {
  return defineStateMachine<string>({ ...(definition as StateMachineDefinition<string>), table, ...overrides });
}

describe('defineStateMachine', () => {
  const light = defineStateMachine(definition);

  it('applies listed transitions, ignores repeats and flags everything else', () => {
    expect(light.decide('OFF', 'ON')).toEqual({ kind: 'apply' });
    expect(light.decide('ON', 'ON')).toEqual({ kind: 'noop' });
    expect(light.decide('BROKEN', 'BROKEN')).toEqual({ kind: 'noop' });
    expect(light.decide('DIMMED', 'ON')).toEqual({ kind: 'anomaly', reason: 'light DIMMED cannot move to ON' });
    expect(light.decide('BROKEN', 'ON')).toEqual({ kind: 'anomaly', reason: 'light BROKEN is final and cannot move to ON' });
  });

  it('treats unknown statuses as anomalies rather than throwing', () => {
    expect(light.decide('LOST' as Light, 'ON')).toMatchObject({ kind: 'anomaly', reason: 'light is in unknown status LOST' });
    expect(light.decide('ON', 'LOST' as Light)).toMatchObject({ kind: 'anomaly', reason: 'unknown light status LOST' });
  });

  it('exposes the table, terminal set and transition predicate', () => {
    expect(light.statuses).toEqual(['OFF', 'ON', 'DIMMED', 'BROKEN']);
    expect(light.isTerminal('BROKEN')).toBe(true);
    expect(light.isTerminal('ON')).toBe(false);
    expect(light.canTransition('ON', 'DIMMED')).toBe(true);
    expect(light.canTransition('ON', 'ON')).toBe(false);
    expect(light.canTransition('DIMMED', 'OFF')).toBe(false);
  });

  it('accepts a consistent table', () => {
    expect(light.problems()).toEqual([]);
    expect(() => light.assertConsistent()).not.toThrow();
  });

  describe('consistency check', () => {
    const cases: Array<[string, ReturnType<typeof broken>, RegExp]> = [
      ['a terminal row that lists a move', broken({ ...definition.table, BROKEN: ['OFF'] }), /BROKEN is terminal but lists OFF/],
      ['a move back to the initial status', broken({ ...definition.table, ON: ['OFF', 'BROKEN'] }), /ON -> OFF: nothing may move back/],
      ['a target without a row', broken({ ...definition.table, ON: ['BROKEN', 'MELTED'] }), /ON -> MELTED: MELTED has no row/],
      ['a terminal status without a row', broken({ OFF: ['ON'], ON: [] }, { terminal: ['ON', 'BROKEN'] }), /terminal status BROKEN has no row/],
      ['an initial status without a row', broken({ ON: ['BROKEN'], BROKEN: [] }), /initial status OFF has no row/],
      ['a dead end not declared terminal', broken({ ...definition.table, DIMMED: [] }), /DIMMED has no way out/],
      ['a self-transition', broken({ ...definition.table, ON: ['ON', 'BROKEN'] }), /ON -> ON: a repeat is a no-op/],
      ['a cycle', broken({ ...definition.table, ON: ['DIMMED', 'BROKEN'], DIMMED: ['ON', 'BROKEN'] }), /cycle ON -> DIMMED -> ON/],
      ['an unreachable status', broken({ ...definition.table, OFF: ['BROKEN'], ON: ['BROKEN'], DIMMED: ['BROKEN'] }), /ON cannot be reached from OFF/],
      ['a duplicate target', broken({ ...definition.table, OFF: ['ON', 'ON', 'BROKEN'] }), /OFF lists a status twice/],
    ];

    it.each(cases)('rejects %s', (_label, machine, message) => {
      expect(() => machine.assertConsistent()).toThrow(message);
      expect(() => machine.assertConsistent()).toThrow(/^The light status transition table is inconsistent/);
    });
  });
});
