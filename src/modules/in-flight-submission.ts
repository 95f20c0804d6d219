// Waiting for a concurrent request's provider call: a repeated idempotency key finds the row the
// first request committed before calling the provider, and waits for that call's answer.

import type { SqlEntityManager } from '@mikro-orm/postgresql';

/** How long a concurrent duplicate waits for the first request's provider call. */
const IN_FLIGHT_WAIT_MS = 30_000;

/** A deposit, refund or payout: submitted once it has a provider reference or a failure. */
interface Submittable {
  status: string;
  providerReference?: string | null;
  submissionError?: string | null;
}

/**
 * Re-reads `record` with growing pauses while it is still in its initial status with neither a
 * provider reference nor a submission error, at most 30 s; returns the latest state.
 */
export async function awaitSubmission<T extends object & Submittable>(em: SqlEntityManager, record: T, initialStatus: string): Promise<T> {
  let current = record;
  const started = Date.now();
  for (let delay = 20; current.status === initialStatus && !current.providerReference && !current.submissionError; delay = Math.min(delay * 2, 250)) {
    if (Date.now() - started > IN_FLIGHT_WAIT_MS) break;
    await new Promise((resolve) => setTimeout(resolve, delay));
    current = await em.refreshOrFail(current);
  }
  return current;
}
