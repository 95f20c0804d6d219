import { describe, expect, it } from 'vitest';
import { ClientLimiter, effectiveLimits } from './client-limits.js';

const LIMITS = { requestsPerSecond: 2, burst: 3, maxSubscriptions: 2 };

function limiter(): { limiter: ClientLimiter; advance: (ms: number) => void } {
  let now = 1_000_000;
  return { limiter: new ClientLimiter(LIMITS, () => now), advance: (ms) => (now += ms) };
}

describe('ClientLimiter', () => {
  it('admits the burst at once, then the rate, and says when the next request would be admitted', () => {
    const { limiter: l, advance } = limiter();
    expect([1, 2, 3].map(() => l.take('cli_a', LIMITS).ok)).toEqual([true, true, true]);
    expect(l.take('cli_a', LIMITS)).toEqual({ ok: false, retryAfterSeconds: 1 });
    advance(500);
    expect(l.take('cli_a', LIMITS).ok).toBe(true);
    expect(l.take('cli_a', LIMITS).ok).toBe(false);
    // Another client has its own bucket.
    expect(l.take('cli_b', LIMITS).ok).toBe(true);
    // A long quiet spell refills the burst, never beyond it.
    advance(60_000);
    expect([1, 2, 3, 4].map(() => l.take('cli_a', LIMITS).ok)).toEqual([true, true, true, false]);
  });

  it('reports what it admitted once, and takes what the other instances admitted from its own buckets', () => {
    const { limiter: l } = limiter();
    l.take('cli_a', LIMITS);
    l.take('cli_a', LIMITS);
    expect(l.report()).toEqual([{ clientId: 'cli_a', used: 2, subscriptions: 0 }]);
    expect(l.report()).toEqual([]);
    // The others used two: one token was left here, none now.
    l.applyOthers(new Map([['cli_a', 2], ['cli_unseen', 50]]), new Map());
    expect(l.take('cli_a', LIMITS).ok).toBe(false);
  });

  it('holds a client to its subscriptions here and on the other instances, and gives one back when it ends', () => {
    const { limiter: l } = limiter();
    expect(l.openSubscription('cli_a', LIMITS)).toBe(true);
    l.applyOthers(new Map(), new Map([['cli_a', 1]]));
    expect(l.openSubscription('cli_a', LIMITS)).toBe(false);
    expect(l.report()).toEqual([{ clientId: 'cli_a', used: 0, subscriptions: 1 }]);
    l.closeSubscription('cli_a');
    expect(l.openSubscription('cli_a', LIMITS)).toBe(true);
    expect(l.openSubscription('cli_b', { ...LIMITS, maxSubscriptions: 0 })).toBe(false);
  });

  it('takes a client\'s own limits where it has them, the defaults elsewhere', () => {
    expect(effectiveLimits({ requestsPerSecond: 9, requestBurst: null }, LIMITS)).toEqual({ requestsPerSecond: 9, burst: 3, maxSubscriptions: 2 });
  });
});
