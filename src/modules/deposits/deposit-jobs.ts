// The deposits module's follow-up job: read a deposit's details (fee, net, decline reason) from the provider once its status changed.

import type { JobQueue } from '../../kernel/jobs.js';
import type { DepositService } from './deposit.service.js';

/** Webhooks and the card settle answer carry the status, not the details (spec: Webhook event envelope). */
export const FETCH_DEPOSIT_DETAILS = 'deposit.fetch_details';

export interface FetchDepositDetailsJob {
  depositId: string;
  /** The provider's payment reference (for hosted checkout, not the session id the deposit began with). */
  reference: string;
}

declare module '../../kernel/jobs.js' {
  interface JobKinds {
    [FETCH_DEPOSIT_DETAILS]: FetchDepositDetailsJob;
  }
}

/** Runs `DepositService.fetchDetails`; its provider failures throw, so the job is retried with back-off. */
export function registerDepositJobs(jobs: JobQueue, deposits: DepositService): void {
  jobs.register(FETCH_DEPOSIT_DETAILS, (em, { depositId, reference }) => deposits.fetchDetails(em, depositId, reference));
}
