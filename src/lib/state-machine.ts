// One promote-only state machine shape for every status in the gateway (deposits, refunds, payouts):
// a transition table as data, a pure decision function, and a consistency check run at start-up.

/** Allowed next statuses for each status. A terminal status has an empty row. */
export type TransitionTable<S extends string> = { readonly [K in S]: readonly S[] };

/**
 * What to do with a reported status, given the current one.
 * - `apply`: a real transition; change the status and append an event row.
 * - `noop`: the same status again (a retried or duplicate report); change nothing.
 * - `anomaly`: not a transition this machine allows; record it with `reason`, change nothing.
 */
export type TransitionDecision = { kind: 'apply' } | { kind: 'noop' } | { kind: 'anomaly'; reason: string };

export interface StateMachineDefinition<S extends string> {
  /** Subject name used in messages, e.g. `deposit`. */
  name: string;
  /** The status every subject starts in. Nothing may move back to it. */
  initial: S;
  /** Statuses that are final: declared separately so the check can catch a row added by mistake. */
  terminal: readonly S[];
  table: TransitionTable<S>;
}

export interface StateMachine<S extends string> {
  readonly name: string;
  readonly initial: S;
  /** Every status, in table order. */
  readonly statuses: readonly S[];
  readonly terminal: ReadonlySet<S>;
  readonly table: TransitionTable<S>;
  /**
   * Decides what a reported status does to a subject in status `from`. Pure and total: an unknown
   * status (a bad row, a new provider word mapped carelessly) is an anomaly, never an exception.
   */
  decide(from: S, to: S): TransitionDecision;
  isTerminal(status: S): boolean;
  /** True when `to` is a listed next status of `from` (a repeat of `from` is not a transition). */
  canTransition(from: S, to: S): boolean;
  /** Every problem with the table, empty when it is consistent. */
  problems(): string[];
  /** Throws naming every problem; called once at start-up so a bad edit to a table never serves traffic. */
  assertConsistent(): void;
}

/**
 * Builds a state machine from its table. Construction never throws, so a unit test can build a
 * broken table and see {@link StateMachine.assertConsistent} reject it.
 *
 * @example
 * const light = defineStateMachine({ name: 'light', initial: 'OFF', terminal: ['BROKEN'],
 *   table: { OFF: ['ON', 'BROKEN'], ON: ['BROKEN'], BROKEN: [] } });
 * light.decide('ON', 'OFF') // { kind: 'anomaly', reason: 'light ON cannot move to OFF' }
 */
export function defineStateMachine<S extends string>(definition: StateMachineDefinition<S>): StateMachine<S> {
  const { name, initial, table } = definition;
  const statuses = Object.keys(table) as S[];
  const terminal: ReadonlySet<S> = new Set(definition.terminal);
  const known = new Set<string>(statuses);
  const next = new Map<S, ReadonlySet<S>>(statuses.map((status) => [status, new Set(table[status])]));

  const decide = (from: S, to: S): TransitionDecision => {
    if (!known.has(from)) return anomaly(`${name} is in unknown status ${String(from)}`);
    if (!known.has(to)) return anomaly(`unknown ${name} status ${String(to)}`);
    if (from === to) return { kind: 'noop' };
    if (next.get(from)!.has(to)) return { kind: 'apply' };
    if (terminal.has(from)) return anomaly(`${name} ${from} is final and cannot move to ${to}`);
    return anomaly(`${name} ${from} cannot move to ${to}`);
  };

  const problems = (): string[] => checkTable(definition);

  return {
    name,
    initial,
    statuses,
    terminal,
    table,
    decide,
    isTerminal: (status) => terminal.has(status),
    canTransition: (from, to) => from !== to && (next.get(from)?.has(to) ?? false),
    problems,
    assertConsistent() {
      const found = problems();
      if (found.length > 0) {
        throw new Error(`The ${name} status transition table is inconsistent:\n- ${found.join('\n- ')}`);
      }
    },
  };
}

function anomaly(reason: string): TransitionDecision {
  return { kind: 'anomaly', reason };
}

function checkTable<S extends string>({ name, initial, terminal, table }: StateMachineDefinition<S>): string[] {
  const problems: string[] = [];
  const statuses = Object.keys(table) as S[];
  const known = new Set<string>(statuses);
  const terminalSet = new Set<string>(terminal);
  const row = (status: S): readonly S[] => table[status] ?? [];

  if (!known.has(initial)) problems.push(`the initial status ${initial} has no row`);
  for (const status of terminal) {
    if (!known.has(status)) problems.push(`terminal status ${status} has no row`);
  }
  for (const from of statuses) {
    const targets = row(from);
    if (terminalSet.has(from) && targets.length > 0) {
      problems.push(`${from} is terminal but lists ${targets.join(', ')}`);
    }
    if (!terminalSet.has(from) && targets.length === 0) {
      problems.push(`${from} has no way out and is not declared terminal`);
    }
    if (new Set(targets).size !== targets.length) problems.push(`${from} lists a status twice`);
    for (const to of targets) {
      if (!known.has(to)) problems.push(`${from} -> ${to}: ${to} has no row`);
      if (to === from) problems.push(`${from} -> ${from}: a repeat is a no-op, not a transition`);
      if (to === initial) problems.push(`${from} -> ${to}: nothing may move back to the initial status`);
    }
  }

  // Promote-only means no status can ever be reached again once left: the table must be acyclic.
  const cycle = findCycle(statuses, (status) => row(status).filter((to) => known.has(to) && to !== status));
  if (cycle) problems.push(`cycle ${cycle.join(' -> ')}: transitions must only promote`);

  const reachable = new Set<S>();
  const stack: S[] = known.has(initial) ? [initial] : [];
  while (stack.length > 0) {
    const status = stack.pop()!;
    if (reachable.has(status)) continue;
    reachable.add(status);
    for (const to of row(status)) if (known.has(to)) stack.push(to);
  }
  for (const status of statuses) {
    if (known.has(initial) && !reachable.has(status)) problems.push(`${status} cannot be reached from ${initial}`);
  }

  return problems.map((problem) => `${name}: ${problem}`);
}

function findCycle<S>(nodes: readonly S[], edges: (node: S) => readonly S[]): S[] | undefined {
  const state = new Map<S, 'visiting' | 'done'>();
  const path: S[] = [];
  const visit = (node: S): S[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'visiting') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'visiting');
    path.push(node);
    for (const next of edges(node)) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of nodes) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}
