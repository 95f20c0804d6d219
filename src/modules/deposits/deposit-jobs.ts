// The deposits module's follow-up job: read a deposit's details (fee, net, decline reason) from the provider once its status changed.

import { JOB_SUCCEEDED, type JobQueue } from '../../kernel/jobs.js';
import type { ProviderName } from '../../providers/provider.js';
import type { DepositService } from './deposit.service.js';

/** Webhooks and the card settle answer carry the status, not the details (spec: Webhook event envelope). */
export const FETCH_DEPOSIT_DETAILS = 'deposit.fetch_details';

export interface FetchDepositDetailsJob {
  depositId: string;
  /** The provider's payment reference (for hosted checkout, not the session id the deposit began with). */
  reference: string;
  /** Where the deposit is held, so the job does not read it before asking the provider (absent in older jobs). */
  provider?: ProviderName;
  merchantAccount?: string;
}

declare module '../../kernel/jobs.js' {
  interface JobKinds {
    [FETCH_DEPOSIT_DETAILS]: FetchDepositDetailsJob;
  }
}

/**
 * Runs `DepositService.fetchDetails`; its provider failures throw, so the job is retried with
 * back-off. When the details change, the job is recorded as succeeded by the statement that
 * writes them, only if that statement wrote them.
 */
export function registerDepositJobs(jobs: JobQueue, deposits: DepositService): void {
  jobs.register(FETCH_DEPOSIT_DETAILS, async (em, { depositId, reference, provider, merchantAccount }, job) => {
    const heldAt = provider && merchantAccount ? { provider, merchantAccount } : undefined;
    const recorded = await deposits.fetchDetails(em, depositId, reference, { ...(heldAt ? { heldAt } : {}), alongside: (changed) => [job.succeededStatement(changed)] });
    return recorded ? JOB_SUCCEEDED : undefined;
  });
}
