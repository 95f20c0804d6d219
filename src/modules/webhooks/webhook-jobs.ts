// The webhook inbox's follow-up job: decide again the deliveries deferred until a deposit's status changed outside the inbox (reconciler, card settle).

import type { JobQueue } from '../../kernel/jobs.js';
import type { WebhookService } from './webhook.service.js';

/**
 * A refund event that overtook its payment is kept `deferred` (refund-webhooks.ts). When the
 * payment settles through the inbox, the inbox releases it in the same transaction; when it
 * settles anywhere else, the code that changed the status enqueues this job in its transaction.
 */
export const RELEASE_DEFERRED_DELIVERIES = 'webhook.release_deferred';

export interface ReleaseDeferredDeliveriesJob {
  depositId: string;
}

declare module '../../kernel/jobs.js' {
  interface JobKinds {
    [RELEASE_DEFERRED_DELIVERIES]: ReleaseDeferredDeliveriesJob;
  }
}

export function registerWebhookJobs(jobs: JobQueue, webhooks: WebhookService): void {
  jobs.register(RELEASE_DEFERRED_DELIVERIES, (em, { depositId }) => em.transactional(async (tx) => void (await webhooks.releaseDeferred(tx, depositId))));
}
