// Deliveries the inbox keeps `deferred` until their subject's status changes (a refund event that
// overtook its payment): released by a job that the status change schedules as a reaction.

import type { JobHandlers } from '../jobs.js';
import type { Reaction } from '../transitions.js';
import type { WebhookInbox } from './inbox.js';

export const RELEASE_DEFERRED_DELIVERIES = 'webhook.release_deferred';

export interface ReleaseDeferredDeliveriesJob {
  subjectType: string;
  subjectId: string;
}

declare module '../jobs.js' {
  interface JobKinds {
    [RELEASE_DEFERRED_DELIVERIES]: ReleaseDeferredDeliveriesJob;
  }
}

/**
 * The reaction of a status change to deliveries deferred until it: a release job, enqueued by the
 * change's own statement only when such deliveries exist (read after the subject's row lock was
 * taken, so none deferred before it is missed).
 */
export function deferredDeliveriesRelease(subjectType: string, subjectId: string): Reaction<typeof RELEASE_DEFERRED_DELIVERIES> {
  return {
    kind: RELEASE_DEFERRED_DELIVERIES,
    payload: { subjectType, subjectId },
    dedupeKey: `${subjectType}:${subjectId}`,
    onlyIf: [{ exists: { table: 'webhook_delivery', where: { subject_type: subjectType, subject_id: subjectId, outcome: 'deferred' } } }],
  };
}

export function registerInboxJobs(handlers: JobHandlers, inbox: WebhookInbox): void {
  handlers.register(RELEASE_DEFERRED_DELIVERIES, (em, { subjectType, subjectId }) => em.transactional(async (tx) => void (await inbox.releaseDeferred(tx, subjectType, subjectId))));
}
