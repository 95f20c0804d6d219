// How far back a subscription may resume, what became of its cursor, and the page a resuming
// subscription replays: the vocabulary of the log's resume reads (EventLog.resumePoint,
// EventLog.replayPage) shared with the resume path (resume.ts) and the metrics.

import type { Viewer } from '../visibility.js';
import type { PaymentSubjectType } from './payment-event.entity.js';
import type { EventNotification } from './event-notification.js';

/**
 * How far back a subscription may resume (`after:` on `depositUpdated`, ...) by default: a cursor
 * whose event is older than this on the gateway's clock is refused as expired, and the client
 * reloads what it shows with a query. The log itself keeps every event (`events(after:)` reads any
 * cursor); the window bounds what one reconnecting socket may ask to be replayed. A gateway sets
 * its own with `SUBSCRIPTION_RESUME_WINDOW_MS`.
 */
export const RESUME_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Whether a subscription may resume after a position: `unknown` when no event of the log is there. */
export type ResumePoint = 'ok' | 'unknown' | 'expired';

/** What became of a subscription's `after`: replayed from, or refused as past the window or as no cursor of the log. */
export type ResumeOutcome = 'replayed' | 'expired' | 'invalid';

/** Hears of every resumed subscription (the metrics): its cursor's fate, and the events replayed to it. */
export interface ResumeObserver {
  resumed(outcome: ResumeOutcome): void;
  replayed(events: number): void;
}

/** What a resuming subscription replays: the events of one kind of subject (of one subject, with `subjectId`) the viewer may see. */
export interface ReplayPageInput {
  after: string;
  viewer: Viewer;
  subjectType: PaymentSubjectType;
  subjectId?: string | undefined;
  limit: number;
}

export interface ReplayPage {
  /** The page's events, oldest first, as notifications (the live path's shape). */
  events: EventNotification[];
  /**
   * Every matching event at or below this position is in this page or an earlier one: the last
   * event's position when the page is full, else the log's final position when it was read.
   */
  through: string;
  full: boolean;
}
