// Feeds this instance's live subscribers: reads the committed, final part of the payment event log
// in position order and republishes each event on the local pub/sub, when woken by a commit (of
// this instance, in-process; of another, by its relay's NOTIFY) and on a slow safety poll, and
// only while this instance has subscribers: without them it reads nothing. An event this instance
// commits right after the last one published goes out at once, without the read.

import type { Database } from '../../db/database.js';
import { backoffDelayMs, type Backoff } from '../../lib/backoff.js';
import type { Logger } from '../../lib/logger.js';
import type { LocalPubSub, TopicFeed } from '../../lib/pubsub.js';
import { PaymentEvent } from './payment-event.entity.js';
import { PAYMENT_EVENTS_CHANNEL, PAYMENT_EVENTS_TOPIC, type EventNotification } from './event-notification.js';
import { EVENT_COLUMNS, FINAL_POSITION_SQL, MARK_SQL, toEventNotification, type EventLog } from './event-log.js';

/** Marks the bus's own reads, which run on wake-ups and timers while anyone subscribes, whatever a request does (test/support/statements.ts leaves them out). */
export const EVENT_BUS_SQL_MARK = '/* event-bus */';
/** Events read per query. */
const READ_PAGE = 500;
/** Safety poll: how often the log is read with no wake-up at all (a lost NOTIFY, a crash after a commit elsewhere). */
const SAFETY_POLL_MS = 2_000;
/** The pauses before reading again while committed events wait for older transactions to end: 5 ms, doubling, 50 ms at most. */
const SETTLE_BACKOFF: Backoff = { baseMs: 5, maxMs: 50 };

/** One read in this many also deletes the marks the final position has made useless. */
const PRUNE_EVERY_READS = 50;
const PRUNE_SQL = `delete from payment_event_horizon where position < ${FINAL_POSITION_SQL}`;
/** The mark a read writes first, pruning now and then. */
const MARK = `${EVENT_BUS_SQL_MARK} ${MARK_SQL}`;
const MARK_AND_PRUNE = `${EVENT_BUS_SQL_MARK} with pruned as (${PRUNE_SQL}) ${MARK_SQL}`;

interface LogRow {
  final_position: string | null;
  head: string | null;
  position: string | null;
}

/**
 * One per gateway instance. Every committed event reaches the subscribers of every instance once,
 * in position order (DESIGN.md "Durable before acknowledged": only committed events are read).
 *
 * The log is the only source: a wake-up carries nothing, it only says "read now"; the one shortcut
 * is an event this instance committed itself, as its own statement wrote it (see `committed`). Each read returns
 * the events after the last position published, up to the log's final position (FINAL_POSITION_SQL:
 * below it nothing can commit any more), so a position published is never followed by a lower one.
 * Events committed but not final yet (an older transaction is still running) are read again shortly,
 * with back-off; wake-ups lost while the LISTEN connection was down are made up by reading on
 * reconnect, and anything else by the safety poll.
 *
 * With no subscription on this instance, wake-ups and polls read nothing and the cursor falls
 * behind: the bus no longer follows the log. A subscription made then waits (LocalPubSub's
 * TopicFeed): the bus first moves its cursor up to the newest final event as a read issued after
 * the subscription was made sees it, and only then lets it join. Events at or below the cursor
 * committed before that read, so before the subscription joined: none of them is owed to it, nor
 * are the events above it that read saw committed (they are skipped when read). Every later commit
 * reaches it.
 * A subscription made while the bus follows joins at once: the cursor is then no older than the
 * last wake-up, and everything above it is still to be read.
 */
export class EventBus implements TopicFeed {
  private unlisten: (() => Promise<void>) | undefined;
  private starting: Promise<void> | undefined;
  private stopped = false;
  /** The newest position published, or the log's final position when the bus began to follow: reads start after it. */
  private last: bigint | undefined;
  /** Every wake-up since the cursor was set has been (or is being) read: a subscription can join at once. */
  private isFollowing = false;
  /** Events above the cursor that committed before the bus began to follow: read, not published. */
  private early = new Set<bigint>();
  /** The read now running, if any; reads never overlap. */
  private reading: Promise<void> | undefined;
  /** A wake-up arrived during a read: read again right after it. */
  private again = false;
  /** The last read left committed events that were not final yet: it reads again shortly, with back-off. */
  private settling = false;
  private timer: NodeJS.Timeout | undefined;
  /** Reads in a row that left events not final yet: the back-off's attempt. */
  private settleReads = 0;
  private reads = 0;
  /** A reconnect happened: log the catch-up once the next read is done. */
  private reconnected = false;
  /** Every event of the commit being announced was published by `committed`: its in-process wake-up reads nothing. */
  private ownCommitPublished = false;

  constructor(
    private readonly db: Database,
    private readonly events: EventLog,
    private readonly pubsub: LocalPubSub,
    private readonly logger: Logger,
    /** Told of each catch-up after a reconnect, with how many events it published (the gateway counts them). */
    private readonly onCaughtUp: (published: number) => void = () => undefined,
  ) {}

  /** The newest position published so far (or the final position when the bus began to follow), or undefined before it ever followed. */
  get publishedThrough(): bigint | undefined {
    return this.last;
  }

  /**
   * The highest position a subscription that has joined by now is never handed: the newest
   * published, or above it the newest event noted early (committed before the bus began to follow:
   * read, never published). Every event above it reaches every subscription joined by now. A
   * subscription resuming from a cursor replays the log up to here at least, then goes live
   * (src/kernel/events/resume.ts). Measured later it is only higher: noted events leave the set
   * once read, at or below the newest published.
   */
  get withheldThrough(): bigint | undefined {
    let highest = this.last;
    for (const position of this.early) if (highest === undefined || position > highest) highest = position;
    return highest;
  }

  /** Whether the bus reads every wake-up (see the class comment); false while this instance has no subscription. */
  get following(): boolean {
    return this.isFollowing;
  }

  /**
   * No read of the log is running, and none is due before the next wake-up or the safety poll
   * (no committed events wait to become final): what a test waits for before it holds the log.
   */
  get idle(): boolean {
    return this.reading === undefined && !this.settling;
  }

  /** A subscription waits for the bus to follow: read the head, then let it join. */
  wanted(): void {
    this.wake();
  }

  start(): Promise<void> {
    this.starting ??= (async () => {
      // This instance's own commits, published without a read when their order allows (see committed).
      this.events.onCommitted((position, event) => this.committed(position, event));
      // Each commit that appended events marks the log right after it (see FINAL_POSITION_SQL), so
      // its events are final as soon as the transactions running alongside have ended. Paging
      // (`events(after:)`) and the other instances rely on the marks: they are written whether or
      // not anyone subscribes here.
      this.db.afterCommitSql(PAYMENT_EVENTS_CHANNEL, MARK_SQL);
      this.unlisten = await this.db.listen(PAYMENT_EVENTS_CHANNEL, () => this.wake(), {
        onReconnect: () => {
          this.reconnected = true;
          this.wake();
        },
      });
      // Nobody subscribes yet: the first subscription makes the bus follow (and read the head).
      this.pubsub.feed(PAYMENT_EVENTS_TOPIC, this);
    })();
    return this.starting;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.starting?.catch(() => undefined);
    await this.unlisten?.();
    this.unlisten = undefined;
    await this.reading;
  }

  /**
   * An event this process has just committed (EventLog.onCommitted), before the commit's wake-up:
   * published at once, without a read of the log, when its order is already known. That is when
   * the bus follows the log with no read in flight and nothing noted early, and the event's
   * position comes right after the last one published: every position below it is published or
   * can no longer commit, so it is final the moment it commits, and a read would return it next.
   * Anything else waits for the wake-up's read, as any other instance's event does.
   */
  committed(position: string, event: () => EventNotification): void {
    this.ownCommitPublished = false;
    if (this.stopped || this.reading || !this.isFollowing || this.early.size > 0 || this.last === undefined) return;
    if (BigInt(position) !== this.last + 1n || !this.pubsub.hasSubscribers(PAYMENT_EVENTS_TOPIC)) return;
    this.last += 1n;
    this.publish(event());
    // The commit's wake-up follows in the same synchronous call (Database's relay, after its
    // callbacks): the mark lasts until then and no longer.
    this.ownCommitPublished = true;
    queueMicrotask(() => (this.ownCommitPublished = false));
  }

  /** Reads the log now (or right after the read in progress). Cheap to call often: wake-ups coalesce. */
  wake(): void {
    if (this.stopped) return;
    if (this.ownCommitPublished) {
      // The wake-up of a commit whose every event `committed` has just published: nothing to read
      // for it (its NOTIFY, heard back here later, reads what else may have committed meanwhile).
      this.ownCommitPublished = false;
      return;
    }
    if (this.reading) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    // The read due shortly, if any, is this one (or none: nobody to publish to).
    this.settling = false;
    if (!this.pubsub.hasSubscribers(PAYMENT_EVENTS_TOPIC)) {
      // Nobody to publish to: this wake-up is not read, so the cursor may now be behind.
      this.isFollowing = false;
      this.reconnected = false;
      return;
    }
    this.reading = this.readLoop().finally(() => {
      this.reading = undefined;
    });
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), ms);
    this.timer.unref();
  }

  /**
   * Moves the cursor up to the newest event that is final now (what was missed while nobody
   * subscribed is owed to nobody), notes the events above it already committed (not final yet,
   * they are read later but published to none of the subscriptions about to join), then lets the
   * waiting subscriptions join: whatever commits from here on is above the cursor and not noted.
   * The cursor is an event's position, never a mark's: a committed event's position is durable,
   * where a mark (the relay commits it asynchronously) may name positions a database crash hands
   * out again.
   */
  private async follow(): Promise<void> {
    const [row] = await this.db.fork().execute<Array<{ head: string; early: string | null }>>(
      `${EVENT_BUS_SQL_MARK} with head as (
         select greatest(coalesce(max(position), 0), ?::bigint) as position from payment_event where position <= ${FINAL_POSITION_SQL}
       )
       select head.position::text as head, (select string_agg(e.position::text, ',') from payment_event e where e.position > head.position) as early
       from head`,
      [String(this.last ?? 0n)],
    );
    this.last = BigInt(row!.head);
    this.early = new Set(row!.early ? row!.early.split(',').map(BigInt) : []);
    this.isFollowing = true;
    this.pubsub.admit(PAYMENT_EVENTS_TOPIC);
  }

  private async readLoop(): Promise<void> {
    let pending: boolean;
    try {
      let published = 0;
      let reconnected = false;
      for (;;) {
        // A reconnect while this loop reads (its wake-up sets `again`) is caught up by this loop's next page.
        reconnected ||= this.reconnected;
        this.reconnected = false;
        this.again = false;
        if (!this.isFollowing) await this.follow();
        const page = await this.readPage();
        published += page.published;
        pending = page.pending;
        if (this.stopped) return;
        if (!page.full && !this.again) break;
      }
      if (reconnected) {
        this.logger.info({ published, position: String(this.last) }, 'caught up with the payment events committed while not listening');
        this.onCaughtUp(published);
      }
    } catch (error) {
      // The database is failing: the next poll (or wake-up) reads again from the same position.
      this.logger.error({ err: error, position: String(this.last) }, 'could not read the payment event log; retrying');
      pending = true;
    }
    this.settling = pending;
    if (pending) {
      this.settleReads++;
      this.schedule(backoffDelayMs(this.settleReads, SETTLE_BACKOFF));
    } else {
      this.settleReads = 0;
      this.schedule(SAFETY_POLL_MS);
    }
  }

  /**
   * A mark, committed, then the read, in one round trip (`Database.markThenRead`): the mark covers
   * the log's positions drawn so far (the commit that woke the bus among them), so its events are
   * final at once unless a transaction older than the mark still runs. The read returns the final
   * position, the newest committed one, and the final events after the last published. `pending`
   * when committed events wait beyond the final position.
   */
  private async readPage(): Promise<{ published: number; full: boolean; pending: boolean }> {
    const after = this.last;
    if (after === undefined) throw new Error('the event bus reads the log only once it follows it');
    const em = this.db.fork();
    // Marks below the final position say nothing more: dropped now and then, by whichever instance.
    const prune = (this.reads = (this.reads + 1) % PRUNE_EVERY_READS) === 0;
    // Inlined, no parameters (one simple-protocol query): a bigint's digits and a constant.
    const rows = await this.db.markThenRead<LogRow & Record<string, unknown>>(
      prune ? MARK_AND_PRUNE : MARK,
      `${EVENT_BUS_SQL_MARK} with bound as (select ${FINAL_POSITION_SQL} as final_position, (select max(position) from payment_event) as head)
       select bound.final_position::text as final_position, bound.head::text as head, e.*
       from bound left join lateral (
         select ${EVENT_COLUMNS} from payment_event
         where position > ${after.toString()} and position <= bound.final_position
         order by position limit ${READ_PAGE}
       ) e on true`,
    );
    let published = 0;
    for (const row of rows) {
      if (row.position === null || this.stopped) continue;
      const { final_position: _final, head: _head, ...columns } = row;
      const event = em.map(PaymentEvent, columns);
      const position = BigInt(event.position);
      if (this.last !== undefined && position <= this.last) continue;
      this.last = position;
      // Committed before the subscriptions joined (see follow): owed to none of them.
      if (this.early.delete(position)) continue;
      this.publish(toEventNotification(event));
      published += 1;
    }
    const first = rows[0];
    const pending = first?.head != null && (first.final_position == null || BigInt(first.head) > BigInt(first.final_position));
    // A full page asks for the next one at once, whether or not its events were published.
    const read = rows.filter((row) => row.position !== null).length;
    return { published, full: read === READ_PAGE, pending };
  }

  private publish(notification: EventNotification): void {
    try {
      this.pubsub.publish(PAYMENT_EVENTS_TOPIC, notification);
    } catch (error) {
      // A failing subscriber must not stop delivery to the others or of later events.
      this.logger.error({ err: error, position: notification.position }, 'a payment event subscriber failed');
    }
  }
}
