// Waits for the follow-up work a test started (fee and net fetches, deferred releases) to be done,
// as a reader of the job table would see it, and for the events it committed to reach subscribers.

import { expect } from 'vitest';
import type { TestGateway } from './gateway.js';

/** Resolves once no job is pending or running (failed jobs are done too: they wait for an admin). */
export async function jobsSettled(t: TestGateway, timeoutMs = 10_000): Promise<void> {
  await expect
    .poll(
      async () => {
        const rows = await t.gateway.db.fork().execute<Array<{ open: string | number }>>("select count(*) as open from job where status in ('pending', 'running') and run_at <= now()");
        return Number(rows[0]?.open ?? 0);
      },
      { timeout: timeoutMs, interval: 50 },
    )
    .toBe(0);
  await eventsPublished(t, timeoutMs);
}

/**
 * Resolves once this instance's event bus has published every event committed so far, or has
 * stopped following the log because nobody subscribes here (it then publishes nothing).
 */
export async function eventsPublished(t: TestGateway, timeoutMs = 10_000): Promise<void> {
  const rows = await t.gateway.db.fork().execute<Array<{ head: string | null }>>('select max(position)::text as head from payment_event');
  const head = BigInt(rows[0]?.head ?? 0);
  const bus = t.gateway.eventBus;
  await expect.poll(() => !bus.following || (bus.publishedThrough ?? -1n) >= head, { timeout: timeoutMs, interval: 20 }).toBe(true);
}
