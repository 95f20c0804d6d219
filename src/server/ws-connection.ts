// One graphql-ws socket as the server holds it (a Connection): its protocol state, its key and its
// operations, and the connection id that names it in log lines and request ids. A file of its own
// because every part of the server (src/server/graphql-ws.ts) works on Connections, and because
// thousands stay open and idle: a field more here is a field more for each of them (bench B5).

import { randomUUID } from 'node:crypto';
import type { Message } from 'graphql-ws';
import type { WebSocket } from 'ws';
import type { Member, SubscriptionSink } from './fan-out-member.js';
import type { IndexedSocket, KeyInUse } from './connections-by-key.js';
import type { MessageBucket } from './ws-limits.js';

/** Close code for a missing or bad key at connection time, or on an operation. */
export const WS_UNAUTHORIZED = 4401;

// The bits of Connection.state.
const INIT_RECEIVED = 1;
const ACKNOWLEDGED = 2;
const AWAITING_PONG = 4;

/** Takes back a subscription a client held: the client service (its closeSubscription), one object for every socket. */
export interface SubscriptionHolds {
  closeSubscription(clientId: string): void;
}

/**
 * The client a kept subscription counts against, when it is not its socket's client (an operation
 * run with a key of its own, of another client): rare, so kept aside here rather than in a field of
 * every subscription.
 */
const heldForOtherClient = new WeakMap<Member, string>();

/**
 * One open socket: its protocol state, its key and its operations. Thousands stay open and idle, so
 * it keeps no more than it must: its id and keep-alive slice are derived from a serial number.
 */
export class Connection implements SubscriptionSink, IndexedSocket, MessageBucket {
  /** The protocol state's three flags (below), as bits of one small integer rather than three fields. */
  private state = 0;
  authorization: unknown = undefined;
  initTimer: NodeJS.Timeout | undefined;
  // Running operations by id: null while one is being set up, then a subscription's member. Nearly
  // every socket runs one subscription, so the first is kept in two fields; a Map (some 200 bytes
  // even when it holds one entry) is made only for a socket that runs more than one at a time.
  private firstId: string | undefined;
  private first: Member | null = null;
  private others: Map<string, Member | null> | undefined;
  /** The keys this socket uses (the connection's, and operations' own): one, or several. */
  keys: KeyInUse | KeyInUse[] | undefined;
  /** Operations being set up now: beyond MAX_PENDING_OPERATIONS the socket is not read. */
  pending = 0;

  constructor(
    readonly socket: WebSocket,
    /** The socket's place in the order sockets opened on this instance. */
    readonly serial: number,
    /** The socket's rate of messages (takeMessage): tokens left, in thousandths of a message. */
    public messageTokens: number,
    /** When they were last counted, on messageClock(). */
    public messagesCountedAt: number,
  ) {}

  /**
   * The client of the key the socket connected with: the first of its keys, which stays first
   * until the socket closes (ConnectionsByKey.add appends an operation's own key after it).
   */
  private clientId(): string | undefined {
    const keys = this.keys;
    return (Array.isArray(keys) ? keys[0] : keys)?.clientId;
  }

  /** connection_init has come. */
  get initReceived(): boolean {
    return (this.state & INIT_RECEIVED) !== 0;
  }

  set initReceived(value: boolean) {
    this.setState(INIT_RECEIVED, value);
  }

  /** The key was accepted and connection_ack sent. */
  get acknowledged(): boolean {
    return (this.state & ACKNOWLEDGED) !== 0;
  }

  set acknowledged(value: boolean) {
    this.setState(ACKNOWLEDGED, value);
  }

  /** A ping was sent and no pong has come back yet. */
  get awaitingPong(): boolean {
    return (this.state & AWAITING_PONG) !== 0;
  }

  set awaitingPong(value: boolean) {
    this.setState(AWAITING_PONG, value);
  }

  private setState(flag: number, value: boolean): void {
    this.state = value ? this.state | flag : this.state & ~flag;
  }

  /** Operations held now: subscriptions, and operations being set up or run. */
  operationCount(): number {
    return (this.firstId === undefined ? 0 : 1) + (this.others?.size ?? 0);
  }

  /** Names the socket in log lines and request ids, from its acknowledgement on. */
  get connectionId(): string {
    return connectionIdOf(this.serial);
  }

  /** The running operation `id`: undefined if there is none, null while it is being set up. */
  operation(id: string): Member | null | undefined {
    return id === this.firstId ? this.first : this.others?.get(id);
  }

  hasOperation(id: string): boolean {
    return id === this.firstId || (this.others?.has(id) ?? false);
  }

  /**
   * Keeps the subscription `member` as the operation `id`: it holds one of `clientId`'s
   * subscriptions, given back when the socket lets it go (deleteOperation, takeOperations).
   */
  keepSubscription(id: string, member: Member, clientId: string): void {
    if (clientId !== this.clientId()) heldForOtherClient.set(member, clientId);
    this.setOperation(id, member);
  }

  /** The operation `id` is being set up. */
  beginOperation(id: string): void {
    this.setOperation(id, null);
  }

  private setOperation(id: string, member: Member | null): void {
    if (id === this.firstId || (this.firstId === undefined && !this.others?.has(id))) {
      this.firstId = id;
      this.first = member;
    } else {
      (this.others ??= new Map()).set(id, member);
    }
  }

  /** Removes the operation `id`; a subscription's hold goes back to its client through `holds`. */
  deleteOperation(id: string, holds: SubscriptionHolds): void {
    const member = this.operation(id);
    if (member) this.release(member, holds);
    if (id === this.firstId) {
      this.firstId = undefined;
      this.first = null;
    } else if (this.others?.delete(id) && this.others.size === 0) {
      this.others = undefined;
    }
  }

  /** Removes every operation, their holds back to their clients through `holds`; returns the subscriptions' members, to be closed. */
  takeOperations(holds: SubscriptionHolds): Member[] {
    const members = [this.first, ...(this.others?.values() ?? [])].filter((member): member is Member => member !== null);
    for (const member of members) this.release(member, holds);
    this.firstId = undefined;
    this.first = null;
    this.others = undefined;
    return members;
  }

  /** Gives back the subscription `member` held, once: it has just left the socket's operations. */
  private release(member: Member, holds: SubscriptionHolds): void {
    const other = heldForOtherClient.get(member);
    if (other !== undefined) heldForOtherClient.delete(member);
    const clientId = other ?? this.clientId();
    if (clientId !== undefined) holds.closeSubscription(clientId);
  }

  send(message: Message): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }
}

/** This instance's random part of every connection id: a UUID's first 24 characters. */
const CONNECTION_ID_PREFIX = randomUUID().slice(0, 24);

/**
 * A connection's id: a UUID whose last 12 hex digits are the socket's serial number on this
 * instance, the rest (74 bits) random per instance: unique across sockets and instances, and built
 * when a log line or request id needs it instead of held as a string by every idle socket.
 */
function connectionIdOf(serial: number): string {
  return CONNECTION_ID_PREFIX + serial.toString(16).padStart(12, '0');
}
