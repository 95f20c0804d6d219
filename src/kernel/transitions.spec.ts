// Unit spec of the kernel's one path of status changes (`TransitionPath.apply`), with no database:
// a made-up subject kind (a parcel) and fakes that record what the path asks of them
// (transitions.fixture.ts). It covers each outcome (not_found, noop, stale, anomaly from `check`,
// from `checkMove` before and after the machine, from the machine itself, applied by one statement
// with its event and jobs), the order of the guards, the reaction jobs, what is written
// `alongside`, `entails` and `recordUnchanged`, and the path's own refusals (a kind registered
// twice, an unregistered kind, a change outside a transaction).

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger.js';
import type { EventLog } from './events/event-log.js';
import { defineStateMachine } from '../lib/state-machine.js';
import { deferredDeliveriesRelease, RELEASE_DEFERRED_DELIVERIES } from './inbox/deferred.js';
import { JobHandlers, JobQueue, type JobDatabase } from './jobs.js';
import { TransitionPath, type Transition } from './transitions.js';
import { FakeEvents, FakeJobs, fakeTx, parcel, parcelKind, report, setup, type Parcel, type ParcelChange, type ParcelStatus } from './transitions.fixture.js';

describe('TransitionPath.apply: refusals and unchanged outcomes', () => {
  it('is not_found, with the kind\'s reason, when no row has the id; nothing is checked or written', async () => {
    const { apply, log, events } = setup({}, {});
    await expect(apply({ id: 'par_9', change: report('DELIVERED') })).resolves.toEqual({ outcome: 'not_found', reason: 'PARCEL_NOT_FOUND: no parcel par_9' });
    expect(log).toEqual(['lock par_9']);
    expect(events.appendedWith).toEqual([]);
  });

  it('does not read a row it is given already locked', async () => {
    const { apply, log, events } = setup({}, {});
    events.returned = [{ id: 'par_1', status: 'SENT', weight: 2 }];
    const result = await apply({ locked: parcel('NEW'), change: report('SENT') });
    expect(result.outcome).toBe('applied');
    expect(log).not.toContain('lock par_1');
  });

  it('is a noop for the status the row already has: recordUnchanged runs, checkMove and write do not', async () => {
    const { apply, log, events, jobs } = setup();
    const result = await apply({ change: report('SENT') });
    expect(result).toEqual({ outcome: 'noop', row: parcel('SENT') });
    expect(log).toEqual(['lock par_1', 'check', 'recordUnchanged']);
    expect(events.appendedWith).toEqual([]);
    expect(jobs.enqueued).toEqual([]);
  });

  it('refuses with `check` before the machine is asked: even a repeat of the status is an anomaly', async () => {
    const { apply, log } = setup();
    const result = await apply({ change: report('SENT', { weight: 3 }) });
    expect(result).toEqual({ outcome: 'anomaly', reason: 'WEIGHT_MISMATCH: reported 3, parcel is 2', row: parcel('SENT') });
    expect(log).toEqual(['lock par_1', 'check', 'recordUnchanged']);
  });

  it('refuses with `checkMove` before the machine: its reason wins over the machine\'s own refusal', async () => {
    const { apply, log } = setup({
      checkMove: (_transition, phase) => {
        log.push(`checkMove ${phase}`);
        return phase === 'beforeMachine' ? 'HELD_AT_CUSTOMS: not before clearance' : undefined;
      },
    }, { par_1: parcel('DELIVERED') });
    const result = await apply({ change: report('SENT') });
    expect(result).toEqual({ outcome: 'anomaly', reason: 'HELD_AT_CUSTOMS: not before clearance', row: parcel('DELIVERED') });
    expect(log).toEqual(['lock par_1', 'check', 'checkMove beforeMachine', 'recordUnchanged']);
  });

  it('refuses with `checkMove` after the machine (a check that costs a query, awaited) only for a move the machine allows', async () => {
    const { apply, log, events } = setup({
      checkMove: (_transition, phase) => {
        log.push(`checkMove ${phase}`);
        return Promise.resolve(phase === 'afterMachine' ? 'ADDRESS_TAKEN: another parcel' : undefined);
      },
    });
    const result = await apply({ change: report('DELIVERED') });
    expect(result).toEqual({ outcome: 'anomaly', reason: 'ADDRESS_TAKEN: another parcel', row: parcel('SENT') });
    expect(log).toEqual(['lock par_1', 'check', 'checkMove beforeMachine', 'checkMove afterMachine', 'recordUnchanged']);
    expect(events.appendedWith).toEqual([]);
  });

  it('is TRANSITION_NOT_ALLOWED, with the machine\'s reason, for a move the table does not list; afterMachine is not asked', async () => {
    const { apply, log } = setup({}, { par_1: parcel('DELIVERED') });
    const result = await apply({ change: report('LOST') });
    expect(result).toEqual({ outcome: 'anomaly', reason: 'TRANSITION_NOT_ALLOWED: parcel DELIVERED is final and cannot move to LOST', row: parcel('DELIVERED') });
    expect(log).toEqual(['lock par_1', 'check', 'checkMove beforeMachine', 'recordUnchanged']);
  });

  it('reports an earlier status as an anomaly when the kind does not say past statuses are stale', async () => {
    const { apply } = setup({}, { par_1: parcel('DELIVERED') });
    await expect(apply({ change: report('SENT') })).resolves.toMatchObject({ outcome: 'anomaly', reason: 'TRANSITION_NOT_ALLOWED: parcel DELIVERED is final and cannot move to SENT' });
  });

  describe('with pastStatusIsStale', () => {
    it.each([
      ['SENT', 'DELIVERED'],
      ['NEW', 'DELIVERED'],
      ['NEW', 'SENT'],
    ] as const)('is stale for %s reported after %s: a step the parcel has moved past', async (reported, current) => {
      const { apply, log } = setup({ pastStatusIsStale: true }, { par_1: parcel(current) });
      const result = await apply({ change: report(reported) });
      expect(result).toEqual({ outcome: 'stale', reason: `STALE_STATUS: parcel is already ${current}, past ${reported}`, row: parcel(current) });
      expect(log.at(-1)).toBe('recordUnchanged');
    });

    it('is still an anomaly for a status that was never on the way (LOST after DELIVERED)', async () => {
      const { apply } = setup({ pastStatusIsStale: true }, { par_1: parcel('DELIVERED') });
      await expect(apply({ change: report('LOST') })).resolves.toMatchObject({ outcome: 'anomaly', reason: 'TRANSITION_NOT_ALLOWED: parcel DELIVERED is final and cannot move to LOST' });
    });
  });

  it('works for a kind without any optional hook: no check, no checkMove, no recordUnchanged, no reactions, no entails', async () => {
    const log: string[] = [];
    const events = new FakeEvents(log);
    const path = new TransitionPath(events as unknown as EventLog, new FakeJobs() as unknown as JobQueue);
    const bare = parcelKind(log, { check: undefined, checkMove: undefined, recordUnchanged: undefined, reactions: undefined }, { par_1: parcel('NEW') });
    const kind = path.register(bare);
    const { tx } = fakeTx();
    await expect(path.apply(tx, kind, { id: 'par_1', change: report('NEW'), source: 'test' })).resolves.toEqual({ outcome: 'noop', row: parcel('NEW') });
    events.returned = [{ id: 'par_1', status: 'SENT', weight: 2 }];
    await expect(path.apply(tx, kind, { id: 'par_1', change: report('SENT'), source: 'test' })).resolves.toMatchObject({ outcome: 'applied' });
    expect(events.appendedWith[0]?.also).toEqual({ statements: [] });
  });
});

describe('TransitionPath.apply: an applied change', () => {
  it('is written by one update of the kind\'s row, as its columns to set, with its event and its reaction jobs, and merged from the returned row', async () => {
    const { apply, events, jobs, log, executed } = setup();
    events.returned = [{ id: 'par_1', status: 'DELIVERED', weight: 2 }];
    const result = await apply({ change: report('DELIVERED'), source: 'webhook:acme/acct-1' });

    expect(result).toEqual({
      outcome: 'applied',
      row: { id: 'par_1', status: 'DELIVERED', weight: 2, clientId: null },
      returned: { id: 'par_1', status: 'DELIVERED', weight: 2 },
    });
    expect(log).toEqual(['lock par_1', 'check', 'checkMove beforeMachine', 'checkMove afterMachine', 'write', 'reactions', 'events.appendWith']);
    expect(events.appendedWith).toEqual([
      {
        change: { sql: 'update parcel set status = ? where id = ? returning *', params: ['DELIVERED', 'par_1'] },
        // The owner and snapshot of the row as the change leaves it (`write`'s next), before the statement ran.
        event: {
          subjectType: 'parcel',
          subjectId: 'par_1',
          clientId: 'cli_1',
          merchantAccount: 'acct-1',
          type: 'parcel.status_changed',
          fromStatus: 'SENT',
          toStatus: 'DELIVERED',
          snapshot: { id: 'par_1', status: 'DELIVERED' },
        },
        also: { statements: [{ sql: `insert job ${RELEASE_DEFERRED_DELIVERIES}`, params: [{ subjectType: 'parcel', subjectId: 'par_1' }] }] },
      },
    ]);
    expect(jobs.enqueued).toEqual([
      {
        kind: RELEASE_DEFERRED_DELIVERIES,
        payload: { subjectType: 'parcel', subjectId: 'par_1' },
        // A reaction is about the subject that changed: its timeline lists the job.
        options: { subject: { type: 'parcel', id: 'par_1' }, dedupeKey: 'parcel:par_1', onlyIf: deferredDeliveriesRelease('parcel', 'par_1').onlyIf },
      },
    ]);
    // Nothing is written apart from that one statement.
    expect(events.appended).toEqual([]);
    expect(executed).toEqual([]);
  });

  it('hands reactions the row as it was and as it is now; a reaction without a key or a condition passes no options', async () => {
    const seen: Array<{ from: ParcelStatus; before: ParcelStatus; after: ParcelStatus; source: string }> = [];
    const { apply, jobs, events } = setup({
      reactions: ({ row, next, from, source }) => {
        seen.push({ from, before: row.status, after: next.status, source });
        return [
          { kind: RELEASE_DEFERRED_DELIVERIES, payload: { subjectType: 'parcel', subjectId: next.id } },
          { kind: RELEASE_DEFERRED_DELIVERIES, payload: { subjectType: 'parcel', subjectId: 'par_2' }, dedupeKey: 'parcel:par_2' },
        ];
      },
    });
    events.returned = [{ id: 'par_1', status: 'LOST', weight: 2 }];
    await apply({ change: report('LOST'), source: 'reconciler' });
    expect(seen).toEqual([{ from: 'SENT', before: 'SENT', after: 'LOST', source: 'reconciler' }]);
    expect(jobs.enqueued.map((job) => job.options)).toEqual([
      { subject: { type: 'parcel', id: 'par_1' } },
      { subject: { type: 'parcel', id: 'par_1' }, dedupeKey: 'parcel:par_2' },
    ]);
    expect(events.appendedWith[0]?.also.statements?.length).toBe(2);
  });

  it('writes the rows asked alongside after the reaction jobs, rendered from their data', async () => {
    const { apply, events } = setup();
    events.returned = [{ id: 'par_1', status: 'DELIVERED', weight: 2 }];
    const inboxOutcome = { table: 'webhook_delivery', id: 'whd_1', set: { outcome: 'applied' } };
    const result = await apply({ change: report('DELIVERED'), alongside: [inboxOutcome] });
    expect(events.appendedWith[0]?.also).toEqual({
      statements: [
        { sql: `insert job ${RELEASE_DEFERRED_DELIVERIES}`, params: [{ subjectType: 'parcel', subjectId: 'par_1' }] },
        { sql: 'update webhook_delivery set outcome = ? where id = ?', params: ['applied', 'whd_1'] },
      ],
    });
    expect(result.row).toEqual({ id: 'par_1', status: 'DELIVERED', weight: 2, clientId: null });
    expect(result.returned).toEqual({ id: 'par_1', status: 'DELIVERED', weight: 2 });
  });

  it('keeps `write`\'s next row when the kind has no merge', async () => {
    const { apply, events } = setup({
      write: ({ row, change }) => ({ next: { ...row, status: change.status }, update: { set: { status: change.status }, returning: { columns: ['id', 'status'] } } }),
    });
    events.returned = [{ id: 'par_1', status: 'DELIVERED' }];
    const result = await apply({ change: report('DELIVERED') });
    expect(result).toEqual({ outcome: 'applied', row: { ...parcel('SENT'), status: 'DELIVERED' }, returned: { id: 'par_1', status: 'DELIVERED' } });
  });

  it('throws when the change statement returns no row: the row vanished under its lock', async () => {
    const { apply, events } = setup();
    events.returned = [];
    await expect(apply({ change: report('DELIVERED') })).rejects.toThrow('parcel par_1 vanished under its row lock');
  });
});

describe('TransitionPath.apply: what follows an applied change (entails, recordUnchanged)', () => {
  it('calls `entails` last, with the merged row and the path itself, so further changes go through it', async () => {
    const log: string[] = [];
    let entailed: { next: Parcel; path: TransitionPath; tx: SqlEntityManager } | undefined;
    const { apply, events, path, tx } = setup({
      entails: ({ next, tx: inTx }, through) => {
        log.push('entails');
        entailed = { next, path: through, tx: inTx };
        return Promise.resolve();
      },
    });
    events.returned = [{ id: 'par_1', status: 'DELIVERED', weight: 5 }];
    await apply({ change: report('DELIVERED') });
    expect(entailed).toEqual({ next: { id: 'par_1', status: 'DELIVERED', weight: 5, clientId: null }, path, tx });
    expect(entailed?.path).toBe(path);
    expect(log).toEqual(['entails']);
  });

  it('does not call `entails` or `recordUnchanged` for a change that was not applied, nor `recordUnchanged` for one that was', async () => {
    const log: string[] = [];
    const { apply, events } = setup({
      entails: () => {
        log.push('entails');
        return Promise.resolve();
      },
      recordUnchanged: (transition: Transition<Parcel, ParcelStatus, ParcelChange>) => {
        log.push(`recordUnchanged ${transition.from}->${transition.change.status}`);
        return Promise.resolve();
      },
    });
    await apply({ change: report('SENT') });
    await apply({ change: report('NEW') });
    events.returned = [{ id: 'par_1', status: 'LOST', weight: 2 }];
    await apply({ change: report('LOST') });
    expect(log).toEqual(['recordUnchanged SENT->SENT', 'recordUnchanged SENT->NEW', 'entails']);
  });
});

describe('TransitionPath: registration and its own refusals', () => {
  it('lists the registered kinds and refuses a second kind of the same type', () => {
    const { path } = setup();
    expect(path.types()).toEqual(['parcel']);
    expect(() => path.register(parcelKind([]))).toThrow('Subject kind parcel is registered twice');
  });

  it('checks the kind\'s state machine at registration: a bad table never serves traffic', () => {
    const path = new TransitionPath(new FakeEvents([]) as unknown as EventLog, new FakeJobs() as unknown as JobQueue);
    const cyclic = defineStateMachine<ParcelStatus>({
      name: 'parcel',
      initial: 'NEW',
      terminal: ['DELIVERED', 'LOST'],
      table: { NEW: ['SENT'], SENT: ['DELIVERED', 'LOST', 'NEW'], DELIVERED: [], LOST: [] },
    });
    expect(() => path.register(parcelKind([], { machine: cyclic }))).toThrow('The parcel status transition table is inconsistent');
    expect(path.types()).toEqual([]);
  });

  it('refuses a kind that is not the one registered, even of a registered type', async () => {
    const { path, tx } = setup();
    const log: string[] = [];
    await expect(path.apply(tx, parcelKind(log), { id: 'par_1', change: report('LOST'), source: 'test' })).rejects.toThrow('Subject kind parcel is not registered');
    expect(log).toEqual([]);
  });

  it('refuses a change outside a transaction: its row lock lasts until commit', async () => {
    const { path, kind, log } = setup();
    const { tx } = fakeTx(false);
    await expect(path.apply(tx, kind, { id: 'par_1', change: report('LOST'), source: 'test' })).rejects.toThrow(
      'A parcel change must run inside a transaction: its row lock lasts until commit',
    );
    expect(log).toEqual([]);
  });
});

describe('TransitionPath with the real job queue', () => {
  it('turns a reaction into the queue\'s insert of a pending job, under its dedupe key and condition', async () => {
    const log: string[] = [];
    const events = new FakeEvents(log);
    // Its statements only: the queue's database is never asked.
    const jobs = new JobQueue({ logger: createLogger({ level: 'silent' }), db: {} as JobDatabase, handlers: new JobHandlers() });
    const path = new TransitionPath(events as unknown as EventLog, jobs);
    const kind = path.register(parcelKind(log, {}, { par_1: parcel('NEW') }));
    const { tx } = fakeTx();
    events.returned = [{ id: 'par_1', status: 'SENT', weight: 2 }];
    await path.apply(tx, kind, { id: 'par_1', change: report('SENT'), source: 'test' });
    const [job] = events.appendedWith[0]?.also.statements ?? [];
    // Only when a delivery waits for this parcel (the condition), one waiting job per parcel (the key).
    expect(job?.sql).toMatch(/^insert into job \(id, kind, payload, status, attempts, max_attempts, run_at, dedupe_key, created_at, updated_at, subject_type, subject_id\)\s+select /);
    expect(job?.sql).toContain('where exists (select from webhook_delivery where subject_type = ? and subject_id = ? and outcome = ?)');
    expect(job?.params.slice(1, 4)).toEqual([RELEASE_DEFERRED_DELIVERIES, JSON.stringify({ subjectType: 'parcel', subjectId: 'par_1' }), 10]);
    expect(job?.params.slice(4, 6)).toEqual([null, 'parcel:par_1']);
    // The job is about the parcel that changed (its subject columns), and the condition names it too.
    expect(job?.params.slice(8, 10)).toEqual(['parcel', 'par_1']);
    expect(job?.params.slice(-3)).toEqual(['parcel', 'par_1', 'deferred']);
  });
});
