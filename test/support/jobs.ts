// Waits for the follow-up work a test started (fee and net fetches, deferred releases) to be done,
// as a reader of the job table would see it.

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
}
