// Waits for the follow-up work a test started (fee and net fetches, deferred releases) to be done,
// as a reader of the job table would see it, and for the events it committed to reach subscribers.

import { expect } from 'vitest';
import type { TestGateway } from './gateway.js';

/** Marks the statements these waits send, so that a count of a request's statements leaves them out. */
export const TEST_WAIT_MARK = '/* test:wait */';

export interface JobsSettledOptions {
  timeoutMs?: number;
  /** Run the due jobs here too, so that an instance whose worker is stopped does not hold the wait up. */
  runDue?: boolean;
}

/** Resolves once no job is pending or running (failed jobs are done too: they wait for an admin). */
export async function jobsSettled(t: TestGateway, { timeoutMs = 10_000, runDue = false }: JobsSettledOptions = {}): Promise<void> {
  const open = async () => {
    const rows = await t.gateway.db
      .fork()
      .execute<Array<{ open: string | number }>>(`${TEST_WAIT_MARK} select count(*) as open from job where status in ('pending', 'running') and run_at <= now()`);
    return Number(rows[0]?.open ?? 0);
  };
  await expect
    .poll(
      async () => {
        if (runDue && (await open()) > 0) await t.gateway.services.jobs.runDue();
        return open();
      },
      { timeout: timeoutMs, interval: runDue ? 20 : 50 },
    )
    .toBe(0);
  await eventsPublished(t, timeoutMs);
}

/**
 * Resolves once this instance's event bus has published every event committed so far, or has
 * stopped following the log because nobody subscribes here (it then publishes nothing).
 */
export async function eventsPublished(t: TestGateway, timeoutMs = 10_000): Promise<void> {
  const rows = await t.gateway.db.fork().execute<Array<{ head: string | null }>>(`${TEST_WAIT_MARK} select max(position)::text as head from payment_event`);
  const head = BigInt(rows[0]?.head ?? 0);
  const bus = t.gateway.eventBus;
  await expect.poll(() => !bus.following || (bus.publishedThrough ?? -1n) >= head, { timeout: timeoutMs, interval: 20 }).toBe(true);
}
