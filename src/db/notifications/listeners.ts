// What both kinds of notifications share: the listeners of a channel, how they are called, and the
// rule that keeps channel names safe to write into LISTEN.

import type { Logger } from '../../lib/logger.js';

export type NotificationHandler = (payload: string) => void;

/** What a listener is told besides the notifications themselves. */
export interface ListenOptions {
  /**
   * Called each time the LISTEN connection has been re-established after it dropped, before any
   * notification received on the new connection reaches the handler. Whatever was NOTIFYed while
   * it was down is lost for good, so a listener that must miss nothing reads it back from the table
   * the notifications describe. Never called on PGlite, whose in-process LISTEN cannot drop.
   */
  onReconnect?: () => void;
}

export interface Listener {
  handler: NotificationHandler;
  onReconnect: (() => void) | undefined;
}

/** Channel names are SQL identifiers we choose; this keeps them so. */
export function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Invalid NOTIFY channel name ${channel}`);
}

/** Calls every listener of `channel`; one that throws is logged and does not stop the others. */
export function deliver(handlers: Map<string, Set<Listener>>, channel: string, payload: string, log: Logger): void {
  for (const listener of handlers.get(channel) ?? []) {
    try {
      listener.handler(payload);
    } catch (error) {
      log.error({ err: error, channel }, 'a wake-up listener failed');
    }
  }
}

/** Calls the listeners of every channel in `signals`, once per payload (a committed transaction's wake-ups). */
export function deliverSignals(handlers: Map<string, Set<Listener>>, signals: Map<string, Set<string>>, log: Logger): void {
  for (const [channel, payloads] of signals) {
    for (const payload of payloads) deliver(handlers, channel, payload, log);
  }
}
