// Warnings that a flood would repeat (a client looping on a bad key, unsigned requests to a webhook
// path), written a bounded number of times: the first of each reason after a quiet interval is
// logged at once, with its fields; those of the same reason that follow within the interval are
// counted and logged as one line when it ends (or at `flush`). At most two lines per reason per
// interval, whatever arrives; the reasons are a closed set, so the log stays bounded.

import type { Logger } from './logger.js';

export const SUMMARY_INTERVAL_MS = 60_000;

interface Window {
  endsAt: number;
  repeated: number;
  timer: NodeJS.Timeout | undefined;
}

export class SummarisedLog {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly log: Logger,
    /** The message of each line; the summary's is this with " (repeated)" and the count. */
    private readonly message: string,
    private readonly intervalMs = SUMMARY_INTERVAL_MS,
  ) {}

  note(reason: string, fields: Record<string, unknown> = {}, now = Date.now()): void {
    const window = this.windows.get(reason);
    if (!window || now >= window.endsAt) {
      // A quiet interval ended (or none began): this one is news, logged now.
      if (window) this.flushReason(reason, window);
      this.windows.set(reason, { endsAt: now + this.intervalMs, repeated: 0, timer: undefined });
      this.log.warn({ reason, ...fields }, this.message);
      return;
    }
    window.repeated += 1;
    if (!window.timer) {
      window.timer = setTimeout(() => this.flushReason(reason, window), Math.max(0, window.endsAt - now));
      window.timer.unref();
    }
  }

  /** Logs every count not logged yet (at stop). */
  flush(): void {
    for (const [reason, window] of this.windows) this.flushReason(reason, window);
  }

  private flushReason(reason: string, window: Window): void {
    clearTimeout(window.timer);
    window.timer = undefined;
    if (window.repeated === 0) return;
    const repeated = window.repeated;
    window.repeated = 0;
    this.log.warn({ reason, repeated, intervalMs: this.intervalMs }, `${this.message} (repeated)`);
  }
}
