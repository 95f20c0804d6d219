// The graphql-ws server's index of sockets by key: a revocation of a key closes that key's sockets
// and no other, a client's revocation closes the sockets of all its keys, a key's expiry closes its
// sockets when it comes (however far off, past setTimeout's longest delay), and revocations are
// remembered for sockets indexed just after one, for a bounded time and number.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionsByKey, MAX_TIMER_DELAY_MS, type IndexedSocket } from './connections-by-key.js';

/** A socket as the index sees it: something it can close. */
function socket(): IndexedSocket & { close: ReturnType<typeof vi.fn> } {
  const close = vi.fn();
  return { socket: { close }, authorization: undefined, keys: undefined, close };
}

const key = (id: string, clientId: string, expiresAt: Date | null = null) => ({ id, clientId, expiresAt });

describe('the revocations a graphql-ws server remembers', () => {
  it('closes a socket indexed just after its client was revoked', () => {
    const index = new ConnectionsByKey();
    index.closeClient('cli_revoked', 4403, 'API key revoked');
    const late = socket();
    index.add(key('key_1', 'cli_revoked'), late);
    expect(late.close).toHaveBeenCalledWith(4403, 'API key revoked');
  });

  it('closes a socket indexed just after its key was revoked, not one of another key of the client', () => {
    const index = new ConnectionsByKey();
    index.closeKey('key_old', 4403, 'API key revoked');
    const late = socket();
    const other = socket();
    index.add(key('key_old', 'cli_1'), late);
    index.add(key('key_new', 'cli_1'), other);
    expect(late.close).toHaveBeenCalledWith(4403, 'API key revoked');
    expect(other.close).not.toHaveBeenCalled();
  });

  it('forgets a revocation after the memory window, and the oldest beyond its size', () => {
    let now = 0;
    const index = new ConnectionsByKey({ ms: 60_000, maxEntries: 3 }, () => now);
    for (const id of ['a', 'b', 'c', 'd']) index.closeClient(`cli_${id}`, 4403, 'API key revoked');
    // Four revocations, three remembered: the oldest went first.
    expect(index.rememberedRevocations()).toBe(3);
    const first = socket();
    index.add(key('key_a', 'cli_a'), first);
    expect(first.close).not.toHaveBeenCalled();

    now += 60_001;
    expect(index.rememberedRevocations()).toBe(0);
    const later = socket();
    index.add(key('key_d', 'cli_d'), later);
    expect(later.close).not.toHaveBeenCalled();
  });
});

describe('closing the sockets of a key or a client', () => {
  it("closes one key's sockets, and a client's sockets under all of its keys", () => {
    const index = new ConnectionsByKey();
    const [old, rolled, bystander] = [socket(), socket(), socket()];
    index.add(key('key_old', 'cli_1'), old);
    index.add(key('key_new', 'cli_1'), rolled);
    index.add(key('key_other', 'cli_2'), bystander);

    expect(index.closeKey('key_old', 4403, 'API key revoked')).toBe(1);
    expect(old.close).toHaveBeenCalledWith(4403, 'API key revoked');
    expect(rolled.close).not.toHaveBeenCalled();

    index.remove(old);
    expect(index.closeClient('cli_1', 4403, 'API key revoked')).toBe(1);
    expect(rolled.close).toHaveBeenCalledWith(4403, 'API key revoked');
    expect(bystander.close).not.toHaveBeenCalled();
  });

  it('closes a socket whose operation used a key of its own when that key is revoked', () => {
    const index = new ConnectionsByKey();
    const shared = socket();
    index.add(key('key_connection', 'cli_admin'), shared);
    index.add(key('key_operation', 'cli_other'), shared);
    expect(index.closeKey('key_operation', 4403, 'API key revoked')).toBe(1);
    index.remove(shared);
    expect(index.keysInUse()).toBe(0);
  });
});

describe('a key that expires', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-12-07T10:00:00.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('has its sockets closed with 4403 when it expires, not before', () => {
    const index = new ConnectionsByKey();
    const [a, b, lasting] = [socket(), socket(), socket()];
    const expiresAt = new Date(Date.now() + 90_000);
    index.add(key('key_1', 'cli_1', expiresAt), a);
    index.add(key('key_1', 'cli_1', expiresAt), b);
    index.add(key('key_2', 'cli_1'), lasting);

    vi.advanceTimersByTime(89_999);
    expect(a.close).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(a.close).toHaveBeenCalledWith(4403, 'API key expired');
    expect(b.close).toHaveBeenCalledWith(4403, 'API key expired');
    expect(lasting.close).not.toHaveBeenCalled();
  });

  it('is waited for past setTimeout\'s longest delay', () => {
    const index = new ConnectionsByKey();
    const far = socket();
    const expiresAt = new Date(Date.now() + MAX_TIMER_DELAY_MS * 2 + 5_000);
    index.add(key('key_far', 'cli_1', expiresAt), far);

    vi.advanceTimersByTime(MAX_TIMER_DELAY_MS * 2);
    expect(far.close).not.toHaveBeenCalled();
    vi.advanceTimersByTime(5_000);
    expect(far.close).toHaveBeenCalledWith(4403, 'API key expired');
  });

  it('closes a socket indexed at or after its expiry at once', () => {
    const index = new ConnectionsByKey();
    const late = socket();
    index.add(key('key_1', 'cli_1', new Date(Date.now())), late);
    expect(late.close).toHaveBeenCalledWith(4403, 'API key expired');
    expect(index.keysInUse()).toBe(0);
  });

  it('keeps one timer per key in use, dropped with its last socket', () => {
    const index = new ConnectionsByKey();
    const sockets = [socket(), socket(), socket()];
    for (const each of sockets) index.add(key('key_1', 'cli_1', new Date(Date.now() + 60_000)), each);
    expect(index.keysInUse()).toBe(1);
    expect(vi.getTimerCount()).toBe(1);
    for (const each of sockets) index.remove(each);
    expect(index.keysInUse()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
