// The graphql-ws server remembers revoked clients for sockets indexed just after a revocation, for
// a bounded time and number: a long-running instance does not keep every revocation forever.

import { describe, expect, it, vi } from 'vitest';
import { ConnectionsByClient } from './graphql-ws.js';

/** A socket as the index sees it: something it can close. */
function socket() {
  const close = vi.fn();
  return { connection: { socket: { close }, clientIds: undefined } as never, close };
}

describe('the revoked clients a graphql-ws server remembers', () => {
  it('closes a socket indexed just after its client was revoked', () => {
    const index = new ConnectionsByClient();
    index.closeAll('cli_revoked', 4403, 'API key revoked');
    const late = socket();
    index.add('cli_revoked', late.connection);
    expect(late.close).toHaveBeenCalledWith(4403, 'API key revoked');
  });

  it('forgets a revocation after the memory window, and the oldest beyond its size', () => {
    let now = 0;
    const index = new ConnectionsByClient({ ms: 60_000, maxEntries: 3 }, () => now);
    for (const id of ['a', 'b', 'c', 'd']) index.closeAll(`cli_${id}`, 4403, 'API key revoked');
    // Four revocations, three remembered: the oldest went first.
    expect(index.rememberedRevocations()).toBe(3);
    const first = socket();
    index.add('cli_a', first.connection);
    expect(first.close).not.toHaveBeenCalled();

    now += 60_001;
    expect(index.rememberedRevocations()).toBe(0);
    const later = socket();
    index.add('cli_d', later.connection);
    expect(later.close).not.toHaveBeenCalled();
  });
});
