// The stream behind `depositUpdated`, `refundUpdated` and `payoutUpdated`: live from now, or, with
// `after`, first the changes the caller missed since that event cursor (src/kernel/events/resume.ts).

import { PAYMENT_EVENTS_TOPIC, subjectUpdates, type EventNotification } from '../kernel/events/event-notification.js';
import { ResumingSubscription } from '../kernel/events/resume.js';
import type { SubjectType } from '../kernel/visibility.js';
import type { RequestContext } from './context.js';
import { cursorExpired, cursorInvalid } from './errors.js';
import { isEventPosition, readCursor } from './relay.js';

/** Options of the `after` argument of every `<subject>Updated` subscription. */
export const RESUME_AFTER_ARGUMENT = {
  nullable: true,
  description:
    'Resume after this event cursor (extensions.cursor of a message of this subscription, or a cursor of events(after:)): the changes since then are sent first, in order, then live ones, none missed or repeated. Refused with CURSOR_EXPIRED past the replay window (reload with a query, subscribe without after) and CURSOR_INVALID for anything that is not such a cursor.',
} as const;

/** The cursor's event position, refused with CURSOR_INVALID before anything is subscribed when it is not one. */
export function resumePosition(ctx: RequestContext, after: string | null | undefined): string | undefined {
  if (after == null) return undefined;
  const position = readCursor(after, isEventPosition);
  if (position === undefined) refuseResume(ctx, 'invalid');
  return position;
}

/** Refuses a resume, counted (`gateway_subscription_resumes_total`). */
function refuseResume(ctx: RequestContext, outcome: 'invalid' | 'expired'): never {
  const { events } = ctx.services;
  events.noteResume(outcome);
  throw outcome === 'invalid' ? cursorInvalid() : cursorExpired(events.resumeWindowMs / 3_600_000);
}

/**
 * The changes of `subjectType` (of the one subject `id`) the caller may see, as they commit; with
 * `after` (resumePosition's), the ones since then first. The cursor must name an event of the log
 * within the replay window, checked before anything is sent.
 */
export async function subjectUpdatesStream(ctx: RequestContext, subjectType: SubjectType, id: string | undefined, after: string | undefined): Promise<AsyncIterable<EventNotification>> {
  const client = ctx.client!;
  const { pubsub, events } = ctx.services;
  if (after === undefined) return pubsub.subscribe<EventNotification>(PAYMENT_EVENTS_TOPIC, subjectUpdates(client, subjectType, id));
  const point = await events.resumePoint(ctx.em, after);
  if (point !== 'ok') refuseResume(ctx, point === 'unknown' ? 'invalid' : 'expired');
  events.noteResume('replayed');
  // Live first (it buffers while the replay runs), so nothing committed meanwhile is missed.
  const live = pubsub.subscribe<EventNotification>(PAYMENT_EVENTS_TOPIC, subjectUpdates(client, subjectType, id));
  const em = ctx.em;
  return new ResumingSubscription(live, { pubsub, events, fork: () => em.fork(), after, viewer: client, subjectType, subjectId: id });
}
