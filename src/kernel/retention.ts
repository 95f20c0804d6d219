// Retention as a recurring job of the kernel's queue: expired idempotency keys are deleted, old
// webhook bodies erased, provider call and reconciliation check records of the same age deleted, and the personal data of payments final for long enough erased by the
// modules that keep it, in bounded batches, one sweep at a time across all instances. What each
// keeps and why: docs/operations.md "Retention".

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { IdempotencyLayer } from './idempotency.js';
import { eraseWebhookBodies } from './inbox/body-retention.js';
import type { JobHandlers, JobQueue } from './jobs.js';

/** Recurring, every `RETENTION_INTERVAL_MS`: one pass over every kind of data. */
export const RETENTION_SWEEP = 'retention.sweep';

declare module './jobs.js' {
  interface JobKinds {
    [RETENTION_SWEEP]: Record<string, never>;
  }
}

/**
 * Batches of one kind a sweep runs at most: a backlog (the first run after an upgrade, say) is
 * worked off over several sweeps, and no sweep outlasts its job lease.
 */
const MAX_BATCHES_PER_SWEEP = 100;

export interface RetentionSettings {
  /** RETENTION_ENABLED: this instance keeps the sweep scheduled; off, a sweep it takes ends the schedule. */
  enabled: boolean;
  /** RETENTION_INTERVAL_MS: pause between two sweeps. */
  intervalMs: number;
  /** RETENTION_BATCH_SIZE: rows one statement deletes or erases; each statement is its own short transaction. */
  batchSize: number;
  /**
   * WEBHOOK_BODY_RETENTION_MS: a verified delivery's body is erased this long after it was
   * received; the records of provider calls and reconciliation checks are deleted at the same age.
   */
  webhookBodyMs: number;
  /** PERSONAL_DATA_RETENTION_MS: a final payment's personal data is erased this long after the payment last changed. */
  personalDataMs: number;
}

/** When the personal data of a payment is due, and how much one statement erases. */
export interface ErasePersonalDataOptions {
  /** Payments that are final and last changed at or before this time are due. */
  changedBefore: Date;
  /** Erased in one transaction at most. */
  limit: number;
  /** Recorded as when the data was erased. */
  erasedAt: Date;
}

/**
 * The personal data one subject kind keeps (a deposit's payer, a payout's beneficiary), registered
 * by the module that owns it: the kernel knows no payment's shape. What it keeps after erasure is
 * the module's to say (docs/operations.md "Retention").
 */
export interface PersonalDataEraser {
  /** The subject kind (`deposit`, `payout`): names its count in the sweep's log line and metrics. */
  readonly subject: string;
  /**
   * Erases the personal data of up to `limit` due payments, oldest change first, in one short
   * transaction that skips rows other transactions hold, and returns how many: fewer than `limit`
   * when no more are due. Only final payments (nothing will submit them to a provider again) are
   * due, and a payment is erased once: a second sweep finds nothing more of it. Logs nothing.
   */
  erase(em: SqlEntityManager, options: ErasePersonalDataOptions): Promise<number>;
}

/** What one sweep removed; `more` when it stopped at its batch limit with more due. */
export interface RetentionResult {
  idempotencyKeys: number;
  webhookBodies: number;
  /** Provider call attempts recorded for payments' timelines, deleted. */
  providerCalls: number;
  /** Reconciliation checks recorded for payments' timelines, deleted. */
  reconciliationChecks: number;
  /** Payments whose personal data was erased, by subject kind (every registered kind, 0 included). */
  personalData: Record<string, number>;
  more: boolean;
}

export class Retention {
  private readonly erasers: PersonalDataEraser[] = [];

  constructor(
    private readonly deps: {
      idempotency: IdempotencyLayer;
      clock: Clock;
      logger: Logger;
      settings: RetentionSettings;
      /** The personal data each module keeps on its payments (`register`). */
      erasers?: readonly PersonalDataEraser[];
      /** Told every sweep's result (metrics). */
      onResult?: (result: RetentionResult) => void;
    },
  ) {
    for (const eraser of deps.erasers ?? []) this.register(eraser);
  }

  /** Adds a subject kind's personal data to every later sweep; one eraser per kind. */
  register(eraser: PersonalDataEraser): void {
    if (this.erasers.some((registered) => registered.subject === eraser.subject)) throw new Error(`Personal data of ${eraser.subject} is already registered for retention`);
    this.erasers.push(eraser);
  }

  /**
   * Deletes expired idempotency keys, then erases webhook bodies past their window, then the
   * personal data of each registered subject kind, each in batches of `batchSize` until a batch
   * comes back short. The idempotency layer decides which keys have expired (the rule its claim
   * applies on every use); the other cut-offs are taken once, from the gateway's clock, at the
   * start of the sweep. Keys go first: the personal data window is at least the longest a key
   * may answer (config), so by then every key of the payment has expired, and its stored answer
   * is deleted before, or with, the data it repeats.
   */
  async sweep(em: SqlEntityManager): Promise<RetentionResult> {
    const { idempotency, clock, logger, settings } = this.deps;
    const keys = await batches(settings.batchSize, () => idempotency.purgeExpired(em, settings.batchSize));
    const now = clock.now();
    const receivedBefore = new Date(now.getTime() - settings.webhookBodyMs);
    const bodies = await batches(settings.batchSize, () => eraseWebhookBodies(em, { receivedBefore, limit: settings.batchSize, erasedAt: now }));
    const calls = await batches(settings.batchSize, () => deleteRecords(em, 'provider_call', receivedBefore, settings.batchSize));
    const checks = await batches(settings.batchSize, () => deleteRecords(em, 'reconciliation_check', receivedBefore, settings.batchSize));
    const changedBefore = new Date(now.getTime() - settings.personalDataMs);
    const personalData: Record<string, number> = {};
    let more = keys.more || bodies.more || calls.more || checks.more;
    for (const eraser of this.erasers) {
      const erased = await batches(settings.batchSize, () => eraser.erase(em, { changedBefore, limit: settings.batchSize, erasedAt: now }));
      personalData[eraser.subject] = erased.count;
      more ||= erased.more;
    }
    const result: RetentionResult = { idempotencyKeys: keys.count, webhookBodies: bodies.count, providerCalls: calls.count, reconciliationChecks: checks.count, personalData, more };
    // Counts only: never an id or a value of what was erased.
    logger.info(
      {
        idempotencyKeysDeleted: result.idempotencyKeys,
        webhookBodiesErased: result.webhookBodies,
        providerCallsDeleted: result.providerCalls,
        reconciliationChecksDeleted: result.reconciliationChecks,
        personalDataErased: personalData,
        more,
      },
      more ? 'retention sweep stopped at its batch limit; the next sweep goes on' : 'retention sweep done',
    );
    this.deps.onResult?.(result);
    return result;
  }
}

/**
 * Deletes up to `limit` rows of a timeline record table (`provider_call`, `reconciliation_check`)
 * created at or before `before`, oldest first, in one statement; returns how many.
 *
 * @param table a fixed table name of this file, never input.
 */
async function deleteRecords(em: SqlEntityManager, table: 'provider_call' | 'reconciliation_check', before: Date, limit: number): Promise<number> {
  const deleted = await em.execute<Array<{ id: string }>>(
    `delete from ${table} where id in (select id from ${table} where created_at <= ? order by created_at limit ? for update skip locked) returning id`,
    [before, limit],
  );
  return deleted.length;
}

async function batches(size: number, run: () => Promise<number>): Promise<{ count: number; more: boolean }> {
  let count = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_SWEEP; batch++) {
    const done = await run();
    count += done;
    if (done < size) return { count, more: false };
  }
  return { count, more: true };
}

/**
 * Registers the sweep with the queue: recurring when enabled here. Disabled here, a sweep this
 * instance takes (one scheduled while retention was on) ends the schedule, and an instance with
 * RETENTION_ENABLED=true starts it again within its interval.
 */
export function registerRetentionJobs(handlers: JobHandlers, jobs: JobQueue, retention: Retention, options: { settings: RetentionSettings; fork: () => SqlEntityManager; logger: Logger }): RetentionSchedule {
  if (options.settings.enabled) {
    handlers.recurring(RETENTION_SWEEP, { everyMs: options.settings.intervalMs, payload: {} }, async (em) => void (await retention.sweep(em)));
  } else {
    handlers.register(RETENTION_SWEEP, async () => {
      options.logger.info('retention is disabled on this instance (RETENTION_ENABLED=false): the sweep ends here and schedules no next one');
    });
  }
  return new RetentionSchedule(jobs, options.fork);
}

/** The retention sweep on demand, as a job of the queue: for tests and admin tooling. */
export class RetentionSchedule {
  constructor(
    private readonly jobs: JobQueue,
    private readonly fork: () => SqlEntityManager,
  ) {}

  /** Enqueues a sweep now and runs due jobs here until no sweep is due or running on any instance. */
  async runOnce(): Promise<void> {
    await this.fork().transactional((tx) => this.jobs.enqueue(tx, RETENTION_SWEEP, {}, { dedupeKey: 'on-demand' }));
    await this.jobs.runUntilIdle([RETENTION_SWEEP]);
  }
}
