// The idempotency layer every money-moving mutation goes through (Stripe's model): per client and
// key it keeps the request's fingerprint and, once the outcome is definite, the response, which
// every later request with that key gets back byte for byte; a different request under the key is
// refused; a duplicate that arrives while the first is still working waits on the first one's
// lease and is woken by a notification when it finishes, on any gateway instance. A key lasts a
// window from its first use (24 hours by default, Stripe's); used after it, it starts a new request.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { signalOnCommit } from '../db/commit-signals.js';
import { INSTANCE_LOCK_CLASS, type InstanceIdentity } from '../db/instance-lock.js';
import { systemClock, type Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { FieldError } from '../providers/provider.js';

/** Wake-up channel that tells every instance a key's holder has finished (payload: `<clientId>:<key>`). */
export const IDEMPOTENCY_CHANNEL = 'idempotency_key_released';

/** What a client's idempotency key may be: 1 to 255 printable ASCII characters without spaces (`idempotency_key.key`). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * The input error of a malformed idempotency key, for every operation that takes one (checked with
 * the rest of its input, before any I/O); none for a well-formed or absent key. `field`: the input
 * field that carries a key under these rules (a credit claim's `claimKey`).
 */
export function idempotencyKeyErrors(key: string | undefined, field = 'idempotencyKey'): FieldError[] {
  if (key === undefined || IDEMPOTENCY_KEY_PATTERN.test(key)) return [];
  return [{ field: [field], code: 'INVALID_FORMAT', message: `${field} must be 1 to 255 printable ASCII characters without spaces` }];
}

/** What a key is reserved for: the same key may not serve two kinds of operation. */
export type IdempotentOperation = string;

export interface IdempotencyScope {
  clientId: string;
  key: string;
  operation: IdempotentOperation;
  /** SHA-256 hex of the request's canonical content (`requestFingerprint`). */
  fingerprint: string;
}

/**
 * - `owned`: this request holds the key's lease and must run the operation; `subjectId` is set
 *   when an earlier attempt already recorded its subject (resume it, never create a second one).
 * - `replay`: the stored response, to return as it is.
 * - `reused`: the key was used for a different request.
 * - `busy`: another request kept the key for longer than this one may wait.
 */
export type Claim =
  | { kind: 'owned'; scope: IdempotencyScope; attempt: number; subjectId: string | null }
  | { kind: 'replay'; response: string }
  | { kind: 'reused' }
  | { kind: 'busy' };

export type OwnedClaim = Extract<Claim, { kind: 'owned' }>;

export interface IdempotencyOptions {
  /**
   * How long a holder keeps the key before another request may take it over (a crashed holder
   * never releases it). Must outlast the longest provider call, retries included.
   */
  leaseMs: number;
  logger: Logger;
  /**
   * How long after its first use a key answers its first request (IDEMPOTENCY_KEY_WINDOW_MS).
   * Past it the key starts a new request, checked on every use, whether or not the retention job
   * has deleted it yet. Default: 24 hours.
   */
  windowMs?: number;
  /**
   * How long a key in doubt (its subject recorded, its outcome at the provider never answered
   * for good) keeps resuming that subject (IDEMPOTENCY_IN_DOUBT_WINDOW_MS): a new request under
   * it could move money a second time. At least `windowMs`. Default: 30 days.
   */
  inDoubtWindowMs?: number;
  /** Measures a key's age; the database's now() keeps deciding leases. Default: the system clock. */
  clock?: Clock;
}

/** Stripe's window: a client retrying a request a day later is not retrying it. */
export const DEFAULT_IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
/** Long enough for reconciliation to settle any outcome a provider outage left unknown. */
export const DEFAULT_IDEMPOTENCY_IN_DOUBT_WINDOW_MS = 30 * 24 * 3_600_000;

/**
 * When a key has expired: its lease is over (a request still working keeps it), and it is older
 * than the window, or older than the in-doubt window when it is in doubt (a subject recorded and
 * no final answer). Parameters: the two cut-offs, window first. The claim and the purge share it,
 * so a key the purge would delete already starts a new request before the purge runs.
 */
const EXPIRED_SQL = `((locked_until is null or locked_until <= now())
  and ((created_at <= ? and (response_final or subject_id is null)) or created_at <= ?))`;

/**
 * While another instance holds a key, a waiter looks again this often whether that instance still
 * runs: a holder that dies while others wait on it sends no notification. A key this instance
 * holds needs no look: its release wakes the waiters in-process, and they die with it.
 */
const HOLDER_PROBE_MS = 1_000;

/**
 * Whether the instance that holds a key is gone: SQL true when `locked_by` names an instance other
 * than this one (the one parameter) that no longer runs. On PostgreSQL that instance's session lock
 * can be taken (src/db/instance-lock.ts); a transaction-scoped probe, released with the statement or
 * the caller's transaction. On PGlite any other instance was an earlier process. False when this
 * layer was not told who it is (tests that drive it alone): the lease decides alone.
 */
function holderGoneSql(instance: InstanceIdentity | undefined): string {
  if (!instance) return '(false and ? is null)';
  if (instance.liveness === 'this-process') return '(locked_by is not null and locked_by <> ?)';
  return `(locked_by is not null and locked_by <> ? and pg_try_advisory_xact_lock(${INSTANCE_LOCK_CLASS}, locked_by))`;
}

/** A key already in the table, as a claim reads it. */
export interface KeyRow {
  operation: string;
  fingerprint: string;
  attempt: number;
  subject_id: string | null;
  response: string | null;
  response_final: boolean;
  /** How long the holder's lease still runs, in ms; null when nobody holds the key. */
  locked_ms: number | string | null;
  /** The instance holding the key (src/db/instance-lock.ts), if the holder named one. */
  locked_by: number | null;
  /** The holder of a key still leased is gone (its process died): take the key over now. */
  holder_gone: boolean;
  /** Past its window (EXPIRED_SQL): it belongs to no request any more. */
  expired: boolean;
}

/**
 * What a request does about a key it found already in the table.
 * - `expired`: delete it (it belongs to no request any more) and insert the key anew.
 * - `reused`: the key was used for a different request (another operation or fingerprint).
 * - `replay`: answer `response` as it is.
 * - `wait`: another request holds the key: wait for its release, at most `ms`, then read it again.
 * - `busy`: another request still holds it, and this one may wait no longer.
 * - `take_over`: nobody holds it (its lease ran out, or its holder is gone) and no final answer is
 *   stored: take it over and resume.
 */
export type ExistingKeyDecision =
  | { kind: 'expired' }
  | { kind: 'reused' }
  | { kind: 'replay'; response: string }
  | { kind: 'wait'; ms: number }
  | { kind: 'busy' }
  | { kind: 'take_over' };

/** What a claim knows besides the key's row. */
export interface ExistingKeyContext {
  /** How much longer the request may wait for a holder. */
  remainingMs: number;
  /** The attempt the request first waited on, if it waited. */
  waitedOnAttempt: number | undefined;
  /** This instance's id as a key's holder, once the layer is told it (`start`). */
  instanceId: number | undefined;
}

/**
 * Decides what a request does about a key already in the table, from the row alone. A final
 * response is replayed to every request; a provisional one (the provider's answer was unknown)
 * only to a request that waited for the very attempt that stored it, so a burst of duplicates
 * never piles provider calls on a provider that is not answering. A holder is waited on until its
 * lease ends (a little more), at most what is left of the request's own wait, and at most
 * HOLDER_PROBE_MS when another instance holds it (whether it still runs is read again then).
 */
export function decideExistingKey(row: KeyRow, scope: Pick<IdempotencyScope, 'operation' | 'fingerprint'>, context: ExistingKeyContext): ExistingKeyDecision {
  if (row.expired) return { kind: 'expired' };
  if (row.operation !== scope.operation || row.fingerprint !== scope.fingerprint) return { kind: 'reused' };
  if (row.response !== null && row.response_final) return { kind: 'replay', response: row.response };
  if (row.locked_ms !== null && !row.holder_gone) {
    if (context.remainingMs <= 0) return { kind: 'busy' };
    const heldElsewhere = context.instanceId !== undefined && row.locked_by !== null && row.locked_by !== context.instanceId;
    return { kind: 'wait', ms: Math.min(Number(row.locked_ms) + 50, context.remainingMs, heldElsewhere ? HOLDER_PROBE_MS : Infinity) };
  }
  if (context.waitedOnAttempt !== undefined && row.attempt === context.waitedOnAttempt && row.response !== null) return { kind: 'replay', response: row.response };
  return { kind: 'take_over' };
}

type Listen = (channel: string, handler: (payload: string) => void) => Promise<() => Promise<void>>;

export class IdempotencyLayer {
  /** Requests of this instance waiting for a key's holder, by `<clientId>:<key>`. */
  private readonly waiters = new Map<string, Set<() => void>>();
  private unlisten: (() => Promise<void>) | undefined;
  /** This instance as a key's holder, once started; the keys it leases name it. */
  private instance: InstanceIdentity | undefined;

  private readonly windowMs: number;
  private readonly inDoubtWindowMs: number;
  private readonly clock: Clock;

  constructor(private readonly options: IdempotencyOptions) {
    this.windowMs = options.windowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS;
    this.inDoubtWindowMs = Math.max(this.windowMs, options.inDoubtWindowMs ?? DEFAULT_IDEMPOTENCY_IN_DOUBT_WINDOW_MS);
    this.clock = options.clock ?? systemClock;
  }

  /** The expiry cut-offs at this moment of the clock: keys first used at or before them have expired. */
  private cutoffs(): [Date, Date] {
    const now = this.clock.now().getTime();
    return [new Date(now - this.windowMs), new Date(now - this.inDoubtWindowMs)];
  }

  /**
   * Deletes up to `limit` expired keys in one statement (its own short transaction), oldest first,
   * skipping rows another transaction holds. Returns how many it deleted: fewer than `limit` when
   * no more have expired. Run by the retention job.
   */
  async purgeExpired(em: SqlEntityManager, limit: number): Promise<number> {
    const deleted = await em.execute<Array<{ client_id: string }>>(
      `delete from idempotency_key where (client_id, key) in (
         select client_id, key from idempotency_key where ${EXPIRED_SQL}
         order by created_at limit ? for update skip locked)
       returning client_id`,
      [...this.cutoffs(), limit],
    );
    return deleted.length;
  }

  /**
   * Starts hearing releases from every instance (this one's in-process, right after their commit).
   * With `instance`, the keys this layer leases name this instance, and a key whose holder is gone
   * is taken over at once rather than after its lease.
   */
  async start(listen: Listen, instance?: InstanceIdentity): Promise<void> {
    this.instance ??= instance;
    this.unlisten ??= await listen(IDEMPOTENCY_CHANNEL, (payload) => this.wake(payload));
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = undefined;
    for (const name of [...this.waiters.keys()]) this.wake(name);
  }

  /**
   * Reserves the key for this request, or says what to answer instead. A request that finds the
   * key held waits for the holder's release (a notification) or the end of its lease, then looks
   * again; if the holder ended with a provisional answer (its outcome at the provider unknown),
   * the waiter gets that answer too, so a burst of duplicates never piles provider calls on a
   * provider that is not answering. A later request takes the key over and resumes.
   */
  async claim(em: SqlEntityManager, scope: IdempotencyScope): Promise<Claim> {
    const name = keyName(scope);
    const deadline = Date.now() + 2 * this.options.leaseMs;
    let waitedOnAttempt: number | undefined;
    for (;;) {
      const inserted = await em.execute<Array<{ attempt: number }>>(
        `insert into idempotency_key (client_id, key, operation, fingerprint, attempt, locked_until, locked_by, created_at, updated_at)
         values (?, ?, ?, ?, 1, now() + make_interval(secs => ?), ?, ?, now())
         on conflict (client_id, key) do nothing
         returning attempt`,
        [scope.clientId, scope.key, scope.operation, scope.fingerprint, this.options.leaseMs / 1000, this.instance?.id ?? null, this.clock.now()],
      );
      if (inserted[0]) return { kind: 'owned', scope, attempt: inserted[0].attempt, subjectId: null };

      // Registered before the read, so a release between the read and the wait is not missed.
      const released = this.ticket(name);
      const rows = await em.execute<KeyRow[]>(
        `select operation, fingerprint, attempt, subject_id, response, response_final, locked_by,
                case when locked_until > now() then ceil(extract(epoch from locked_until - now()) * 1000) end as locked_ms,
                case when locked_until > now() then ${holderGoneSql(this.instance)} else false end as holder_gone,
                ${EXPIRED_SQL} as expired
         from idempotency_key where client_id = ? and key = ?`,
        [this.instance?.id ?? null, ...this.cutoffs(), scope.clientId, scope.key],
      );
      const row = rows[0];
      if (!row) {
        released.cancel();
        continue;
      }
      const decision = decideExistingKey(row, scope, { remainingMs: deadline - Date.now(), waitedOnAttempt, instanceId: this.instance?.id });
      if (decision.kind === 'wait') {
        waitedOnAttempt ??= row.attempt;
        await released.wait(decision.ms);
        continue;
      }
      released.cancel();
      if (decision.kind === 'expired') {
        // Past its window the key belongs to no request any more, whatever input it had (Stripe's
        // rule): it is deleted here rather than waiting for the retention job, and the insert
        // above runs again. Only the attempt read is deleted, and only if it is still expired; a
        // concurrent request that got here first has inserted a fresh key, which this one then
        // finds like any other.
        await em.execute(`delete from idempotency_key where client_id = ? and key = ? and attempt = ? and ${EXPIRED_SQL}`, [scope.clientId, scope.key, row.attempt, ...this.cutoffs()]);
        this.options.logger.info({ clientId: scope.clientId, operation: scope.operation }, 'idempotency key used after its window: it starts a new request');
        continue;
      }
      if (decision.kind === 'reused') return { kind: 'reused' };
      if (decision.kind === 'busy') return { kind: 'busy' };
      if (decision.kind === 'replay') return { kind: 'replay', response: decision.response };
      // A lease that ran out, or whose holder is gone, is taken over (the row lock of the update
      // lets one request of many do it; the others find the key held again).
      const taken = await em.execute<Array<{ attempt: number; subject_id: string | null }>>(
        `update idempotency_key set attempt = attempt + 1, locked_until = now() + make_interval(secs => ?), locked_by = ?, updated_at = now()
         where client_id = ? and key = ? and (locked_until is null or locked_until <= now() or ${holderGoneSql(this.instance)}) and not response_final
         returning attempt, subject_id`,
        [this.options.leaseMs / 1000, this.instance?.id ?? null, scope.clientId, scope.key, this.instance?.id ?? null],
      );
      if (taken[0]) {
        if (row.holder_gone) this.options.logger.info({ clientId: scope.clientId, operation: scope.operation }, 'idempotency key held by an instance that is gone: taken over before its lease ran out');
        if (taken[0].subject_id) this.options.logger.info({ clientId: scope.clientId, operation: scope.operation, subjectId: taken[0].subject_id }, 'resuming an idempotent request');
        return { kind: 'owned', scope, attempt: taken[0].attempt, subjectId: taken[0].subject_id };
      }
    }
  }

  /**
   * Records the subject the owned attempt created, inside the transaction that creates it: from
   * that commit on, every later attempt resumes this subject instead of creating another.
   *
   * Throws when a later attempt has taken the key over meanwhile (this one's lease ran out before
   * it recorded its subject), so that the caller's transaction, and the subject in it, roll back:
   * one key never ends with two subjects. The update locks the key's row, so a takeover that
   * comes after it waits for this transaction and then resumes the subject it recorded.
   */
  async attach(tx: SqlEntityManager, claim: OwnedClaim, subjectId: string): Promise<void> {
    if (!tx.isInTransaction()) throw new Error('IdempotencyLayer.attach must run in the transaction that records the subject');
    const attached = await tx.execute<Array<{ attempt: number }>>(
      'update idempotency_key set subject_id = ?, updated_at = now() where client_id = ? and key = ? and attempt = ? returning attempt',
      [subjectId, claim.scope.clientId, claim.scope.key, claim.attempt],
    );
    if (attached.length === 0) {
      throw new Error(`IDEMPOTENCY_KEY_TAKEN_OVER: a later request took this ${claim.scope.operation}'s idempotency key over before its subject was recorded`);
    }
  }

  /**
   * Stores the response and releases the key, and wakes the requests waiting for it. A `final`
   * response is replayed to every later request; a provisional one (the provider's answer is
   * unknown) only to the requests that waited for this attempt, and the next request resumes.
   * Nothing is stored if another request has taken the key over meanwhile (this one's lease ran out).
   */
  async finish(em: SqlEntityManager, claim: OwnedClaim, response: string, final: boolean): Promise<void> {
    await em.transactional(async (tx) => {
      const updated = await tx.execute<Array<{ attempt: number }>>(
        `update idempotency_key set response = ?, response_final = ?, locked_until = null, locked_by = null, updated_at = now()
         where client_id = ? and key = ? and attempt = ?
         returning attempt`,
        [response, final, claim.scope.clientId, claim.scope.key, claim.attempt],
      );
      if (updated.length === 0) {
        this.options.logger.warn({ clientId: claim.scope.clientId, operation: claim.scope.operation }, 'idempotency lease ran out before the response was stored; the later attempt answers');
        return;
      }
      // Announced after the commit, to every instance's listener (src/db/commit-signals.ts `signalOnCommit`).
      signalOnCommit(tx, IDEMPOTENCY_CHANNEL, keyName(claim.scope));
    });
  }

  /** Releases the key with nothing stored (the attempt failed before any answer): the next request runs it again. */
  async abandon(em: SqlEntityManager, claim: OwnedClaim): Promise<void> {
    await em.transactional(async (tx) => {
      await tx.execute('update idempotency_key set locked_until = null, locked_by = null, updated_at = now() where client_id = ? and key = ? and attempt = ?', [
        claim.scope.clientId,
        claim.scope.key,
        claim.attempt,
      ]);
      signalOnCommit(tx, IDEMPOTENCY_CHANNEL, keyName(claim.scope));
    });
  }

  private ticket(name: string): { wait(ms: number): Promise<void>; cancel(): void } {
    let resolve!: () => void;
    const released = new Promise<void>((done) => {
      resolve = done;
    });
    const set = this.waiters.get(name) ?? new Set<() => void>();
    set.add(resolve);
    this.waiters.set(name, set);
    const cancel = () => {
      set.delete(resolve);
      if (set.size === 0 && this.waiters.get(name) === set) this.waiters.delete(name);
    };
    return {
      async wait(ms: number) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([released, new Promise<void>((done) => (timer = setTimeout(done, ms)))]);
        clearTimeout(timer);
        cancel();
      },
      cancel,
    };
  }

  private wake(name: string): void {
    const set = this.waiters.get(name);
    if (!set) return;
    this.waiters.delete(name);
    for (const resolve of set) resolve();
  }
}

/** `<clientId>:<key>`: client ids never contain a colon, so the first one splits them. */
function keyName(scope: Pick<IdempotencyScope, 'clientId' | 'key'>): string {
  return `${scope.clientId}:${scope.key}`;
}
