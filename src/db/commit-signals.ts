// Wake-ups announced after a commit, never inside the transaction: `signalOnCommit` records them in
// the transaction, and the ORM subscriber here hands them to the database's relay once it commits.
// `onCommitted` runs work of this process at the same moment: after the relay has sent the
// wake-ups to the other instances, before it calls this instance's listeners.

import type { EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';

/** Signals registered in an open transaction, by the driver's transaction object. */
const pendingSignals = new WeakMap<object, Map<string, Set<string>>>();

/**
 * Announces, once the transaction of `tx` commits, that it wrote something the listeners of
 * `channel` must look at (new events, a due job, a released idempotency key). Nothing is sent
 * inside the transaction, so its commit never waits for PostgreSQL's server-wide NOTIFY queue
 * lock: after the commit this instance's listeners are called at once, in-process, and one
 * coalesced NOTIFY goes out on the relay's own session (autocommit) to wake the other instances.
 * After a rollback nothing is announced. A signal is a wake-up, not the data: the listener reads
 * what changed from its table, and a missed one (the relay's session down, a crash right after
 * commit) is caught by the listener's own polling. A savepoint's release announces its signals
 * at once (a wake-up too early finds nothing, the listener's poll then does): no money path
 * nests transactions.
 */
export function signalOnCommit(tx: SqlEntityManager, channel: string, payload = ''): void {
  const context = tx.isInTransaction() ? tx.getTransactionContext<object>() : undefined;
  if (!context) throw new Error(`signalOnCommit(${channel}) must run inside the transaction whose commit it announces`);
  let channels = pendingSignals.get(context);
  if (!channels) {
    channels = new Map();
    pendingSignals.set(context, channels);
  }
  let payloads = channels.get(channel);
  if (!payloads) {
    payloads = new Set();
    channels.set(channel, payloads);
  }
  payloads.add(payload);
}

/** Callbacks registered in an open transaction, by the driver's transaction object. */
const pendingCallbacks = new WeakMap<object, Array<() => void>>();

/**
 * Runs `callback` in this process once the transaction of `em` has committed: after its signals
 * went out to the other instances, before this instance's listeners hear of the commit. At once
 * when `em` is in no transaction (a statement run on its own has committed by the time it
 * returns). Never after a rollback, nor when only a savepoint is released: what it wrote is not
 * committed yet then.
 * A callback that throws is reported (the database's log) and never reaches the committing
 * caller: what committed stands, and the caller's answer says so.
 */
export function onCommitted(em: SqlEntityManager, callback: () => void): void {
  if (!em.isInTransaction()) {
    const subscriber = commitSubscriberOf(em);
    if (subscriber) subscriber.runCommitted(callback);
    else callback();
    return;
  }
  const context = em.getTransactionContext<object>();
  if (!context) throw new Error('onCommitted must run inside the transaction whose commit it waits for');
  const callbacks = pendingCallbacks.get(context);
  if (callbacks) callbacks.push(callback);
  else pendingCallbacks.set(context, [callback]);
}

/**
 * `signalOnCommit` for a statement that ran on its own (autocommit): it has committed by the time
 * it returns, so its wake-ups go out at once, as a transaction's do after its commit.
 */
export function signalCommitted(em: SqlEntityManager, channel: string, payload = ''): void {
  if (em.isInTransaction()) throw new Error(`signalCommitted(${channel}) is for a statement run on its own; in a transaction, signalOnCommit waits for its commit`);
  const relay = commitSubscriberOf(em)?.relay;
  if (!relay) return;
  const signals = new Map([[channel, new Set([payload])]]);
  void relay.send(signals);
  relay.deliver(signals);
}

/**
 * Where a committed transaction's signals go, in two steps around the transaction's callbacks
 * (`onCommitted`): `send`, first, wakes the other instances (and runs the channels' after-commit
 * statements), so that none of them waits for work this process does at the commit, such as
 * writing a live update to each of its own subscribers; `deliver`, last, calls this instance's
 * listeners, which may rely on what the callbacks did.
 */
export interface CommitRelay {
  /** Not awaited by the commit: resolves once the wake-ups are sent (or given up on, and logged). */
  send(signals: Map<string, Set<string>>): Promise<void>;
  deliver(signals: Map<string, Set<string>>): void;
}

/** The database's commit subscriber, registered on the ORM's event manager at start-up. */
function commitSubscriberOf(em: SqlEntityManager): CommitSignalSubscriber | undefined {
  for (const subscriber of em.getEventManager().getSubscribers()) {
    if (subscriber instanceof CommitSignalSubscriber) return subscriber;
  }
  return undefined;
}

/**
 * Hands the signals of each committed transaction to the relay (a rolled-back one's are dropped),
 * and shows the query watchers the transaction boundaries, which the ORM's query hook does not
 * report: a statement count is then what the server executes.
 */
export class CommitSignalSubscriber implements EventSubscriber {
  relay: CommitRelay | undefined;

  /**
   * @param failed told of a callback of `onCommitted` that threw, after its transaction committed
   * (the database logs it): the commit and the other callbacks are not held back by it.
   */
  constructor(
    private readonly observe: (sql: string) => void,
    private readonly failed: (error: unknown) => void,
  ) {}

  afterTransactionStart(args: TransactionEventArgs): void {
    this.observe(isSavepoint(args) ? 'savepoint' : 'begin');
  }

  /**
   * The relay's statement (a mark, the wake-ups) is sent first and not awaited: the committing call
   * returns at once, the statement follows on the relay's own session, and a reader that needs the
   * mark waits for it if it must. Then the callbacks, then this instance's listeners.
   */
  afterTransactionCommit(args: TransactionEventArgs): void {
    const savepoint = isSavepoint(args);
    this.observe(savepoint ? 'release savepoint' : 'commit');
    const context = args.transaction as object | undefined;
    if (!context) return;
    const signals = pendingSignals.get(context);
    if (signals) {
      pendingSignals.delete(context);
      void this.relay?.send(signals);
    }
    const callbacks = pendingCallbacks.get(context);
    if (callbacks) {
      pendingCallbacks.delete(context);
      if (!savepoint) for (const callback of callbacks) this.runCommitted(callback);
    }
    if (signals) this.relay?.deliver(signals);
  }

  /**
   * Runs one callback of a committed transaction on its own: if it throws, the error is reported,
   * and the other callbacks and the relay after them still run. It never reaches the ORM's commit,
   * whose caller would otherwise take a committed transaction for a failed one.
   */
  runCommitted(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.failed(error);
    }
  }

  afterTransactionRollback(args: TransactionEventArgs): void {
    this.observe(isSavepoint(args) ? 'rollback to savepoint' : 'rollback');
    if (args.transaction) {
      pendingSignals.delete(args.transaction as object);
      pendingCallbacks.delete(args.transaction as object);
    }
  }
}

/** Whether the event is a savepoint's (a nested transaction): the ORM names the savepoint on its transaction object, which it types `any`. */
function isSavepoint(args: TransactionEventArgs): boolean {
  return Boolean((args.transaction as { savepointName?: string } | undefined)?.savepointName);
}
