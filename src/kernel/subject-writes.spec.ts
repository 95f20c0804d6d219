// Unit spec of a subject's writes besides its status changes (subject-writes.ts, through
// `TransitionPath.create`, `record` and `note`), with no database, on the parcel kind and fakes of
// transitions.fixture.ts: each is one statement the kernel renders from data, with its event
// from the kind's owner and snapshot; a job's completion is written only when the update matched.

import { describe, expect, it } from 'vitest';
import type { JobInfo } from './jobs.js';
import { fakeTx, parcel, parcelKind, setup } from './transitions.fixture.js';

/** A running job whose completion statement names the condition it is given. */
const runningJob: JobInfo = {
  id: 'job_1',
  kind: 'parcel.weigh',
  attempt: 1,
  maxAttempts: 3,
  succeededStatement: (when) => ({ sql: `update job succeeded if ${when}`, params: ['job_1'] }),
};

describe('TransitionPath.create', () => {
  it('inserts the row into the kind\'s table with its creation event, one statement, outside a transaction too', async () => {
    const { path, kind, events } = setup();
    events.returned = [{ id: 'par_9' }];
    const created = { ...parcel('NEW', 'par_9'), weight: 3 };
    const { tx } = fakeTx(false);
    const returned = await path.create(tx, kind, {
      event: 'parcel.created',
      row: created,
      insert: { values: { id: 'par_9', status: 'NEW', weight: 3, label: { to: 'Ana' } }, json: ['label'], returning: ['id'] },
    });
    expect(returned).toEqual({ id: 'par_9' });
    expect(events.appendedWith).toEqual([
      {
        change: { sql: 'insert into parcel (id, status, weight, label) values (?, ?, ?, cast(? as jsonb)) returning id', params: ['par_9', 'NEW', 3, '{"to":"Ana"}'] },
        event: { subjectType: 'parcel', subjectId: 'par_9', clientId: 'cli_1', merchantAccount: 'acct-1', type: 'parcel.created', fromStatus: null, toStatus: 'NEW', snapshot: { id: 'par_9', status: 'NEW' } },
        also: {},
      },
    ]);
  });

  it('throws when the insert returned no row', async () => {
    const { path, kind, tx } = setup();
    await expect(path.create(tx, kind, { event: 'parcel.created', row: parcel('NEW'), insert: { values: { id: 'par_1' }, returning: ['id'] } })).rejects.toThrow('parcel par_1 was not recorded');
  });

  it('with `ifAbsent`, returns nothing (and throws nothing) when the row was there already', async () => {
    const { path, kind, tx, events } = setup();
    events.returned = [];
    const insert = { values: { id: 'par_1', reference: 'r-1' }, ifAbsent: ['reference'], returning: '*' } as const;
    await expect(path.create(tx, kind, { event: 'parcel.created', row: parcel('NEW'), insert })).resolves.toBeUndefined();
    expect(events.appendedWith[0]?.change.sql).toBe('insert into parcel (id, reference) values (?, ?) on conflict (reference) do nothing returning *');
  });

  it('refuses a kind the path does not know', async () => {
    const { path, tx } = setup();
    const stranger = parcelKind([]);
    expect(() => path.create(tx, stranger, { event: 'parcel.created', row: parcel('NEW'), insert: { values: { id: 'par_1' }, returning: ['id'] } })).toThrow('Subject kind parcel is not registered');
  });
});

describe('TransitionPath.record', () => {
  const weighed = { ...parcel('SENT'), weight: 5 };
  const input = { event: 'parcel.weighed', row: parcel('SENT'), next: weighed, update: { set: { weight: 5 }, returning: { columns: ['id'] }, ifVersion: '77' } };

  it('writes the update on the row as read, with its event from the kind, one statement', async () => {
    const { path, kind, tx, events } = setup();
    events.returned = [{ id: 'par_1' }];
    await expect(path.record(tx, kind, input)).resolves.toEqual({ written: true, completed: false, returned: { id: 'par_1' } });
    expect(events.appendedWith).toEqual([
      {
        change: { sql: 'update parcel set weight = ? where id = ? and xmin = cast(? as xid) returning id', params: [5, 'par_1', '77'] },
        event: { subjectType: 'parcel', subjectId: 'par_1', clientId: 'cli_1', merchantAccount: 'acct-1', type: 'parcel.weighed', fromStatus: 'SENT', toStatus: 'SENT', snapshot: { id: 'par_1', status: 'SENT' } },
        also: {},
      },
    ]);
  });

  it('with `creation`, writes the subject\'s first event, from no status, beside a row recorded before', async () => {
    const { path, kind, tx, events } = setup();
    events.returned = [{ id: 'par_1' }];
    await path.record(tx, kind, { ...input, event: 'parcel.created', creation: true });
    expect(events.appendedWith[0]?.event).toMatchObject({ type: 'parcel.created', fromStatus: null, toStatus: 'SENT' });
  });

  it('reports nothing written when the row changed since it was read', async () => {
    const { path, kind, tx, events } = setup();
    events.returned = [];
    await expect(path.record(tx, kind, input)).resolves.toEqual({ written: false, completed: false });
  });

  it('writes the job\'s completion in the same statement, only if the update matched, and says whether it did', async () => {
    const { path, kind, events } = setup();
    const { tx } = fakeTx(false);
    events.returned = [{ id: 'par_1', alongside_0_matched: true }];
    await expect(path.record(tx, kind, { ...input, completes: runningJob, adminOnly: true })).resolves.toEqual({ written: true, completed: true, returned: { id: 'par_1' } });
    expect(events.appendedWith[0]?.also).toEqual({
      statements: [{ sql: 'update job succeeded if exists (select from change)', params: ['job_1'] }],
      select: { sql: 'exists (select from alongside_0) as alongside_0_matched', params: [], columns: ['alongside_0_matched'] },
    });
    expect(events.appendedWith[0]?.event.adminOnly).toBe(true);
    events.returned = [{ id: 'par_1', alongside_0_matched: false }];
    await expect(path.record(tx, kind, { ...input, completes: runningJob })).resolves.toMatchObject({ written: true, completed: false });
  });
});

describe('TransitionPath.note', () => {
  it('appends the event alone, in the caller\'s transaction', async () => {
    const { path, kind, tx, events } = setup();
    await expect(path.note(tx, kind, { event: 'parcel.inspected', row: parcel('SENT') })).resolves.toBe(true);
    expect(events.appended).toEqual([
      { subjectType: 'parcel', subjectId: 'par_1', clientId: 'cli_1', merchantAccount: 'acct-1', type: 'parcel.inspected', fromStatus: 'SENT', toStatus: 'SENT', snapshot: { id: 'par_1', status: 'SENT' } },
    ]);
    expect(() => path.note(fakeTx(false).tx, kind, { event: 'parcel.inspected', row: parcel('SENT') })).toThrow('A parcel event must be appended in the transaction of what it records');
  });

  it('with `once`, writes it in one statement only when the log has none of its type about the subject', async () => {
    const { path, kind, tx, events } = setup();
    events.returned = [{ noted: true }];
    await expect(path.note(tx, kind, { event: 'parcel.weight_mismatch', row: parcel('SENT'), adminOnly: true, once: true })).resolves.toBe(true);
    expect(events.appendedWith[0]).toMatchObject({
      change: { sql: 'select true as noted where not exists (select from payment_event where subject_type = ? and subject_id = ? and type = ?)', params: ['parcel', 'par_1', 'parcel.weight_mismatch'] },
      event: { type: 'parcel.weight_mismatch', adminOnly: true },
    });
    events.returned = [];
    await expect(path.note(tx, kind, { event: 'parcel.weight_mismatch', row: parcel('SENT'), adminOnly: true, once: true })).resolves.toBe(false);
  });
});

describe('TransitionPath.registerRows', () => {
  it('takes a subject whose status apply never changes: its events are written like a kind\'s, and its type is registered once', async () => {
    const { path, tx, events } = setup();
    const shelf = { type: 'shelf', table: 'shelf', idOf: (row: { id: string }) => row.id, statusOf: () => 'full', owner: () => ({ clientId: null, merchantAccount: '-' }), snapshot: (row: { id: string }) => ({ id: row.id }) };
    expect(() => path.record(tx, shelf, { event: 'shelf.full', row: { id: 'shf_1' }, next: { id: 'shf_1' }, update: { set: { state: 'full' }, returning: '*' } })).toThrow('Subject kind shelf is not registered');
    path.registerRows(shelf);
    events.returned = [{ id: 'shf_1' }];
    await expect(path.record(tx, shelf, { event: 'shelf.full', row: { id: 'shf_1' }, next: { id: 'shf_1' }, adminOnly: true, update: { set: { state: 'full' }, returning: { columns: ['id'] }, only: { state: 'empty' } } })).resolves.toMatchObject({ written: true });
    expect(events.appendedWith[0]).toMatchObject({
      change: { sql: 'update shelf set state = ? where id = ? and state = ? returning id', params: ['full', 'shf_1', 'empty'] },
      event: { subjectType: 'shelf', subjectId: 'shf_1', clientId: null, merchantAccount: '-', adminOnly: true, type: 'shelf.full', fromStatus: 'full', toStatus: 'full' },
    });
    expect(() => path.registerRows(shelf)).toThrow('Subject kind shelf is registered twice');
    expect(() => path.registerRows({ ...shelf, type: 'parcel' })).toThrow('Subject kind parcel is registered twice');
    expect(path.types()).toEqual(['parcel']);
  });
});
