// The one back-off of the gateway: the wait before a retry, exponential from a base, capped, with
// optional jitter. Provider calls, jobs, notifications, the event bus, the LISTEN reconnect and the
// sandboxes' webhook retries all ask it, so a retry schedule is read in one place.

/** How waits grow between retries. */
export interface Backoff {
  /** The wait before the first retry, in milliseconds (or any unit: the result is in the same one). */
  baseMs: number;
  /** What each later wait is multiplied by. Default 2. */
  factor?: number;
  /** The longest wait. Default: no cap. */
  maxMs?: number;
  /**
   * The share of each wait taken off at random (0 to 1), so callers that failed together do not
   * retry in step: 0.1 takes off up to a tenth, 0.5 is "equal jitter" (between half and all of
   * it). Default 0: the same wait every time.
   */
  jitter?: number;
}

/**
 * The exponent stops growing here: `factor ** attempt` for a huge attempt count would be Infinity
 * (and `Infinity * 0` NaN), whatever the cap.
 */
const MAX_EXPONENT = 30;

/**
 * The wait before retry number `attempt` (1 after the first failure): `baseMs · factor^(attempt-1)`,
 * capped at `maxMs`, less a random share of at most `jitter`, rounded to a whole number. An attempt
 * below 1 reads as the first.
 *
 * @example
 * backoffDelayMs(3, { baseMs: 200, maxMs: 2_000 }); // 800
 * backoffDelayMs(9, { baseMs: 1_000, maxMs: 300_000, jitter: 0.1 }); // between 230 400 and 256 000
 */
export function backoffDelayMs(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), MAX_EXPONENT);
  const nominal = Math.min(backoff.baseMs * (backoff.factor ?? 2) ** exponent, backoff.maxMs ?? Infinity);
  const jitter = backoff.jitter ?? 0;
  return Math.round(jitter > 0 ? nominal * (1 - random() * jitter) : nominal);
}

/** The longest the waits before retries 1 to `retries` add up to: the jitter only ever shortens them. */
export function totalBackoffMs(retries: number, backoff: Backoff): number {
  let total = 0;
  for (let attempt = 1; attempt <= retries; attempt++) total += backoffDelayMs(attempt, { ...backoff, jitter: 0 });
  return total;
}
