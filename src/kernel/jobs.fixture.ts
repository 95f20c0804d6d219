// A job queue on a fake database that records every statement the worker sends and answers each
// from a script, and the claimed rows it hands out: the fixture of the queue's unit spec
// (jobs.spec.ts), apart from the behaviours the spec describes.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { createLogger } from '../lib/logger.js';
import type { SqlPart } from './events/event-log.js';
import { RELEASE_DEFERRED_DELIVERIES } from './inbox/deferred.js';
import { JobHandlers, JobQueue, type JobDatabase, type JobQueueSettings, type JobResultEvent } from './jobs.js';

type Respond = (sql: string, params: unknown[]) => unknown[] | Error;

/** The worker's statements, told apart by their first words. */
export const statement = {
  claim: "update job set status = 'running'",
  sweep: "update job set status = 'failed', finished_at",
  prune: 'delete from job',
  succeed: "update job set status = 'succeeded'",
  fail: "update job set status = 'failed', last_error",
  retry: "update job set status = 'pending'",
  supersede: "update job set status = 'superseded'",
  insert: 'insert into job',
  count: 'select count(*)',
} as const;

/** A database whose every fork records its statements; `respond` answers them (an Error rejects). */
function fakeDb(respond: Respond) {
  const executed: SqlPart[] = [];
  const em = {
    config: {},
    execute: (sql: string, params: unknown[] = []) => {
      executed.push({ sql: sql.trim(), params });
      const answer = respond(sql.trim(), params);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
  const db: JobDatabase = {
    fork: () => em as unknown as SqlEntityManager,
    listen: () => Promise.resolve(() => Promise.resolve()),
  };
  const of = (start: string) => executed.filter((part) => part.sql.startsWith(start));
  return { db, executed, of };
}

/** A claimed row as the fake database returns it. */
export interface Claimed {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
}

/**
 * A queue on a fake database that claims `claimed` once, answers the sweep with `abandoned`, and
 * every other statement with what `answers` says (by statement), else one matched row.
 */
export function setup(options: { claimed?: Claimed[]; abandoned?: unknown[]; answers?: Partial<Record<keyof typeof statement, unknown[] | Error>>; settings?: Partial<JobQueueSettings> } = {}) {
  const logs: Array<Record<string, unknown>> = [];
  const logger = createLogger({ level: 'debug', destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) } });
  let claims = 0;
  const fake = fakeDb((sql) => {
    const name = (Object.keys(statement) as Array<keyof typeof statement>).find((key) => sql.startsWith(statement[key]));
    if (name === 'claim') return claims++ === 0 ? (options.claimed ?? []) : [];
    if (name === 'sweep') return options.abandoned ?? [];
    return (name && options.answers?.[name]) ?? [{ id: 'job_1' }];
  });
  const results: JobResultEvent[] = [];
  const handlers = new JobHandlers();
  const queue = new JobQueue({
    logger,
    db: fake.db,
    handlers,
    settings: { leaseMs: 30_000, concurrency: 2, maxAttempts: 5, backoffBaseMs: 1_000, backoffMaxMs: 60_000, retentionMs: 86_400_000, ...options.settings },
    onResult: (event) => results.push(event),
  });
  return { queue, handlers, results, logs, ...fake };
}

/** A claimed row of the release of deferred deliveries, at its `attempts`-th run. */
export const row = (attempts: number, more: Partial<Claimed> = {}): Claimed => ({ id: 'job_1', kind: RELEASE_DEFERRED_DELIVERIES, payload: { subjectType: 'deposit', subjectId: 'dep_1' }, attempts, max_attempts: 5, ...more });
