// Unit spec of the money-operation lifecycle (operation.ts), with no database and no provider: a
// fake operation that records its steps, a fake idempotency layer and a fake EntityManager. It
// covers the lifecycle without a key (recorded, submitted: accepted, unknown, refused), and with
// one: what each claim becomes (reused, busy, replay, owned), the subject attached in the
// recording transaction, the answer stored final or provisional, an earlier attempt's subject
// resumed, the key abandoned on failure; and `resume` of a recorded row.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger.js';
import type { FieldError, ProviderError, ProviderResult } from '../providers/provider.js';
import type { Claim, IdempotencyLayer, IdempotencyScope, OwnedClaim } from './idempotency.js';
import { accountNotConfigured, markEntityUnknown, OperationRunner, type MoneyOperation, type OperationRow } from './operation.js';

interface Parcel extends OperationRow {
  status: 'NEW' | 'SENT' | 'FAILED';
  reference: string | null;
  /** When it was recorded: a Date, which the stored answer keeps as ISO text. */
  createdAt: Date;
}

interface Snapshot {
  id: string;
  status: Parcel['status'];
  reference: string | null;
  createdAt: Date;
}

const CREATED = new Date('2026-01-02T03:04:05.000Z');
const refusedError: ProviderError = { code: 'PROVIDER_REJECTED', message: 'The provider refused it', httpStatus: 422, outcomeUnknown: false };
const unknownError: ProviderError = { code: 'PROVIDER_UNAVAILABLE', message: 'The provider did not answer', outcomeUnknown: true };
const tooBig: FieldError = { field: ['amount'], code: 'AMOUNT_ABOVE_MAXIMUM', message: 'Too much' };

/** An operation that records its steps; each step's answer is set by the case. */
function fakeOperation(options: {
  record?: { ok: true; row: Parcel } | { ok: false; errors: FieldError[] };
  answer?: ProviderResult<{ reference: string }>;
  rows?: Record<string, Parcel | null>;
  notResubmittable?: string;
  recordsInOneStatement?: boolean;
} = {}) {
  const steps: string[] = [];
  const rows: Record<string, Parcel | null> = { ...options.rows };
  const op: MoneyOperation<{ amount: string }, Parcel, { reference: string }, Snapshot> = {
    name: 'payout',
    ...(options.recordsInOneStatement ? { recordsInOneStatement: true } : {}),
    record: (tx, prepared) => {
      steps.push(`record ${prepared.amount}${tx.isInTransaction() ? ' in tx' : ''}`);
      const recorded = options.record ?? { ok: true, row: { id: 'par_1', status: 'NEW', reference: null, submissionError: null, createdAt: CREATED } };
      if (recorded.ok) rows[recorded.row.id] = recorded.row;
      return Promise.resolve(recorded);
    },
    load: (_em, id) => {
      steps.push(`load ${id}`);
      return Promise.resolve(rows[id] ?? null);
    },
    awaitingProvider: (row) => row.status === 'NEW' && row.reference === null,
    call: (_em, row, prepared) => {
      steps.push(`call ${row.id}${prepared ? ' with request' : ' alone'}`);
      return Promise.resolve(options.answer ?? { ok: true, value: { reference: 'ref_1' } });
    },
    ...(options.notResubmittable ? { notResubmittable: () => options.notResubmittable } : {}),
    accepted: (_em, row, answer) => {
      steps.push(`accepted ${answer.reference}`);
      return Promise.resolve({ ...row, status: 'SENT' as const, reference: answer.reference });
    },
    markUnknown: (_em, row, error) => {
      steps.push(`markUnknown ${error.code}`);
      return Promise.resolve({ ...row, submissionError: error.code });
    },
    refused: (tx, row, error) => {
      steps.push(`refused ${error.code}${tx.isInTransaction() ? ' in tx' : ''}`);
      if (rows[row.id] !== null) rows[row.id] = { ...row, status: 'FAILED' };
      return Promise.resolve();
    },
    errorsOf: (error) => [{ field: [], code: error.code, message: error.message }],
    errorsOfRow: (row) => (row.status === 'FAILED' ? [{ field: [], code: 'PROVIDER_REJECTED', message: 'refused before' }] : []),
    snapshot: (row) => ({ id: row.id, status: row.status, reference: row.reference, createdAt: row.createdAt }),
  };
  return { op, steps, rows };
}

/** An EntityManager whose transactions are recorded; its forks are itself. */
function fakeEm() {
  const steps: string[] = [];
  const tx = { isInTransaction: () => true } as unknown as SqlEntityManager;
  const em = {
    isInTransaction: () => false,
    fork: () => em,
    transactional: async <T>(work: (inTx: SqlEntityManager) => Promise<T>) => {
      steps.push('begin');
      const result = await work(tx);
      steps.push('commit');
      return result;
    },
  };
  return { em: em as unknown as SqlEntityManager, tx, steps };
}

/** An idempotency layer that answers `claim` and records the rest. */
function fakeIdempotency(claim: Claim | ((scope: IdempotencyScope) => Claim), options: { abandonFails?: boolean } = {}) {
  const calls: Array<{ call: string; args: unknown[] }> = [];
  const layer = {
    claim: (_em: SqlEntityManager, scope: IdempotencyScope) => {
      calls.push({ call: 'claim', args: [scope] });
      return Promise.resolve(typeof claim === 'function' ? claim(scope) : claim);
    },
    attach: (tx: SqlEntityManager, owned: OwnedClaim, subjectId: string) => {
      calls.push({ call: 'attach', args: [tx.isInTransaction(), owned.attempt, subjectId] });
      return Promise.resolve();
    },
    finish: (_em: SqlEntityManager, owned: OwnedClaim, response: string, final: boolean) => {
      calls.push({ call: 'finish', args: [owned.attempt, response, final] });
      return Promise.resolve();
    },
    abandon: (_em: SqlEntityManager, owned: OwnedClaim) => {
      calls.push({ call: 'abandon', args: [owned.attempt] });
      return options.abandonFails ? Promise.reject(new Error('database gone')) : Promise.resolve();
    },
  };
  return { layer: layer as unknown as IdempotencyLayer, calls };
}

function runner(idempotency: IdempotencyLayer = fakeIdempotency({ kind: 'busy' }).layer) {
  const logs: Array<Record<string, unknown>> = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) } });
  return { runner: new OperationRunner({ idempotency, logger }), logs };
}

const request = { clientId: 'cli_1' };
const keyed = { clientId: 'cli_1', idempotencyKey: 'k-1', fingerprint: 'fp' };
const owned = (scope: IdempotencyScope, more: Partial<OwnedClaim> = {}): Claim => ({ kind: 'owned', scope, attempt: 1, subjectId: null, ...more });

describe('OperationRunner.execute without an idempotency key', () => {
  it('records the row in a transaction, submits it, and answers the accepted row', async () => {
    const { op, steps } = fakeOperation();
    const { em, steps: transactions } = fakeEm();
    const result = await runner().runner.execute(em, op, request, { amount: '10.00' });
    expect(result).toEqual({ subject: { id: 'par_1', status: 'SENT', reference: 'ref_1', createdAt: CREATED }, errors: [] });
    expect(steps).toEqual(['record 10.00 in tx', 'call par_1 with request', 'accepted ref_1']);
    expect(transactions).toEqual(['begin', 'commit']);
  });

  it('records without a transaction when the operation writes in one statement', async () => {
    const { op, steps } = fakeOperation({ recordsInOneStatement: true });
    const { em, steps: transactions } = fakeEm();
    await runner().runner.execute(em, op, request, { amount: '10.00' });
    expect(steps[0]).toBe('record 10.00');
    expect(transactions).toEqual([]);
  });

  it('answers the errors of a refusal decided while recording, and calls nobody', async () => {
    const { op, steps } = fakeOperation({ record: { ok: false, errors: [tooBig] } });
    await expect(runner().runner.execute(fakeEm().em, op, request, { amount: '1e9' })).resolves.toEqual({ subject: null, errors: [tooBig] });
    expect(steps).toEqual(['record 1e9 in tx']);
  });

  it('keeps a row whose provider answer is unknown recoverable: marked, with the error, and a warning', async () => {
    const { op, steps } = fakeOperation({ answer: { ok: false, error: unknownError } });
    const { runner: operations, logs } = runner();
    const result = await operations.execute(fakeEm().em, op, request, { amount: '10.00' });
    expect(result).toEqual({ subject: { id: 'par_1', status: 'NEW', reference: null, createdAt: CREATED }, errors: [{ field: [], code: 'PROVIDER_UNAVAILABLE', message: 'The provider did not answer' }] });
    expect(steps.at(-1)).toBe('markUnknown PROVIDER_UNAVAILABLE');
    expect(logs).toContainEqual(expect.objectContaining({ level: 40, operation: 'payout', id: 'par_1', code: 'PROVIDER_UNAVAILABLE', msg: 'submission outcome unknown; kept recoverable' }));
  });

  it('moves a definitely refused row to its failed status in a transaction, and answers the row as it now stands', async () => {
    const { op, steps } = fakeOperation({ answer: { ok: false, error: refusedError } });
    const result = await runner().runner.execute(fakeEm().em, op, request, { amount: '10.00' });
    expect(result).toEqual({ subject: { id: 'par_1', status: 'FAILED', reference: null, createdAt: CREATED }, errors: [{ field: [], code: 'PROVIDER_REJECTED', message: 'The provider refused it' }] });
    expect(steps.slice(-2)).toEqual(['refused PROVIDER_REJECTED in tx', 'load par_1']);
  });

  it('throws when a refused row is gone after its refusal was recorded', async () => {
    const { op, rows } = fakeOperation({ answer: { ok: false, error: refusedError } });
    const refused = op.refused.bind(op);
    op.refused = async (tx, row, error) => {
      await refused(tx, row, error);
      rows[row.id] = null;
    };
    await expect(runner().runner.execute(fakeEm().em, op, request, { amount: '10.00' })).rejects.toThrow('payout par_1 vanished after its refusal was recorded');
  });
});

describe('OperationRunner.execute with an idempotency key', () => {
  it('needs the request\'s fingerprint', async () => {
    const { op } = fakeOperation();
    await expect(runner().runner.execute(fakeEm().em, op, { clientId: 'cli_1', idempotencyKey: 'k-1' }, { amount: '10.00' })).rejects.toThrow('payout with an idempotency key needs the request\'s fingerprint');
  });

  it('claims the key for this client, operation and fingerprint', async () => {
    const { layer, calls } = fakeIdempotency({ kind: 'busy' });
    await runner(layer).runner.execute(fakeEm().em, fakeOperation().op, keyed, { amount: '10.00' });
    expect(calls[0]).toEqual({ call: 'claim', args: [{ clientId: 'cli_1', key: 'k-1', operation: 'payout', fingerprint: 'fp' }] });
  });

  it.each([
    ['reused', { kind: 'reused' }, { field: ['idempotencyKey'], code: 'IDEMPOTENCY_KEY_REUSED', message: 'This idempotency key was already used with different input' }],
    [
      'busy',
      { kind: 'busy' },
      { field: ['idempotencyKey'], code: 'IDEMPOTENCY_KEY_IN_USE', message: 'Another request with this idempotency key is still being processed; retry later with the same key' },
    ],
  ] as const)('answers a %s key with its error, and does nothing', async (_case, claim: Claim, error) => {
    const { op, steps } = fakeOperation();
    await expect(runner(fakeIdempotency(claim).layer).runner.execute(fakeEm().em, op, keyed, { amount: '10.00' })).resolves.toEqual({ subject: null, errors: [error] });
    expect(steps).toEqual([]);
  });

  it('replays the stored answer as it was stored, and does nothing', async () => {
    const { op, steps } = fakeOperation();
    const stored = '{"subject":{"id":"par_1","status":"SENT","reference":"ref_1","createdAt":"2026-01-02T03:04:05.000Z"},"errors":[]}';
    const result = await runner(fakeIdempotency({ kind: 'replay', response: stored }).layer).runner.execute(fakeEm().em, op, keyed, { amount: '10.00' });
    expect(result).toEqual(JSON.parse(stored));
    expect(steps).toEqual([]);
  });

  it('attaches the new row to the key in its recording transaction, and stores a final answer: the first request gets exactly what replays will', async () => {
    const { layer, calls } = fakeIdempotency(owned);
    const { op, steps } = fakeOperation();
    const result = await runner(layer).runner.execute(fakeEm().em, op, keyed, { amount: '10.00' });
    const stored = '{"subject":{"id":"par_1","status":"SENT","reference":"ref_1","createdAt":"2026-01-02T03:04:05.000Z"},"errors":[]}';
    expect(calls.slice(1)).toEqual([
      { call: 'attach', args: [true, 1, 'par_1'] },
      { call: 'finish', args: [1, stored, true] },
    ]);
    // The stored bytes, parsed: the date comes back as text, as in every replay.
    expect(result).toEqual(JSON.parse(stored));
    expect(steps).toEqual(['record 10.00 in tx', 'call par_1 with request', 'accepted ref_1']);
  });

  it('stores a provisional answer when the provider\'s answer is unknown: the next request resumes', async () => {
    const { layer, calls } = fakeIdempotency(owned);
    await runner(layer).runner.execute(fakeEm().em, fakeOperation({ answer: { ok: false, error: unknownError } }).op, keyed, { amount: '10.00' });
    expect(calls.at(-1)).toMatchObject({ call: 'finish', args: [1, expect.any(String), false] });
  });

  it('stores a refusal decided while recording as final, with nothing attached', async () => {
    const { layer, calls } = fakeIdempotency(owned);
    const result = await runner(layer).runner.execute(fakeEm().em, fakeOperation({ record: { ok: false, errors: [tooBig] } }).op, keyed, { amount: '10.00' });
    expect(result).toEqual({ subject: null, errors: [tooBig] });
    expect(calls.slice(1)).toEqual([{ call: 'finish', args: [1, JSON.stringify({ subject: null, errors: [tooBig] }), true] }]);
  });

  it('resumes the subject an earlier attempt recorded, never recording another', async () => {
    const { layer, calls } = fakeIdempotency((scope) => owned(scope, { attempt: 3, subjectId: 'par_0' }));
    const { op, steps } = fakeOperation({ rows: { par_0: { id: 'par_0', status: 'NEW', reference: null, submissionError: 'PROVIDER_UNAVAILABLE', createdAt: CREATED } } });
    const result = await runner(layer).runner.execute(fakeEm().em, op, keyed, { amount: '10.00' });
    expect(steps).toEqual(['load par_0', 'call par_0 with request', 'accepted ref_1']);
    expect(result.subject).toMatchObject({ id: 'par_0', status: 'SENT' });
    expect(calls.map((call) => call.call)).toEqual(['claim', 'finish']);
  });

  it('answers a resumed subject that has its answer already without calling the provider', async () => {
    const { layer, calls } = fakeIdempotency((scope) => owned(scope, { attempt: 2, subjectId: 'par_0' }));
    const { op, steps } = fakeOperation({ rows: { par_0: { id: 'par_0', status: 'FAILED', reference: null, submissionError: null, createdAt: CREATED } } });
    const result = await runner(layer).runner.execute(fakeEm().em, op, keyed, { amount: '10.00' });
    expect(steps).toEqual(['load par_0']);
    expect(result.errors).toEqual([{ field: [], code: 'PROVIDER_REJECTED', message: 'refused before' }]);
    expect(calls.at(-1)).toMatchObject({ call: 'finish', args: [2, expect.any(String), true] });
  });

  it('frees the key at once when the attempt fails with nothing to answer, and rethrows', async () => {
    const { layer, calls } = fakeIdempotency((scope) => owned(scope, { subjectId: 'par_gone' }));
    await expect(runner(layer).runner.execute(fakeEm().em, fakeOperation().op, keyed, { amount: '10.00' })).rejects.toThrow('payout par_gone of an idempotency key is missing');
    expect(calls.map((call) => call.call)).toEqual(['claim', 'abandon']);
  });

  it('rethrows the attempt\'s own error when freeing the key fails too', async () => {
    const { layer } = fakeIdempotency((scope) => owned(scope, { subjectId: 'par_gone' }), { abandonFails: true });
    await expect(runner(layer).runner.execute(fakeEm().em, fakeOperation().op, keyed, { amount: '10.00' })).rejects.toThrow('payout par_gone of an idempotency key is missing');
  });
});

describe('OperationRunner.resume', () => {
  const waiting = (id = 'par_1'): Parcel => ({ id, status: 'NEW', reference: null, submissionError: 'PROVIDER_UNAVAILABLE', createdAt: CREATED });

  it.each([
    ['not_found, for no such row', {}, { outcome: 'not_found', reason: 'NOT_FOUND: no payout par_1' }],
    ['submitted, on its own (no request at hand)', { rows: { par_1: waiting() } }, { outcome: 'submitted' }],
    ['unknown, when the provider still does not answer', { rows: { par_1: waiting() }, answer: { ok: false, error: unknownError } }, { outcome: 'unknown', reason: 'PROVIDER_UNAVAILABLE: The provider did not answer' }],
    ['refused, with the provider\'s reason', { rows: { par_1: waiting() }, answer: { ok: false, error: refusedError } }, { outcome: 'refused', reason: 'PROVIDER_REJECTED: The provider refused it' }],
    ['not_needed, for a row that has its answer', { rows: { par_1: { ...waiting(), reference: 'ref_1', status: 'SENT' as const } } }, { outcome: 'not_needed' }],
    ['unknown, for a row the operation may not resubmit on its own', { rows: { par_1: waiting() }, notResubmittable: 'NOT_RESUBMITTABLE: no idempotency key at the provider' }, { outcome: 'unknown', reason: 'NOT_RESUBMITTABLE: no idempotency key at the provider' }],
  ] as const)('is %s', async (_case, options: Parameters<typeof fakeOperation>[0], result) => {
    const { op, steps } = fakeOperation(options);
    await expect(runner().runner.resume(fakeEm().em, op, 'par_1')).resolves.toEqual(result);
    if (result.outcome === 'submitted') expect(steps).toContain('call par_1 alone');
  });

  it('asks whether a row may be resubmitted only while it waits for its answer', async () => {
    const { op, steps } = fakeOperation({ rows: { par_1: { ...waiting(), status: 'FAILED' } }, notResubmittable: 'NOT_RESUBMITTABLE' });
    await expect(runner().runner.resume(fakeEm().em, op, 'par_1')).resolves.toEqual({ outcome: 'not_needed', reason: 'PROVIDER_REJECTED: refused before' });
    expect(steps).toEqual(['load par_1']);
  });
});

describe('operation helpers', () => {
  it('treats a row whose account is no longer configured as an unknown outcome, not a refusal', () => {
    expect(accountNotConfigured('acct-9')).toEqual({ code: 'PROVIDER_UNAVAILABLE', message: 'Merchant account acct-9 is not configured on this gateway', outcomeUnknown: true });
  });

  it('marks a managed row unknown by flushing its submission error', async () => {
    let flushed = 0;
    const em = { flush: () => (flushed++, Promise.resolve()) } as unknown as SqlEntityManager;
    const row = { id: 'par_1', submissionError: null };
    await expect(markEntityUnknown(em, row, unknownError)).resolves.toBe(row);
    expect(row.submissionError).toBe('PROVIDER_UNAVAILABLE');
    expect(flushed).toBe(1);
  });
});
