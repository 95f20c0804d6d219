// The durable trail of what the gateway asked about one payment besides its own changes: every
// provider call attempt made in a payment's scope (provider-transport.ts reports them, with
// masked summaries) and every reconciliation check of one payment. A payment's timeline reads them
// (src/modules/timeline). Written outside the payment's transaction, after the fact, by group
// commit: a row waits a short window (25 ms) for the rows of other payments to join its insert, and
// the rows that arrive while an insert runs go together in the next one, so under load one statement
// carries the calls of many payments instead of one or two each. A row that cannot be written is
// logged and dropped: the trail never fails nor slows the payment it describes.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { newId } from '../lib/ids.js';
import type { Logger } from '../lib/logger.js';
import { currentTraceId } from '../lib/tracing/trace-context.js';
import type { PaymentSubjectKind } from './payment-scope.js';
import type { ProviderCallReport } from './provider-transport.js';

/** One reconciliation check of one payment, as the reconciler decided it. */
export interface ReconciliationCheckRecord {
  subjectType: PaymentSubjectKind;
  subjectId: string;
  /** The reconciler's outcome word, e.g. `applied`, `noop`, `provider_error`. */
  outcome: string;
  /** Why, starting with a stable code; null when the outcome says it all. */
  reason: string | null;
  /** When the check ended. */
  at: Date;
  /** The trace the check ran in (its job's span), when tracing is on. */
  traceId?: string | null;
}

/** Rows one insert writes at most; the rest wait for the next. */
const MAX_ROWS_PER_INSERT = 500;
/** Longest error or reason text kept. */
const MAX_TEXT_CHARS = 2_000;

const CALL_COLUMNS = 15;
// Both inserts are marked `/* call-records */`: written beside a payment's statements, never among
// them, and told apart from them by the tests that count a payment's statements.
const CHECK_COLUMNS = 7;

export interface CallRecordsOptions {
  logger: Logger;
  /** Where rows are written: a fresh EntityManager for each insert, outside every payment's transaction. */
  fork: () => SqlEntityManager;
  /**
   * Rows kept waiting at most while the database is slow or down; past it new rows are dropped
   * (and counted in the log line), so memory stays bounded. Default 10 000.
   */
  maxPending?: number;
  /**
   * How long a row waits for others before its insert starts (`DEFAULT_WINDOW_MS`); 0 starts it at
   * once. A timeline read that must show a call just made flushes first (`flush`).
   */
  windowMs?: number;
}

/** A row's wait for the rows of other payments: a few of them at a handful a second, dozens under load. */
export const DEFAULT_WINDOW_MS = 25;

export class CallRecords {
  private calls: ProviderCallReport[] = [];
  private checks: ReconciliationCheckRecord[] = [];
  private writing: Promise<void> | undefined;
  /** The window the waiting rows' insert starts after. */
  private window: NodeJS.Timeout | undefined;
  /** Where rows are written; none once closed. */
  private fork: (() => SqlEntityManager) | undefined;
  private dropped = 0;
  private readonly maxPending: number;
  private readonly windowMs: number;

  constructor(private readonly options: CallRecordsOptions) {
    this.fork = options.fork;
    this.maxPending = options.maxPending ?? 10_000;
    this.windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  }

  /** The provider transport's listener: an attempt made in a payment's scope is kept; any other is not. */
  recordCall(report: ProviderCallReport): void {
    if (!report.subject) return;
    if (!this.room()) return;
    this.calls.push(report);
    this.writeSoon();
  }

  recordCheck(check: ReconciliationCheckRecord): void {
    if (!this.room()) return;
    // Told during the check, in its job's span: the trace it ran in.
    this.checks.push(check.traceId === undefined ? { ...check, traceId: currentTraceId() ?? null } : check);
    this.writeSoon();
  }

  /** Resolves once every row recorded so far is written (or dropped after a failed insert). */
  async flush(): Promise<void> {
    while (this.writing || ((this.calls.length > 0 || this.checks.length > 0) && this.fork)) {
      this.writeNow();
      await this.writing;
    }
  }

  /** Flushes and writes nothing more (the gateway's close, before its database closes). */
  async close(): Promise<void> {
    await this.flush();
    this.fork = undefined;
  }

  private room(): boolean {
    if (this.calls.length + this.checks.length < this.maxPending) return true;
    if (this.dropped++ === 0) this.options.logger.warn({ maxPending: this.maxPending }, 'provider call records are not being written fast enough; new ones are dropped');
    return false;
  }

  /** Starts the writer once the window has passed, unless it runs or waits already. */
  private writeSoon(): void {
    if (this.writing || this.window || !this.fork) return;
    if (this.calls.length === 0 && this.checks.length === 0) return;
    if (this.windowMs <= 0) return this.writeNow();
    this.window = setTimeout(() => this.writeNow(), this.windowMs);
    // The trail keeps no process alive: the gateway's close flushes it.
    this.window.unref();
  }

  /** Starts the writer now unless it runs: it takes whatever waits each time it is free. */
  private writeNow(): void {
    clearTimeout(this.window);
    this.window = undefined;
    if (this.writing || !this.fork) return;
    if (this.calls.length === 0 && this.checks.length === 0) return;
    this.writing = this.drain().finally(() => {
      this.writing = undefined;
      // Rows recorded during the last insert's answer.
      this.writeSoon();
    });
  }

  private async drain(): Promise<void> {
    while (this.fork && (this.calls.length > 0 || this.checks.length > 0)) {
      const calls = this.calls.splice(0, MAX_ROWS_PER_INSERT);
      const checks = this.checks.splice(0, MAX_ROWS_PER_INSERT);
      const em = this.fork();
      try {
        if (calls.length > 0) await insertCalls(em, calls);
        if (checks.length > 0) await insertChecks(em, checks);
      } catch (error) {
        this.options.logger.error({ err: error, calls: calls.length, checks: checks.length }, 'provider call records could not be written; they are dropped');
      }
      if (this.dropped > 0) {
        this.options.logger.warn({ dropped: this.dropped }, 'provider call records were dropped while the writer was behind');
        this.dropped = 0;
      }
    }
  }
}

function clip(text: string | null): string | null {
  return text !== null && text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS - 1)}…` : text;
}

async function insertCalls(em: SqlEntityManager, calls: readonly ProviderCallReport[]): Promise<void> {
  const params: unknown[] = [];
  for (const call of calls) {
    // Masked here, off the payment's path: field names and the provider's shown fields only.
    const summaries = call.summaries();
    params.push(
      newId('pcl'),
      call.subject!.subjectType,
      call.subject!.subjectId,
      call.provider,
      call.account,
      call.operation,
      call.attempt,
      call.outcome,
      call.httpStatus,
      clip(call.error),
      call.durationMs,
      summaries.request,
      summaries.response,
      call.traceId,
      call.startedAt,
    );
  }
  await em.execute(
    `/* call-records */ insert into provider_call (id, subject_type, subject_id, provider, merchant_account, operation, attempt, outcome, http_status, error, duration_ms, request_summary, response_summary, trace_id, created_at)
     values ${placeholders(calls.length, CALL_COLUMNS)}`,
    params,
  );
}

async function insertChecks(em: SqlEntityManager, checks: readonly ReconciliationCheckRecord[]): Promise<void> {
  const params = checks.flatMap((check) => [newId('rck'), check.subjectType, check.subjectId, check.outcome, clip(check.reason), check.traceId ?? null, check.at]);
  await em.execute(`/* call-records */ insert into reconciliation_check (id, subject_type, subject_id, outcome, reason, trace_id, created_at) values ${placeholders(checks.length, CHECK_COLUMNS)}`, params);
}

function placeholders(rows: number, columns: number): string {
  const row = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  return Array.from({ length: rows }, () => row).join(', ');
}
