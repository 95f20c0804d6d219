// Durable follow-up work: job rows written in the transaction of the change that needs them, claimed by every instance's worker with SKIP LOCKED and a lease, retried with exponential back-off; and recurring kinds, one occurrence at a time across all instances.
// The face the rest of the gateway imports the queue from; its parts live in src/kernel/jobs/: the
// vocabulary (job-kinds.ts), the handler registry (job-handlers.ts), the statements and arithmetic
// (job-statements.ts), the enqueues (job-queue.ts), the worker loop (job-worker.ts) and the
// recording of each run's outcome (job-outcomes.ts).

export {
  DEFAULT_JOB_SETTINGS,
  JOB_SUCCEEDED,
  JOBS_CHANNEL,
  RECURRING_KEY,
  type EnqueueOptions,
  type JobDatabase,
  type JobHandler,
  type JobInfo,
  type JobKind,
  type JobKinds,
  type JobQueueSettings,
  type JobResultEvent,
  type JobSubject,
  type ManyJob,
} from './jobs/job-kinds.js';
export { JobHandlers } from './jobs/job-handlers.js';
export { afterFailedRun, errorText, retryDelayMs, type AfterFailedRun } from './jobs/job-statements.js';
export { JobQueue, type JobQueueOptions } from './jobs/job-queue.js';
