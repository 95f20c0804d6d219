// A subscription given a cursor: it replays from the durable log what its subscriber missed, then
// goes live, with no gap and no repeat between the two, whichever instance committed what.
//
// The scheme: the live subscription is made first and buffers (a TopicSubscription with no
// consumer keeps what it is offered). Once it has joined the event bus's stream, everything the
// bus publishes from then on reaches it; what it never receives is at or below the bus's
// `withheldThrough` (published before it joined, or committed before the bus began to follow).
// The replay reads the log's final part from the cursor, page by page, until it has read at least
// up to that position; then the live stream takes over, its events at or below the last position
// the replay covered dropped. Every event is thus sent once: at or below that position by the
// replay (it read all of them: final means nothing more can commit there), above it live.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { backoffDelayMs, type Backoff } from '../../lib/backoff.js';
import type { LocalPubSub, TopicSubscription } from '../../lib/pubsub.js';
import type { SubjectType, Viewer } from '../visibility.js';
import type { EventLog } from './event-log.js';
import { PAYMENT_EVENTS_TOPIC, type EventNotification } from './event-notification.js';

/** Events read per page of a replay. */
const REPLAY_PAGE = 100;
/** Pauses while the events the live stream will never carry are not final yet: 5 ms, doubling, 50 ms at most. */
const SETTLE_BACKOFF: Backoff = { baseMs: 5, maxMs: 50 };

export interface ResumeOptions {
  pubsub: LocalPubSub;
  events: EventLog;
  /** A fresh EntityManager per page read (nothing accumulates over a long replay). */
  fork: () => SqlEntityManager;
  /** The cursor's position: events strictly after it are replayed. */
  after: string;
  viewer: Viewer;
  subjectType: SubjectType;
  subjectId?: string | undefined;
}

/**
 * A live subscription to the payment events of one kind of subject, preceded by the replay of
 * those after a cursor. The fan-out (src/server/fan-out.ts) runs `replay()` and then attaches to
 * `live`, skipping what `through` covers; anything else may iterate it as a plain async iterator.
 */
export class ResumingSubscription implements AsyncIterableIterator<EventNotification> {
  /** The position through which the replay covered the log, once it has ended; undefined before. */
  through: bigint | undefined;
  private iterator: AsyncIterator<EventNotification> | undefined;
  /** What the replay reads with; let go once it has ended (the subscription may stay open for days). */
  private options: ResumeOptions | undefined;

  constructor(
    /** The live stream, already subscribed and buffering; its filter is the subscription's, applied to the replay too. */
    readonly live: TopicSubscription<EventNotification>,
    options: ResumeOptions,
  ) {
    this.options = options;
  }

  /**
   * The missed events, a page at a time, oldest first, filtered as the live stream is. Ends once
   * it has covered the log up to where the live stream begins (then `through` is set), or at once
   * if the live subscription ended before joining.
   */
  async *replay(): AsyncGenerator<EventNotification[], void, undefined> {
    const options = this.options;
    if (!options) throw new Error('a subscription replays once');
    try {
      yield* this.pages(options);
    } finally {
      this.options = undefined;
    }
  }

  private async *pages(options: ResumeOptions): AsyncGenerator<EventNotification[], void, undefined> {
    const { pubsub, events } = options;
    if (!(await pubsub.joined(this.live))) return;
    // Read after joining: everything above it reaches `live` (see LocalPubSub's TopicFeed).
    const withheld = pubsub.withheldThrough(PAYMENT_EVENTS_TOPIC) ?? 0n;
    let after = BigInt(options.after);
    for (let waits = 0; ; ) {
      const page = await events.replayPage(options.fork(), {
        after: after.toString(),
        viewer: options.viewer,
        subjectType: options.subjectType,
        subjectId: options.subjectId,
        limit: REPLAY_PAGE,
      });
      const through = BigInt(page.through);
      if (through > after) after = through;
      const mine = page.events.filter(this.live.filter);
      if (mine.length > 0) {
        events.noteReplayed(mine.length);
        yield mine;
      }
      if (page.full) {
        waits = 0;
        continue;
      }
      if (after >= withheld || this.live.ended) break;
      // Events the live stream will not carry are committed but not final yet: wait for them.
      await new Promise((resolve) => setTimeout(resolve, backoffDelayMs(++waits, SETTLE_BACKOFF)));
    }
    this.through = after;
  }

  next(): Promise<IteratorResult<EventNotification>> {
    this.iterator ??= this.all();
    return this.iterator.next();
  }

  async return(): Promise<IteratorResult<EventNotification>> {
    await this.iterator?.return?.();
    return this.live.return();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The replay, then the live events above what it covered. */
  private async *all(): AsyncGenerator<EventNotification> {
    for await (const page of this.replay()) yield* page;
    const through = this.through;
    if (through === undefined) return;
    for await (const event of this.live) if (BigInt(event.position) > through) yield event;
  }
}
