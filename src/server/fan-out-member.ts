// One subscriber of a fan-out group (src/server/fan-out.ts): it takes the group's payload of each
// event its filter lets through and writes its own `next` frame, in event order, queueing behind a
// payload still being computed, and is cut off when it stops reading. A resuming subscriber first
// sends the events it missed, then goes live above them. What a member needs of its group and of a
// payload is stated here as interfaces, which the group and its deliveries implement.

import type { WebSocket } from 'ws';
import type { EventNotification } from '../kernel/events/event-notification.js';
import type { ResumingSubscription } from '../kernel/events/resume.js';
import { FELL_BEHIND, MAX_BUFFERED, TopicSubscription, type TopicConsumer } from '../lib/pubsub.js';

/** Most bytes a subscriber's socket may have queued unsent before it is cut off, as with MAX_BUFFERED events. */
const MAX_SOCKET_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Where a subscription's frames go. */
export interface SubscriptionSink {
  readonly socket: WebSocket;
}

/** One event's payload for a group, as its members read it: settled or not, and the frame's shared tail or the failure. */
export interface MemberDelivery {
  readonly settled: boolean;
  /** What follows the id in every member's `next` frame, as UTF-8. */
  readonly frameTail: Buffer;
  readonly error: unknown;
  /** Calls the member's `drain()` once the payload settles. */
  wait(member: Member): void;
}

/** What a member asks of its group: whether an event is for it, the event's payload, and its leaving. */
export interface MemberGroup {
  accepts(event: unknown, filter: (event: unknown) => boolean): boolean;
  delivery(event: unknown): MemberDelivery;
  leave(): void;
  subscriptionEnded(sink: SubscriptionSink, operationId: string, error?: unknown): void;
}

/**
 * One subscription in a group. Events of the topic's pub/sub are handed over synchronously as they
 * are published; any other stream is pulled one event at a time. Frames leave in event order: a
 * member whose next payload is still being computed queues the later ones behind it. A subscriber
 * that stops reading (its socket's queue, or its own, past the limits) is cut off with an error,
 * and can catch up from `events(after:)`.
 */
export class Member implements TopicConsumer<unknown> {
  protected closed = false;
  /** Deliveries not sent yet, oldest first, while the oldest is being computed. */
  protected backlog: MemberDelivery[] | undefined;

  constructor(
    private readonly group: MemberGroup,
    private readonly sink: SubscriptionSink,
    private readonly operationId: string,
    private readonly source: AsyncIterator<unknown>,
  ) {}

  start(): void {
    if (this.source instanceof TopicSubscription && this.source.attach(this)) return;
    void this.pump();
  }

  /** The client completed the operation, or the socket closed: no frame, no end notice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.backlog = undefined;
    this.group.leave();
    this.source.return?.().catch(() => undefined);
  }

  offer(event: unknown, filter: (event: unknown) => boolean): void {
    if (this.closed) return;
    try {
      if (!this.group.accepts(event, filter)) return;
      const delivery = this.group.delivery(event);
      if (this.backlog) {
        if (this.backlog.length >= MAX_BUFFERED) throw new Error(FELL_BEHIND);
        this.backlog.push(delivery);
      } else if (delivery.settled) {
        this.write(delivery);
      } else {
        this.backlog = [delivery];
        delivery.wait(this);
      }
    } catch (error) {
      this.end(error);
    }
  }

  /** The stream ended: `complete` (or `error`) for the client. */
  end(error?: unknown): void {
    if (this.closed) return;
    this.close();
    this.group.subscriptionEnded(this.sink, this.operationId, error);
  }

  /** Nothing is left to send: every delivery offered so far is on the socket (or failed). */
  protected drained(): void {
    // Only a resuming member waits for it.
  }

  /** The delivery this member waited for settled: sends what is ready, in order. */
  drain(): void {
    const backlog = this.backlog;
    if (!backlog) return;
    try {
      while (backlog.length > 0 && !this.closed) {
        const head = backlog[0]!;
        if (!head.settled) {
          head.wait(this);
          return;
        }
        backlog.shift();
        this.write(head);
      }
      if (this.backlog === backlog) {
        this.backlog = undefined;
        this.drained();
      }
    } catch (error) {
      this.end(error);
    }
  }

  private write(delivery: MemberDelivery): void {
    // What the subscription's execution threw (or rejected with), passed on as it is.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (delivery.error !== undefined) throw delivery.error;
    const socket = this.sink.socket;
    if (this.closed || socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_SOCKET_BUFFERED_BYTES) throw new Error(FELL_BEHIND);
    // The frame as bytes (the socket then writes buffers only, its fast path): this member's id
    // before the tail all members share. Built per frame, not kept.
    const head = `{"id":${JSON.stringify(this.operationId)}`;
    const headBytes = Buffer.byteLength(head);
    const tail = delivery.frameTail;
    const frame = Buffer.allocUnsafe(headBytes + tail.length);
    frame.write(head, 0, 'utf8');
    tail.copy(frame, headBytes);
    socket.send(frame, { binary: false });
  }

  /** Any stream other than the pub/sub's: pulled one event at a time. */
  private async pump(): Promise<void> {
    try {
      for (;;) {
        const next = await this.source.next();
        if (next.done || this.closed) break;
        this.offer(next.value, acceptAll);
      }
      this.end();
    } catch (error) {
      this.end(error);
    }
  }
}

/**
 * A subscription given `after`: it sends the replay (the events it missed, read from the log a
 * page at a time, each page sent before the next is read), then takes its live stream, which
 * buffered meanwhile, dropping what the replay covered (src/kernel/events/resume.ts). It is in the
 * group of its own operation and variables, and runs the replayed events through it like live ones.
 */
export class ResumingMember extends Member {
  private whenDrained: (() => void) | undefined;

  constructor(group: MemberGroup, sink: SubscriptionSink, operationId: string, private readonly resuming: ResumingSubscription) {
    super(group, sink, operationId, resuming);
  }

  override start(): void {
    void this.resume();
  }

  protected override drained(): void {
    const resolve = this.whenDrained;
    this.whenDrained = undefined;
    resolve?.();
  }

  private async resume(): Promise<void> {
    try {
      for await (const page of this.resuming.replay()) {
        if (this.closed) return;
        // Already filtered by the subscription's own filter, as the live stream is.
        for (const event of page) this.offer(event, acceptAll);
        if (this.backlog) await new Promise<void>((resolve) => (this.whenDrained = resolve));
        if (this.closed) return;
      }
      const through = this.resuming.through;
      if (this.closed) return;
      // The live stream ended before it joined: the subscription is over.
      if (through === undefined) return this.end();
      // False when the live stream ended while the replay ran: it fell behind (its buffer filled).
      if (!this.resuming.live.attach(new AboveReplay(this, through))) this.end(new Error(FELL_BEHIND));
    } catch (error) {
      this.end(error);
    }
  }
}

/** Hands a resumed member the live events above what its replay covered; the live stream's positions only grow. */
class AboveReplay implements TopicConsumer<EventNotification> {
  constructor(
    private readonly member: Member,
    private readonly through: bigint,
  ) {}

  offer(event: EventNotification, filter: (event: EventNotification) => boolean): void {
    if (BigInt(event.position) <= this.through) return;
    this.member.offer(event, filter as (event: unknown) => boolean);
  }

  end(error?: Error): void {
    this.member.end(error);
  }
}

function acceptAll(): boolean {
  return true;
}
