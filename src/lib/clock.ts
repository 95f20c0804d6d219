// The gateway's clock for retention: every age that decides whether something is kept (an
// idempotency key's, a webhook body's, a payment's personal data's) is measured on it. The system
// clock in production; tests pass one they can move forward, so a day's window passes without
// waiting for it. A payment's age is from its `updated_at`, which the system clock stamps: the
// same clock in production, and one a test's moved clock is ahead of.

/** What reads the time of day. Only retention ages go through it; leases and job times are the database's now(). */
export interface Clock {
  now(): Date;
}

/** The system clock. */
export const systemClock: Clock = { now: () => new Date() };
