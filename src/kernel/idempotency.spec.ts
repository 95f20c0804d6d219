// Unit spec of the idempotency layer (idempotency.ts), with no database: the key's format, what a
// request does about a key already in the table (`decideExistingKey`: expired, reused, replay,
// wait, busy, take over; a holder on another instance probed, a gone holder's key taken at once),
// and `claim`, `attach`, `finish` and `purgeExpired` against a fake EntityManager that answers
// each statement from a script: a new key, a fingerprint mismatch, a final or provisional answer
// replayed, a holder waited on and its release heard, a crashed holder's key taken over, an
// expired key started anew, and the expiry cut-offs of the windows.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../lib/clock.js';
import { createLogger } from '../lib/logger.js';
import type { SqlPart } from './events/event-log.js';
import { decideExistingKey, IDEMPOTENCY_CHANNEL, IdempotencyLayer, idempotencyKeyErrors, type IdempotencyScope, type KeyRow, type OwnedClaim } from './idempotency.js';

describe('idempotencyKeyErrors', () => {
  it('accepts 1 to 255 printable ASCII characters without spaces, and no key at all', () => {
    expect(idempotencyKeyErrors(undefined)).toEqual([]);
    expect(idempotencyKeyErrors('order-1001/attempt#1')).toEqual([]);
    expect(idempotencyKeyErrors('~'.repeat(255))).toEqual([]);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['a space', 'has space'],
    ['a control character', 'tab\there'],
    ['non-ASCII', 'clé'],
  ])('refuses a key that is %s, on the idempotencyKey field', (_case, key) => {
    expect(idempotencyKeyErrors(key)).toEqual([{ field: ['idempotencyKey'], code: 'INVALID_FORMAT', message: 'idempotencyKey must be 1 to 255 printable ASCII characters without spaces' }]);
  });

  it('names the field that carries the key, when it is not idempotencyKey (a credit claim\'s claimKey)', () => {
    expect(idempotencyKeyErrors('credit-dep_01/attempt#1', 'claimKey')).toEqual([]);
    expect(idempotencyKeyErrors('has space', 'claimKey')).toEqual([{ field: ['claimKey'], code: 'INVALID_FORMAT', message: 'claimKey must be 1 to 255 printable ASCII characters without spaces' }]);
  });
});

const scope: IdempotencyScope = { clientId: 'cli_1', key: 'order-1001', operation: 'deposit', fingerprint: 'f'.repeat(64) };

/** The key as another request left it: same request, attempt 1, released, nothing stored. */
const key = (more: Partial<KeyRow> = {}): KeyRow => ({
  operation: 'deposit',
  fingerprint: 'f'.repeat(64),
  attempt: 1,
  subject_id: null,
  response: null,
  response_final: false,
  locked_ms: null,
  locked_by: null,
  holder_gone: false,
  expired: false,
  ...more,
});

/** A request that has not waited yet, with a second to wait, on a layer not told its instance. */
const fresh = { remainingMs: 1_000, waitedOnAttempt: undefined, instanceId: undefined };

describe('decideExistingKey', () => {
  it('starts an expired key anew, whatever it held or whoever used it', () => {
    expect(decideExistingKey(key({ expired: true, fingerprint: 'other', response: '{}', response_final: true }), scope, fresh)).toEqual({ kind: 'expired' });
  });

  it.each([
    ['another fingerprint', key({ fingerprint: 'e'.repeat(64) })],
    ['another operation', key({ operation: 'refund' })],
    ['another fingerprint, even with a final answer stored', key({ fingerprint: 'e'.repeat(64), response: '{"subject":{}}', response_final: true })],
    ['another fingerprint, even while held', key({ fingerprint: 'e'.repeat(64), locked_ms: 500 })],
  ])('refuses a key used for a different request: %s', (_case, row) => {
    expect(decideExistingKey(row, scope, fresh)).toEqual({ kind: 'reused' });
  });

  it('replays a final answer to every later request of the same content', () => {
    expect(decideExistingKey(key({ response: '{"subject":{"id":"dep_1"}}', response_final: true }), scope, fresh)).toEqual({ kind: 'replay', response: '{"subject":{"id":"dep_1"}}' });
  });

  it.each([
    ['its lease and a little more', 200, 5_000, 250],
    ['its lease as the database gives it (numeric text)', '1200', 5_000, 1_250],
    ['what is left of its own wait, when that is shorter', 10_000, 3_000, 3_000],
  ] as const)('waits on a holder for %s', (_case, lockedMs, remainingMs, ms) => {
    expect(decideExistingKey(key({ locked_ms: lockedMs }), scope, { ...fresh, remainingMs })).toEqual({ kind: 'wait', ms });
  });

  it.each([0, -1])('is busy when the holder still holds it and the request may wait no longer (%i ms left)', (remainingMs) => {
    expect(decideExistingKey(key({ locked_ms: 200, response: '{}' }), scope, { ...fresh, remainingMs, waitedOnAttempt: 1 })).toEqual({ kind: 'busy' });
  });

  it('replays a provisional answer only to a request that waited for the very attempt that stored it', () => {
    const provisional = key({ attempt: 2, response: '{"errors":[{"code":"PROVIDER_UNAVAILABLE"}]}' });
    expect(decideExistingKey(provisional, scope, { ...fresh, waitedOnAttempt: 2 })).toEqual({ kind: 'replay', response: '{"errors":[{"code":"PROVIDER_UNAVAILABLE"}]}' });
    // A request that came later, or waited on an earlier attempt, resumes instead.
    expect(decideExistingKey(provisional, scope, fresh)).toEqual({ kind: 'take_over' });
    expect(decideExistingKey(provisional, scope, { ...fresh, waitedOnAttempt: 1 })).toEqual({ kind: 'take_over' });
  });

  it('looks again within a second whether a holder on another instance still runs, and waits out a holder of its own', () => {
    const held = key({ locked_ms: 30_000, locked_by: 7 });
    expect(decideExistingKey(held, scope, { ...fresh, remainingMs: 60_000, instanceId: 3 })).toEqual({ kind: 'wait', ms: 1_000 });
    expect(decideExistingKey(held, scope, { ...fresh, remainingMs: 60_000, instanceId: 7 })).toEqual({ kind: 'wait', ms: 30_050 });
    // Not told its own instance, or a holder that named none: the lease alone decides.
    expect(decideExistingKey(held, scope, { ...fresh, remainingMs: 60_000 })).toEqual({ kind: 'wait', ms: 30_050 });
    expect(decideExistingKey(key({ locked_ms: 30_000 }), scope, { ...fresh, remainingMs: 60_000, instanceId: 3 })).toEqual({ kind: 'wait', ms: 30_050 });
  });

  it('takes over at once a key whose holder is gone, before its lease runs out', () => {
    expect(decideExistingKey(key({ locked_ms: 30_000, locked_by: 7, holder_gone: true }), scope, { ...fresh, instanceId: 3 })).toEqual({ kind: 'take_over' });
    // Even when the request may wait no longer: nobody holds it.
    expect(decideExistingKey(key({ locked_ms: 30_000, locked_by: 7, holder_gone: true }), scope, { ...fresh, remainingMs: 0 })).toEqual({ kind: 'take_over' });
  });

  it('takes over a released key with no answer: a holder that crashed, or gave up before any answer', () => {
    expect(decideExistingKey(key({ attempt: 3, subject_id: 'dep_1' }), scope, fresh)).toEqual({ kind: 'take_over' });
    expect(decideExistingKey(key(), scope, { ...fresh, waitedOnAttempt: 1 })).toEqual({ kind: 'take_over' });
  });
});

const NOW = new Date('2026-03-01T12:00:00.000Z');
const clock: Clock = { now: () => NOW };
const HOUR = 3_600_000;

type Script = Partial<Record<'insert' | 'select' | 'take' | 'delete' | 'attach' | 'finish' | 'abandon' | 'purge', Array<unknown[] | (() => unknown[])>>>;

/** An EntityManager that answers each kind of statement with the next answer of its script ([] once it runs out). */
function fakeEm(script: Script, inTransaction = false) {
  const executed: Array<SqlPart & { kind: string }> = [];
  const kindOf = (sql: string) => {
    const text = sql.trim();
    if (text.startsWith('insert')) return 'insert';
    if (text.startsWith('select')) return 'select';
    if (text.startsWith('update idempotency_key set attempt = attempt + 1')) return 'take';
    if (text.startsWith('update idempotency_key set subject_id')) return 'attach';
    if (text.startsWith('update idempotency_key set response')) return 'finish';
    if (text.startsWith('update idempotency_key set locked_until = null')) return 'abandon';
    if (text.startsWith('delete from idempotency_key where (client_id, key) in')) return 'purge';
    return 'delete';
  };
  // What `signalOnCommit` keys the transaction's wake-ups by.
  const context = {};
  const em = {
    isInTransaction: () => inTransaction,
    getTransactionContext: () => context,
    execute: (sql: string, params: unknown[] = []) => {
      const kind = kindOf(sql);
      executed.push({ kind, sql, params });
      const next = script[kind]?.shift() ?? [];
      return Promise.resolve(typeof next === 'function' ? next() : next);
    },
    transactional: <T>(work: (tx: SqlEntityManager) => Promise<T>) => work(fakeEm(script, true).em),
  };
  return { em: em as unknown as SqlEntityManager, executed, kinds: () => executed.map((statement) => statement.kind) };
}

function layer(options: { leaseMs?: number; windowMs?: number; inDoubtWindowMs?: number } = {}) {
  const logs: Array<Record<string, unknown>> = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) } });
  return { layer: new IdempotencyLayer({ leaseMs: options.leaseMs ?? 30_000, logger, clock, ...options }), logs };
}

describe('IdempotencyLayer.claim', () => {
  it('owns a new key, leased for leaseMs, its first use stamped by the clock', async () => {
    const { em, executed } = fakeEm({ insert: [[{ attempt: 1 }]] });
    await expect(layer().layer.claim(em, scope)).resolves.toEqual({ kind: 'owned', scope, attempt: 1, subjectId: null });
    expect(executed).toHaveLength(1);
    expect(executed[0]?.sql).toContain('on conflict (client_id, key) do nothing');
    expect(executed[0]?.params).toEqual(['cli_1', 'order-1001', 'deposit', scope.fingerprint, 30, null, NOW]);
  });

  it('answers reused for a key another request used', async () => {
    const { em, kinds } = fakeEm({ select: [[key({ fingerprint: 'e'.repeat(64) })]] });
    await expect(layer().layer.claim(em, scope)).resolves.toEqual({ kind: 'reused' });
    expect(kinds()).toEqual(['insert', 'select']);
  });

  it('replays a final answer byte for byte', async () => {
    const { em } = fakeEm({ select: [[key({ response: '{"subject":{"id":"dep_1"},"errors":[]}', response_final: true })]] });
    await expect(layer().layer.claim(em, scope)).resolves.toEqual({ kind: 'replay', response: '{"subject":{"id":"dep_1"},"errors":[]}' });
  });

  it('reads the key with the two expiry cut-offs of the windows (24 hours, 30 days by default)', async () => {
    const { em, executed } = fakeEm({ select: [[key({ response: '{}', response_final: true })]] });
    await layer().layer.claim(em, scope);
    expect(executed[1]?.params).toEqual([null, new Date(NOW.getTime() - 24 * HOUR), new Date(NOW.getTime() - 30 * 24 * HOUR), 'cli_1', 'order-1001']);
  });

  it('takes over a released key with no answer, resuming the subject an earlier attempt recorded', async () => {
    const { layer: idempotency, logs } = layer();
    const { em, executed, kinds } = fakeEm({ select: [[key({ attempt: 2, subject_id: 'dep_1' })]], take: [[{ attempt: 3, subject_id: 'dep_1' }]] });
    await expect(idempotency.claim(em, scope)).resolves.toEqual({ kind: 'owned', scope, attempt: 3, subjectId: 'dep_1' });
    expect(kinds()).toEqual(['insert', 'select', 'take']);
    // Only a key no one holds and with no final answer: a holder that came back meanwhile keeps it.
    expect(executed[2]?.sql).toContain('where client_id = ? and key = ? and (locked_until is null or locked_until <= now() or (false and ? is null)) and not response_final');
    expect(executed[2]?.params).toEqual([30, null, 'cli_1', 'order-1001', null]);
    expect(logs).toContainEqual(expect.objectContaining({ subjectId: 'dep_1', msg: 'resuming an idempotent request' }));
  });

  it('names this instance as the holder of the keys it leases, once told it, and takes over a key whose holder is gone', async () => {
    const { layer: idempotency, logs } = layer();
    await idempotency.start(() => Promise.resolve(() => Promise.resolve()), { id: 3, liveness: 'this-process' });
    const { em, executed } = fakeEm({ select: [[key({ attempt: 2, locked_ms: 25_000, locked_by: 7, holder_gone: true })]], take: [[{ attempt: 3, subject_id: null }]] });
    await expect(idempotency.claim(em, scope)).resolves.toEqual({ kind: 'owned', scope, attempt: 3, subjectId: null });
    expect(executed[0]?.params[5]).toBe(3);
    // On one process (PGlite), any other instance was an earlier process.
    expect(executed[1]?.sql).toContain('case when locked_until > now() then (locked_by is not null and locked_by <> ?) else false end as holder_gone');
    expect(executed[1]?.params[0]).toBe(3);
    expect(executed[2]?.params).toEqual([30, 3, 'cli_1', 'order-1001', 3]);
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'idempotency key held by an instance that is gone: taken over before its lease ran out' }));
  });

  it('looks again when another request took the key over first', async () => {
    const { em, kinds } = fakeEm({ select: [[key()], [key({ response: '{}', response_final: true })]], take: [[]] });
    await expect(layer().layer.claim(em, scope)).resolves.toEqual({ kind: 'replay', response: '{}' });
    expect(kinds()).toEqual(['insert', 'select', 'take', 'insert', 'select']);
  });

  it('deletes an expired key (only the attempt read, only if still expired) and starts a new request under it', async () => {
    const { layer: idempotency, logs } = layer();
    const { em, executed, kinds } = fakeEm({ insert: [[], [{ attempt: 1 }]], select: [[key({ attempt: 4, expired: true, response: '{}', response_final: true })]] });
    await expect(idempotency.claim(em, scope)).resolves.toEqual({ kind: 'owned', scope, attempt: 1, subjectId: null });
    expect(kinds()).toEqual(['insert', 'select', 'delete', 'insert']);
    expect(executed[2]?.params.slice(0, 3)).toEqual(['cli_1', 'order-1001', 4]);
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'idempotency key used after its window: it starts a new request' }));
  });

  it('inserts again when the key vanished between the insert and the read', async () => {
    const { em, kinds } = fakeEm({ insert: [[], [{ attempt: 1 }]], select: [[]] });
    await expect(layer().layer.claim(em, scope)).resolves.toMatchObject({ kind: 'owned', attempt: 1 });
    expect(kinds()).toEqual(['insert', 'select', 'insert']);
  });

  it('waits for the holder\'s release (heard from any instance), then replays the provisional answer it left', async () => {
    const { layer: idempotency } = layer({ leaseMs: 60_000 });
    let release: ((payload: string) => void) | undefined;
    await idempotency.start((channel, handler) => {
      expect(channel).toBe(IDEMPOTENCY_CHANNEL);
      release = handler;
      return Promise.resolve(() => Promise.resolve());
    });
    const held = () => {
      // The holder finishes shortly after this read: its release wakes the waiter long before its lease.
      setTimeout(() => release?.('cli_1:order-1001'), 10);
      return [key({ attempt: 2, locked_ms: 60_000 })];
    };
    const { em, kinds } = fakeEm({ select: [held, [key({ attempt: 2, response: '{"errors":[{"code":"PROVIDER_UNAVAILABLE"}]}' })]] });
    const started = Date.now();
    await expect(idempotency.claim(em, scope)).resolves.toEqual({ kind: 'replay', response: '{"errors":[{"code":"PROVIDER_UNAVAILABLE"}]}' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(kinds()).toEqual(['insert', 'select', 'insert', 'select']);
  });

  it('ignores a release of another key, and wakes every waiter when it stops', async () => {
    const { layer: idempotency } = layer({ leaseMs: 60_000 });
    let release: ((payload: string) => void) | undefined;
    await idempotency.start((_channel, handler) => {
      release = handler;
      return Promise.resolve(() => Promise.resolve());
    });
    const held = () => {
      setTimeout(() => release?.('cli_1:another-key'), 5);
      setTimeout(() => void idempotency.stop(), 30);
      return [key({ locked_ms: 60_000 })];
    };
    const { em } = fakeEm({ select: [held, [key({ response: '{}', response_final: true })]] });
    const started = Date.now();
    await expect(idempotency.claim(em, scope)).resolves.toEqual({ kind: 'replay', response: '{}' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('is busy once it has waited two leases for a holder that keeps the key', async () => {
    const { em, kinds } = fakeEm({ select: Array.from({ length: 50 }, () => [key({ locked_ms: 5 })]) });
    const started = Date.now();
    await expect(layer({ leaseMs: 20 }).layer.claim(em, scope)).resolves.toEqual({ kind: 'busy' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
    expect(kinds().filter((kind) => kind === 'select').length).toBeGreaterThanOrEqual(2);
  });
});

describe('IdempotencyLayer: attach, finish, abandon', () => {
  const owned: OwnedClaim = { kind: 'owned', scope, attempt: 2, subjectId: null };

  it('attaches the subject in the transaction that records it, to the attempt that owns the key', async () => {
    const { em, executed } = fakeEm({ attach: [[{ attempt: 2 }]] }, true);
    await layer().layer.attach(em, owned, 'dep_1');
    expect(executed[0]?.params).toEqual(['dep_1', 'cli_1', 'order-1001', 2]);
  });

  it('throws when a later attempt took the key over meanwhile, so the subject rolls back', async () => {
    const { em } = fakeEm({ attach: [[]] }, true);
    await expect(layer().layer.attach(em, owned, 'dep_1')).rejects.toThrow(
      "IDEMPOTENCY_KEY_TAKEN_OVER: a later request took this deposit's idempotency key over before its subject was recorded",
    );
  });

  it('refuses to attach outside a transaction', async () => {
    await expect(layer().layer.attach(fakeEm({}).em, owned, 'dep_1')).rejects.toThrow('IdempotencyLayer.attach must run in the transaction that records the subject');
  });

  it('stores the response, final or provisional, and releases the key', async () => {
    const script: Script = { finish: [[{ attempt: 2 }]] };
    const { em } = fakeEm(script);
    const { layer: idempotency, logs } = layer();
    await idempotency.finish(em, owned, '{"errors":[]}', false);
    expect(script.finish).toEqual([]);
    expect(logs).toEqual([]);
  });

  it('stores nothing, and says so, when its lease ran out and a later attempt took over', async () => {
    const { em } = fakeEm({ finish: [[]] });
    const { layer: idempotency, logs } = layer();
    await idempotency.finish(em, owned, '{}', true);
    expect(logs).toContainEqual(expect.objectContaining({ level: 40, msg: 'idempotency lease ran out before the response was stored; the later attempt answers' }));
  });

  it('abandons the key with nothing stored: the next request runs it again', async () => {
    const script: Script = { abandon: [[]] };
    await layer().layer.abandon(fakeEm(script).em, owned);
    expect(script.abandon).toEqual([]);
  });
});

describe('IdempotencyLayer.purgeExpired: the windows', () => {
  it('deletes keys past the window, or past the in-doubt window when in doubt, oldest first, up to the limit', async () => {
    const { em, executed } = fakeEm({ purge: [[{ client_id: 'cli_1' }, { client_id: 'cli_2' }]] });
    await expect(layer({ windowMs: 2 * HOUR, inDoubtWindowMs: 48 * HOUR }).layer.purgeExpired(em, 500)).resolves.toBe(2);
    expect(executed[0]?.sql).toContain('(locked_until is null or locked_until <= now())');
    expect(executed[0]?.sql).toContain('((created_at <= ? and (response_final or subject_id is null)) or created_at <= ?)');
    expect(executed[0]?.params).toEqual([new Date(NOW.getTime() - 2 * HOUR), new Date(NOW.getTime() - 48 * HOUR), 500]);
  });

  it('never keeps a key in doubt for less than the window', async () => {
    const { em, executed } = fakeEm({});
    await layer({ windowMs: 10 * HOUR, inDoubtWindowMs: HOUR }).layer.purgeExpired(em, 1);
    expect(executed[0]?.params).toEqual([new Date(NOW.getTime() - 10 * HOUR), new Date(NOW.getTime() - 10 * HOUR), 1]);
  });
});
