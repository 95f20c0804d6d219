// What travels from a committed change to this instance's live subscribers: the event row's
// identity, the facts the visibility policy reads, and the subject's snapshot as the module that
// owns the subject wrote it (opaque here), so a subscriber needs no query to answer.

import { maySee, type SubjectType, type Viewer } from '../visibility.js';

/** Wake-up channel: a committed append tells every instance's event bus to read the log (no payload). */
export const PAYMENT_EVENTS_CHANNEL = 'payment_events';

/** Local pub/sub topic on which each instance republishes the notifications it receives. */
export const PAYMENT_EVENTS_TOPIC = 'payment-events';

/** One appended event, as each instance's event bus publishes it to its own subscribers (read from the log). */
export interface EventNotification {
  /** The event's position in the global log, as a decimal string (bigint). */
  position: string;
  id: string;
  /** e.g. `deposit.status_changed`. */
  type: string;
  /** The kind of subject, as its module registered it (`deposit`, `refund`, ...). */
  subjectType: string;
  subjectId: string;
  /** Owner of the subject (a refund: its deposit's creator), as the visibility policy reads it; null for none. */
  clientId: string | null;
  /** Merchant account of the subject (a refund: its deposit's), as the visibility policy reads it. */
  merchantAccount: string;
  /** For admins only (an anomaly the gateway raised about the subject); absent: false. */
  adminOnly?: boolean;
  fromStatus: string | null;
  toStatus: string | null;
  createdAt: string;
  /** The subject after the change, in the JSON shape its module gave the log; absent when the row has none. */
  snapshot?: Record<string, unknown>;
}

/** Which notifications a `<subject>Updated` subscription receives. */
export type SubjectUpdateFilter = (event: EventNotification) => boolean;

/** The filters of subscriptions to every subject of a kind, by viewer: see {@link subjectUpdates}. */
const everySubjectFilters = new WeakMap<Viewer, Partial<Record<SubjectType, SubjectUpdateFilter>>>();

/**
 * The filter of a `<subject>Updated` subscription: the events of `subjectType` that carry a
 * snapshot, of the one subject `id` when given, that `viewer` may see. Without an id every
 * subscription of one viewer (the key cache's shared copy of a client) is given the same
 * function: idle subscriptions are many, and a closure with its context is some 100 bytes each.
 */
export function subjectUpdates(viewer: Viewer, subjectType: SubjectType, id?: string): SubjectUpdateFilter {
  if (id) return updatesOf(viewer, subjectType, id);
  let filters = everySubjectFilters.get(viewer);
  if (!filters) {
    filters = {};
    everySubjectFilters.set(viewer, filters);
  }
  return (filters[subjectType] ??= updatesOf(viewer, subjectType));
}

function updatesOf(viewer: Viewer, subjectType: SubjectType, id?: string): SubjectUpdateFilter {
  return (event) => event.subjectType === subjectType && Boolean(event.snapshot) && (id === undefined || event.subjectId === id) && maySee(viewer, subjectType, event);
}
