// A graphql-ws socket's message rate (src/server/ws-limits.ts): a full bucket takes a burst at once,
// then one message per 1/rate seconds, and refuses under one token without taking any; its two
// numbers stay small integers; and its 32-bit clock's wrap (24.8 days to negative, 49.7 days back to
// zero) changes nothing for a socket open longer than that.

import { describe, expect, it } from 'vitest';
import { fullBucket, messageClock, refillMessages, takeMessage, type MessageBucket } from './ws-limits.js';

const DAY_MS = 86_400_000;

function bucket(limits: { messageBurst: number }, now: number): MessageBucket {
  return { messageTokens: fullBucket(limits), messagesCountedAt: now };
}

/** Messages taken at `now` until the first refusal. */
function takeAll(of: MessageBucket, limits: { messagesPerSecond: number; messageBurst: number }, now: number): number {
  let taken = 0;
  while (takeMessage(of, limits, now)) taken += 1;
  return taken;
}

const isSmallInteger = (value: number) => Object.is(value | 0, value);

describe('a socket message bucket', () => {
  const limits = { messagesPerSecond: 10, messageBurst: 5 };

  it('takes its burst at once, then refuses', () => {
    const b = bucket(limits, 0);
    expect(takeAll(b, limits, 0)).toBe(5);
    expect(takeMessage(b, limits, 0)).toBe(false);
  });

  it('earns one message per 1/rate seconds, and refuses under one token without taking it', () => {
    const b = bucket(limits, 0);
    takeAll(b, limits, 0);
    expect(takeMessage(b, limits, 99)).toBe(false);
    // The refusal took nothing: the token completes at 100 ms all the same.
    expect(takeMessage(b, limits, 100)).toBe(true);
    expect(takeMessage(b, limits, 100)).toBe(false);
    expect(takeAll(b, limits, 400)).toBe(3);
  });

  it('earns a rate that is no whole number of messages a millisecond exactly', () => {
    const three = { messagesPerSecond: 3, messageBurst: 2 };
    const b = bucket(three, 0);
    expect(takeAll(b, three, 0)).toBe(2);
    expect(takeMessage(b, three, 333)).toBe(false);
    expect(takeMessage(b, three, 334)).toBe(true);
    // Over a minute of a message asked every millisecond, the rate's 180 exactly: nothing lost to rounding.
    let taken = 1;
    for (let t = 335; t <= 60_000; t += 1) if (takeMessage(b, three, t)) taken += 1;
    expect(taken).toBe(180);
  });

  it('holds no more than its burst after a long silence', () => {
    const b = bucket(limits, 0);
    takeAll(b, limits, 0);
    expect(takeAll(b, limits, 3_600_000)).toBe(5);
  });

  it('keeps both numbers small integers', () => {
    const three = { messagesPerSecond: 3, messageBurst: 200 };
    const b = bucket(three, messageClock());
    for (let t = 1; t < 5_000; t += 7) {
      takeMessage(b, three, messageClock(performance.now() + t));
      expect(isSmallInteger(b.messageTokens)).toBe(true);
      expect(isSmallInteger(b.messagesCountedAt)).toBe(true);
    }
  });

  it('counts time across its clock turning negative (24.8 days) and back to zero (49.7 days)', () => {
    const start = performance.now();
    for (const at of [2 ** 31 - 50, 2 ** 32 - 50, 3 * 2 ** 32 - 50]) {
      const b = bucket(limits, messageClock(start + at));
      takeAll(b, limits, messageClock(start + at));
      // 100 ms later, across the wrap: one message earned, not a full bucket, not none.
      expect(takeAll(b, limits, messageClock(start + at + 100))).toBe(1);
      expect(takeAll(b, limits, messageClock(start + at + 300))).toBe(2);
    }
  });

  it('keeps its rate for a socket open 60 days, counted by the keep-alive while silent', () => {
    const start = performance.now();
    const b = bucket(limits, messageClock(start));
    // Busy for the first second, then silent but pinged hourly for 60 days.
    takeAll(b, limits, messageClock(start));
    let t = 0;
    while (t < 60 * DAY_MS) {
      t += 3_600_000;
      refillMessages(b, limits, messageClock(start + t));
    }
    expect(takeAll(b, limits, messageClock(start + t + 1))).toBe(5);
    // Then a flood 60 days in is held to the rate, as on the first day.
    expect(takeMessage(b, limits, messageClock(start + t + 50))).toBe(false);
    expect(takeMessage(b, limits, messageClock(start + t + 101))).toBe(true);
    // And 25 days of messages a minute apart are all taken.
    let refused = 0;
    for (let at = t; at < t + 25 * DAY_MS; at += 60_000) if (!takeMessage(b, limits, messageClock(start + at + 1000))) refused += 1;
    expect(refused).toBe(0);
  });
});
