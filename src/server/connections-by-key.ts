// The open graphql-ws sockets of each API key, and so of each client through its keys: what a
// revocation (of one key, or of a whole client) closes on this instance, and what a key's expiry
// closes when it comes. One timer per key in use that expires, not per socket: thousands of sockets
// opened with one key share it.

/** Close code for a socket whose key (or an operation's key) was revoked or expired while it was open. */
export const WS_KEY_REVOKED = 4403;

/**
 * How long a revocation is remembered for sockets indexed after it, and how many at most. A key
 * authenticated just before its revocation committed can be indexed just after the notification
 * (milliseconds); after the key cache's 30 s no instance authenticates it at all. Minutes are far
 * beyond both, and the cap keeps a burst of revocations from growing the set without end.
 */
export const REVOKED_MEMORY = { ms: 5 * 60_000, maxEntries: 10_000 };

/** setTimeout's longest delay (about 24.8 days): a later expiry is waited for in steps of this. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** The key a socket, or one of its operations, authenticated with. */
export interface SocketKey {
  readonly id: string;
  readonly clientId: string;
  readonly expiresAt: Date | null;
}

/** A socket as the index sees it: something it can close, and the keys it is indexed under. */
export interface IndexedSocket {
  readonly socket: { close(code: number, reason: string): void };
  /** Its connection's Authorization value, shared with the other sockets of the same key. */
  authorization: unknown;
  /** The keys used on the socket: one (nearly always), or several (operations with keys of their own). */
  keys: KeyInUse | KeyInUse[] | undefined;
}

/** One key with open sockets on this instance, shared by all of them. */
export class KeyInUse {
  readonly sockets = new Set<IndexedSocket>();
  timer: NodeJS.Timeout | undefined;

  constructor(
    readonly keyId: string,
    readonly clientId: string,
    /** Epoch milliseconds, or null: it does not expire. */
    readonly expiresAt: number | null,
  ) {}
}

export class ConnectionsByKey {
  private readonly byKey = new Map<string, KeyInUse>();
  /**
   * Clients and keys revoked while this instance ran (their ids' prefixes tell them apart), with
   * when (insertion order is revocation order). A key authenticated just before its revocation
   * committed, but indexed just after the notification, is closed here instead of living on.
   */
  private readonly revoked = new Map<string, number>();

  constructor(
    private readonly memory: { ms: number; maxEntries: number } = REVOKED_MEMORY,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** How many revocations are remembered now (tests). */
  rememberedRevocations(): number {
    this.forgetOldRevocations();
    return this.revoked.size;
  }

  /** How many keys have open sockets here, each with at most one timer (tests). */
  keysInUse(): number {
    return this.byKey.size;
  }

  /** Indexes `socket` under `key`; closes it at once if the key or its client was revoked, or the key expired, meanwhile. */
  add(key: SocketKey, socket: IndexedSocket): void {
    this.forgetOldRevocations();
    if (this.revoked.has(key.clientId) || this.revoked.has(key.id)) {
      socket.socket.close(WS_KEY_REVOKED, 'API key revoked');
      return;
    }
    const expiresAt = key.expiresAt?.getTime() ?? null;
    if (expiresAt !== null && expiresAt <= this.now()) {
      socket.socket.close(WS_KEY_REVOKED, 'API key expired');
      return;
    }
    let use = this.byKey.get(key.id);
    if (!use) {
      use = new KeyInUse(key.id, key.clientId, expiresAt);
      this.byKey.set(key.id, use);
      this.arm(use);
    }
    const keys = socket.keys;
    if (keys === use || (Array.isArray(keys) && keys.includes(use))) return;
    // One key in the field itself: an array only for a socket whose operations use other keys.
    if (keys === undefined) socket.keys = use;
    else if (Array.isArray(keys)) keys.push(use);
    else socket.keys = [keys, use];
    use.sockets.add(socket);
  }

  /** `authorization` as an open socket of the same key already holds it, when one holds the same: one string for both. */
  sharedAuthorization(keyId: string, authorization: unknown): unknown {
    // One open socket of the key is enough to compare with: all of them share one string.
    const other = this.byKey.get(keyId)?.sockets.values().next().value;
    return other && other.authorization === authorization ? other.authorization : authorization;
  }

  /** Closes every socket of the client, whichever of its keys it uses; returns how many. */
  closeClient(clientId: string, code: number, reason: string): number {
    this.remember(clientId);
    let closed = 0;
    for (const use of this.byKey.values()) {
      if (use.clientId === clientId) closed += closeAll(use, code, reason);
    }
    return closed;
  }

  /** Closes every socket that uses the key; returns how many. */
  closeKey(keyId: string, code: number, reason: string): number {
    this.remember(keyId);
    const use = this.byKey.get(keyId);
    return use ? closeAll(use, code, reason) : 0;
  }

  /** The socket closed. */
  remove(socket: IndexedSocket): void {
    const keys = socket.keys;
    for (const use of Array.isArray(keys) ? keys : keys ? [keys] : []) {
      use.sockets.delete(socket);
      if (use.sockets.size === 0 && this.byKey.get(use.keyId) === use) {
        clearTimeout(use.timer);
        this.byKey.delete(use.keyId);
      }
    }
    socket.keys = undefined;
  }

  /** Closes the key's sockets when it expires; a later expiry than one timer can wait is waited for in steps. */
  private arm(use: KeyInUse): void {
    if (use.expiresAt === null) return;
    const delay = Math.min(Math.max(use.expiresAt - this.now(), 0), MAX_TIMER_DELAY_MS);
    use.timer = setTimeout(() => {
      use.timer = undefined;
      if (this.byKey.get(use.keyId) !== use) return;
      if (this.now() < use.expiresAt!) this.arm(use);
      else closeAll(use, WS_KEY_REVOKED, 'API key expired');
    }, delay);
    // An expiry never keeps the process alive.
    use.timer.unref();
  }

  private remember(id: string): void {
    this.revoked.delete(id);
    this.revoked.set(id, this.now());
    this.forgetOldRevocations();
  }

  /** Drops the revocations older than the memory, and the oldest beyond its size. */
  private forgetOldRevocations(): void {
    const oldest = this.now() - this.memory.ms;
    for (const [id, at] of this.revoked) {
      if (at > oldest && this.revoked.size <= this.memory.maxEntries) break;
      this.revoked.delete(id);
    }
  }
}

/** Closes the key's open sockets (each leaves the index when its close completes); returns how many. */
function closeAll(use: KeyInUse, code: number, reason: string): number {
  const open = [...use.sockets];
  for (const socket of open) socket.socket.close(code, reason);
  return open.length;
}
