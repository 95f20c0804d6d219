// Failed authentications in the log, bounded: a client sending a bad key in a loop (or a flood of
// random keys) must not write a line per attempt. The first failure after a quiet interval is
// logged at once, at warn; the failures that follow within the interval are counted and logged as
// one summary line when it ends. At most two lines per interval, whatever arrives.

import type { Logger } from '../../lib/logger.js';

/** Why a key was refused: not a key's shape, unknown or revoked, expired. */
export type AuthFailureReason = 'malformed' | 'invalid' | 'expired';

export const AUTH_FAILURE_LOG_INTERVAL_MS = 60_000;

export class AuthFailureLog {
  private counts: Record<AuthFailureReason, number> = { malformed: 0, invalid: 0, expired: 0 };
  private windowEndsAt = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: Logger,
    private readonly intervalMs = AUTH_FAILURE_LOG_INTERVAL_MS,
  ) {}

  note(reason: AuthFailureReason, now = Date.now()): void {
    if (now >= this.windowEndsAt) {
      // A quiet interval ended: this one is news, logged now; later ones wait for the summary.
      this.flush();
      this.windowEndsAt = now + this.intervalMs;
      this.log.warn({ reason }, 'authentication failed; further failures in the next minute are summarised');
      return;
    }
    this.counts[reason] += 1;
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), Math.max(0, this.windowEndsAt - now));
      this.timer.unref();
    }
  }

  /** Logs what was counted since the last line, if anything (at the interval's end, and at close). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const { malformed, invalid, expired } = this.counts;
    const total = malformed + invalid + expired;
    if (total === 0) return;
    this.counts = { malformed: 0, invalid: 0, expired: 0 };
    this.log.warn({ failures: total, malformed, invalid, expired }, 'authentications failed since the last such line');
  }
}
