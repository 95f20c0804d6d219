// The handler of the deposits module's follow-up job (declared with the transition that schedules
// it): read a deposit's details (fee, net, decline reason) from the provider once its status changed.

import { JOB_SUCCEEDED, type JobHandlers } from '../../kernel/jobs.js';
import type { DepositService } from './deposit.service.js';
import { FETCH_DEPOSIT_DETAILS } from './deposit-transitions.js';

/**
 * Runs `DepositService.fetchDetails`; its provider failures throw, so the job is retried with
 * back-off. When the details change, the job is recorded as succeeded by the statement that
 * writes them, only if that statement wrote them.
 */
export function registerDepositJobs(handlers: JobHandlers, deposits: DepositService): void {
  handlers.register(FETCH_DEPOSIT_DETAILS, async (em, { depositId, reference, provider, merchantAccount }, job) => {
    const heldAt = provider && merchantAccount ? { provider, merchantAccount } : undefined;
    const recorded = await deposits.fetchDetails(em, depositId, reference, { ...(heldAt ? { heldAt } : {}), completes: job });
    return recorded ? JOB_SUCCEEDED : undefined;
  });
}
