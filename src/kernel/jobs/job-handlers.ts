// The registry of job handlers: which kind runs what, and which kinds recur. Its own file because
// the composition fills it after the queue is built (see the class's comment).

import type { JobHandler, JobKind, JobKinds } from './job-kinds.js';

/** A kind's handler as registered, with its schedule when the kind recurs (`JobHandlers.recurring`). */
export interface RegisteredHandler {
  run: JobHandler<JobKind>;
  recurs?: { everyMs: number; payload: unknown };
}

/**
 * The handler of each job kind, and which kinds recur; every instance registers the same ones.
 * Apart from the queue because of the one cycle of the gateway's composition: the parts whose
 * jobs the queue runs (deposits, the inbox, the reconciler, retention, notifications) enqueue
 * through the queue, so they are built after it and their handlers cannot be arguments of its
 * constructor. The queue is given this registry when it is built; the composition (src/services.ts)
 * fills it once those parts exist, before the worker starts.
 */
export class JobHandlers {
  private readonly byKind = new Map<string, RegisteredHandler>();

  /** The handler of one kind. */
  register<K extends JobKind>(kind: K, handler: JobHandler<K>): void {
    this.add(kind, { run: handler as unknown as JobHandler<JobKind> });
  }

  /**
   * The handler of a kind that runs once every `everyMs`, one occurrence at a time across all
   * instances: occurrences carry the dedupe key `RECURRING_KEY`, so at most one waits.
   *
   * - Each occurrence, as it starts, enqueues the next one `everyMs` later (its own statement),
   *   then runs `handler`. An occurrence that fails is not retried: the next one, already waiting,
   *   supersedes it (`superseded`), so a failure never ends the schedule.
   * - Each instance's worker enqueues an occurrence when none waits, `everyMs` from then: at its
   *   first pass (the schedule starts with the first instance that runs the kind) and again at
   *   most once per `everyMs`, so a schedule that lost its next occurrence (an occurrence taken by
   *   an instance that ends the schedule, a database failure as it enqueued its next one) resumes.
   *   Two instances doing so at once still make one occurrence (the dedupe key).
   *
   * An instance that must not run the kind registers it with `register` and a handler that does
   * nothing: an occurrence it takes then ends there, until a worker of an instance that runs the
   * kind enqueues the next one.
   *
   * @example
   * handlers.recurring('reconcile.sweep', { everyMs: 60_000, payload: {} }, (em) => reconciler.sweep(em));
   */
  recurring<K extends JobKind>(kind: K, schedule: { everyMs: number; payload: JobKinds[K] }, handler: JobHandler<K>): void {
    this.add(kind, { run: handler as unknown as JobHandler<JobKind>, recurs: { everyMs: schedule.everyMs, payload: schedule.payload } });
  }

  /** The handler of `kind`, if this instance registered one. */
  get(kind: string): RegisteredHandler | undefined {
    return this.byKind.get(kind);
  }

  /** The recurring kinds, in registration order. */
  recurringKinds(): Array<{ kind: string; everyMs: number; payload: unknown }> {
    return [...this.byKind].flatMap(([kind, { recurs }]) => (recurs ? [{ kind, ...recurs }] : []));
  }

  private add(kind: string, handler: RegisteredHandler): void {
    if (this.byKind.has(kind)) throw new Error(`A handler for job kind ${kind} is already registered`);
    this.byKind.set(kind, handler);
  }
}
