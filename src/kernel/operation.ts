// The lifecycle every money operation (deposit, QR code, refund, payout) goes through, written once:
// the module validates (no I/O) -> the row and its creation event commit in one transaction ->
// the provider is called with our id as its idempotency key -> its answer is recorded through the
// module's transition code. An unknown answer leaves the row recoverable: `resume` submits it again
// under the same id, whether a client retries with its idempotency key or the reconciler finds it.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../lib/logger.js';
import type { FieldError, ProviderError, ProviderResult } from '../providers/provider.js';
import type { IdempotencyLayer, IdempotentOperation, OwnedClaim } from './idempotency.js';
import { forPayment } from './payment-scope.js';

/** The columns the lifecycle itself reads and writes on every operation's row. */
export interface OperationRow {
  id: string;
  /** Code of the last failed submission: with no provider answer yet, the outcome is unknown. */
  submissionError?: string | null;
}

/**
 * What a module plugs into the lifecycle: how its row is recorded, submitted and answered. The
 * lifecycle owns the order of the steps, the idempotency key and what happens on failure.
 *
 * @typeParam P the validated request (`prepared` by the module, no I/O)
 * @typeParam R the row: a MikroORM entity, or plain facts read and written by SQL alone
 * @typeParam A the provider's accepted answer
 * @typeParam S the snapshot answered to the client and stored for idempotent replays
 */
export interface MoneyOperation<P, R extends OperationRow, A, S> {
  readonly name: IdempotentOperation;
  /**
   * In the recording transaction (or on its own, see `recordsInOneStatement`): inserts the row and
   * its creation event, or refuses with errors decided under the row locks it takes (e.g. a refund
   * larger than what is left).
   */
  record(tx: SqlEntityManager, prepared: P): Promise<{ ok: true; row: R } | { ok: false; errors: FieldError[] }>;
  /**
   * True when `record` writes in one statement, which commits atomically on its own: with nothing
   * to commit beside it (no idempotency key to attach), it then runs outside a transaction, which
   * saves the transaction's BEGIN and COMMIT.
   */
  readonly recordsInOneStatement?: boolean;
  /** The row as it stands in the database now (a managed entity is read again, not taken from the identity map). */
  load(em: SqlEntityManager, id: string): Promise<R | null>;
  /** True while the row has neither a provider answer nor a definite refusal. */
  awaitingProvider(row: R): boolean;
  /**
   * The provider call, with our id as its idempotency key. `prepared` is absent when the
   * reconciler resumes a row on its own; the row then has to carry what the call needs.
   */
  call(em: SqlEntityManager, row: R, prepared: P | undefined): Promise<ProviderResult<A>>;
  /**
   * Why the reconciler must not resubmit this row on its own (its provider call takes no
   * idempotency key, say), or undefined when it may. A client's retry under its idempotency key
   * still resubmits: it brings the request back. Absent: every row may be resubmitted.
   */
  notResubmittable?(row: R): string | undefined;
  /** Stores an accepted answer and returns the row as it now stands (its status is left to webhooks). */
  accepted(em: SqlEntityManager, row: R, answer: A): Promise<R>;
  /**
   * Marks the row with the code of a submission whose outcome at the provider is unknown
   * (`submissionError`) and returns the row as it now stands: it stays recoverable.
   */
  markUnknown(em: SqlEntityManager, row: R, error: ProviderError): Promise<R>;
  /** Inside a transaction: a definite refusal moves the row to its failed status through the module's transition function. */
  refused(tx: SqlEntityManager, row: R, error: ProviderError): Promise<void>;
  /** What the caller is told about a provider failure. */
  errorsOf(error: ProviderError): FieldError[];
  /** What the caller is told about a row that was refused before (a resumed request finds it so). */
  errorsOfRow(row: R): FieldError[];
  snapshot(row: R): S;
}

export interface OperationResult<S> {
  subject: S | null;
  errors: FieldError[];
}

/**
 * - `submitted`: the provider has the operation (now, or already before).
 * - `refused`: the provider refused it definitely; the row moved to its failed status.
 * - `unknown`: the provider's answer is still unknown; the row stays recoverable.
 * - `not_needed`: the row already had its answer.
 * - `not_found`: no such row.
 */
export type ResumeOutcome = 'submitted' | 'refused' | 'unknown' | 'not_needed' | 'not_found';

export interface ResumeResult {
  outcome: ResumeOutcome;
  reason?: string;
}

interface Submitted<R> {
  outcome: Exclude<ResumeOutcome, 'not_found'>;
  row: R;
  errors: FieldError[];
}

export interface OperationRequest {
  clientId: string;
  idempotencyKey?: string | undefined;
  /** Canonical hash of the request, to tell a retry from another request reusing the key: needed with a key only. */
  fingerprint?: string | undefined;
}

/**
 * The provider call of a row whose merchant account is no longer configured (a configuration
 * change after it was recorded): not a refusal, since the provider may have it; the row waits.
 */
export function accountNotConfigured(code: string): ProviderError {
  return { code: 'PROVIDER_UNAVAILABLE', message: `Merchant account ${code} is not configured on this gateway`, outcomeUnknown: true };
}

/** `markUnknown` of a module whose rows are managed entities: the mark is flushed with the entity. */
export async function markEntityUnknown<R extends OperationRow>(em: SqlEntityManager, row: R, error: ProviderError): Promise<R> {
  row.submissionError = error.code;
  await em.flush();
  return row;
}

const REUSED: FieldError = { field: ['idempotencyKey'], code: 'IDEMPOTENCY_KEY_REUSED', message: 'This idempotency key was already used with different input' };
const BUSY: FieldError = {
  field: ['idempotencyKey'],
  code: 'IDEMPOTENCY_KEY_IN_USE',
  message: 'Another request with this idempotency key is still being processed; retry later with the same key',
};

export class OperationRunner {
  constructor(private readonly deps: { idempotency: IdempotencyLayer; logger: Logger }) {}

  /**
   * Runs a validated request through the lifecycle. With an idempotency key, the first request
   * under it does the work and stores its answer; the others get that answer back byte for byte
   * (waiting for it if it is still being worked on), and never cause a second provider call.
   */
  async execute<P, R extends OperationRow, A, S>(em: SqlEntityManager, op: MoneyOperation<P, R, A, S>, request: OperationRequest, prepared: P): Promise<OperationResult<S>> {
    if (!request.idempotencyKey) {
      const recorded = op.recordsInOneStatement ? await op.record(em, prepared) : await em.transactional((tx) => op.record(tx, prepared));
      if (!recorded.ok) return { subject: null, errors: recorded.errors };
      // Committed as `record` returned it: no read back.
      const done = await this.submit(em, op, recorded.row, prepared);
      return { subject: op.snapshot(done.row), errors: done.errors };
    }

    if (request.fingerprint === undefined) throw new Error(`${op.name} with an idempotency key needs the request's fingerprint`);
    const claim = await this.deps.idempotency.claim(em, { clientId: request.clientId, key: request.idempotencyKey, operation: op.name, fingerprint: request.fingerprint });
    switch (claim.kind) {
      case 'reused':
        return { subject: null, errors: [REUSED] };
      case 'busy':
        return { subject: null, errors: [BUSY] };
      case 'replay':
        return JSON.parse(claim.response) as OperationResult<S>;
      case 'owned':
        return this.runOwned(em, op, claim, prepared);
    }
  }

  /**
   * Submits a recorded row that still waits for its provider answer, under its own id (the
   * provider's idempotency key, so a payment it already has is returned, not made twice).
   */
  async resume<P, R extends OperationRow, A, S>(em: SqlEntityManager, op: MoneyOperation<P, R, A, S>, id: string): Promise<ResumeResult> {
    const row = await op.load(em, id);
    if (!row) return { outcome: 'not_found', reason: `NOT_FOUND: no ${op.name} ${id}` };
    const refusal = op.awaitingProvider(row) ? op.notResubmittable?.(row) : undefined;
    if (refusal) return { outcome: 'unknown', reason: refusal };
    const done = await this.submit(em, op, row, undefined);
    const reason = done.errors[0] ? `${done.errors[0].code}: ${done.errors[0].message}` : undefined;
    return { outcome: done.outcome, ...(reason !== undefined ? { reason } : {}) };
  }

  private async runOwned<P, R extends OperationRow, A, S>(em: SqlEntityManager, op: MoneyOperation<P, R, A, S>, claim: OwnedClaim, prepared: P): Promise<OperationResult<S>> {
    const { idempotency } = this.deps;
    try {
      let row: R | null;
      if (claim.subjectId) {
        // An earlier attempt under this key recorded its subject: resume it, never make another.
        row = await op.load(em, claim.subjectId);
        if (!row) throw new Error(`${op.name} ${claim.subjectId} of an idempotency key is missing`);
      } else {
        const recorded = await em.transactional(async (tx) => {
          const result = await op.record(tx, prepared);
          if (result.ok) await idempotency.attach(tx, claim, result.row.id);
          return result;
        });
        if (!recorded.ok) return await this.answer<S>(em, claim, { subject: null, errors: recorded.errors }, true);
        row = recorded.row;
      }
      const done = await this.submit(em, op, row, prepared);
      return await this.answer(em, claim, { subject: op.snapshot(done.row), errors: done.errors }, done.outcome !== 'unknown');
    } catch (error) {
      // Nothing to answer (a database failure): free the key for the client's retry at once
      // rather than at the end of the lease. Best effort: the database may be the failure.
      await idempotency.abandon(em.fork(), claim).catch(() => undefined);
      throw error;
    }
  }

  /** Stores the response, then answers exactly what was stored: the first request and every replay see the same bytes. */
  private async answer<S>(em: SqlEntityManager, claim: OwnedClaim, result: OperationResult<S>, final: boolean): Promise<OperationResult<S>> {
    const response = JSON.stringify(result);
    await this.deps.idempotency.finish(em, claim, response, final);
    return JSON.parse(response) as OperationResult<S>;
  }

  private async submit<P, R extends OperationRow, A, S>(em: SqlEntityManager, op: MoneyOperation<P, R, A, S>, row: R, prepared: P | undefined): Promise<Submitted<R>> {
    const { id } = row;
    if (!op.awaitingProvider(row)) {
      const errors = op.errorsOfRow(row);
      return { outcome: 'not_needed', row, errors };
    }
    // The provider call is the row's: its attempts go on the payment's timeline.
    const answer = await forPayment(op.name, id, () => op.call(em, row, prepared));
    if (answer.ok) return { outcome: 'submitted', row: await op.accepted(em, row, answer.value), errors: [] };

    const { error } = answer;
    const errors = op.errorsOf(error);
    if (error.outcomeUnknown) {
      // Unknown at the provider: the row stays as it is, marked, and recoverable. A retry with
      // the same idempotency key or the reconciler resumes it; the provider's webhook may settle it.
      const marked = await op.markUnknown(em, row, error);
      this.deps.logger.warn({ operation: op.name, id, code: error.code }, 'submission outcome unknown; kept recoverable');
      return { outcome: 'unknown', row: marked, errors };
    }
    // A definite refusal: nothing exists at the provider. The status moves through the module's
    // transition function, like every other status change.
    await em.transactional((tx) => op.refused(tx, row, error));
    const current = await op.load(em, id);
    if (!current) throw new Error(`${op.name} ${id} vanished after its refusal was recorded`);
    this.deps.logger.info({ operation: op.name, id, code: error.code, httpStatus: error.httpStatus }, 'refused by the provider');
    return { outcome: 'refused', row: current, errors };
  }
}
