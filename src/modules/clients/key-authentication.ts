// Authenticating API keys: by the SHA-256 of the key, from a per-instance cache of the clients
// seen recently, which the revocation and change notifications of every instance keep true, and
// with the keys that failed remembered so that repeating one costs no statement. The channels
// those notifications travel on are declared here; ApiClientService sends on them.

import { hash } from 'node:crypto';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { SummarisedLog } from '../../lib/summarised-log.js';
import { ApiClient, detachedClient } from './api-client.entity.js';
import { ApiKey, isExpired } from './api-key.entity.js';
import { FailedKeys } from './failed-keys.js';
import { KeyCache, type KeyHolder, type UsedKey } from './key-cache.js';

/** Keys look like `gw_` + 43 url-safe characters (256 random bits). */
const KEY_PATTERN = /^gw_[A-Za-z0-9_-]{43}$/;
/** lastUsedAt is a hint for operators, not an audit log: write it at most once a minute per key. */
const LAST_USED_GRANULARITY_MS = 60_000;
/**
 * Authenticated clients kept in memory per instance. Internal clients are few; the time-out is a
 * backstop only (revocations arrive by notification), and half the lastUsedAt granularity, so an
 * active client's lastUsedAt still moves about once a minute.
 */
const KEY_CACHE = { maxEntries: 1_000, ttlMs: 30_000 };
/**
 * Keys that failed authentication, remembered per instance (by hash) so that repeating one costs
 * no statement: some 150 bytes an entry, so at most a few MB; ten minutes, as a failure never
 * turns into a success (see failed-keys.ts).
 */
const FAILED_KEYS = { maxEntries: 20_000, ttlMs: 10 * 60_000 };

/**
 * PostgreSQL NOTIFY channel carrying the id of a client whose key was just revoked. Sent in the
 * revoking transaction, so every gateway instance hears it on commit (and never after a rollback)
 * and closes that client's open graphql-ws sockets.
 */
export const API_CLIENT_REVOKED_CHANNEL = 'api_client_revoked';

/**
 * PostgreSQL NOTIFY channel carrying the id of one key just revoked (its client's other keys stay
 * good). Sent in the revoking transaction, like a client's revocation: every instance forgets the
 * key and closes the sockets opened with it on commit.
 */
export const API_KEY_REVOKED_CHANNEL = 'api_key_revoked';

/**
 * PostgreSQL NOTIFY channel carrying the id of a client whose access rules changed (its
 * trusted-documents rule): sent in the changing transaction, so every instance drops the client
 * from its key cache on commit, as a revocation does, and its next request reads the new rule.
 */
export const API_CLIENT_CHANGED_CHANNEL = 'api_client_changed';

/** Why a key was refused: unknown, malformed or revoked (its own revocation or its client's), or expired. */
export type KeyRefusal = 'INVALID' | 'EXPIRED';

/** The outcome of authenticating a key: its client and the key itself, or why it was refused. */
export type KeyAuthentication = ({ ok: true } & KeyHolder) | { ok: false; refusal: KeyRefusal };

const INVALID: KeyAuthentication = Object.freeze({ ok: false, refusal: 'INVALID' });
const EXPIRED: KeyAuthentication = Object.freeze({ ok: false, refusal: 'EXPIRED' });

/** Subscribes to a NOTIFY channel (`Database.listen`). */
export type Listen = (
  channel: string,
  handler: (payload: string) => void,
  options?: { onReconnect?: () => void },
) => Promise<() => Promise<void>>;

/** The key's SHA-256, hex: what the table holds. One call, without a Hash object (a third of the time). */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Authenticates keys, from memory once `start` listens for the notifications that keep it true. */
export class KeyAuthenticator {
  /** Present once `start` listens for revocations: without hearing them, nothing may be cached. */
  private keyCache: KeyCache | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  /** Keys that failed recently: safe without notifications, so kept from the start. */
  private readonly failedKeys = new FailedKeys(FAILED_KEYS);

  /** `authFailures`: where refused keys are told, a bounded number of lines (none: not logged, as in the CLI). */
  constructor(private readonly authFailures?: SummarisedLog) {}

  /** Forgets a client this instance just revoked or changed, without waiting for the notification to come back. */
  forget(clientId: string): void {
    this.keyCache?.forget(clientId);
  }

  /** Forgets a key this instance just revoked, without waiting for the notification to come back. */
  forgetKey(keyId: string): void {
    this.keyCache?.forgetKey(keyId);
  }

  /**
   * Starts caching authenticated clients, and forgetting each one (or each key) whose revocation or
   * change of rules any instance (or the CLI) commits. After the LISTEN connection comes back,
   * everything is forgotten: a notification sent while it was down is lost.
   */
  async start(listen: Listen): Promise<void> {
    if (this.unlisten) return;
    const cache = new KeyCache(KEY_CACHE);
    const forget = (clientId: string) => cache.forget(clientId);
    const options = { onReconnect: () => cache.clear() };
    const unlistenRevoked = await listen(API_CLIENT_REVOKED_CHANNEL, forget, options);
    const unlistenChanged = await listen(API_CLIENT_CHANGED_CHANNEL, forget, options);
    const unlistenKeyRevoked = await listen(API_KEY_REVOKED_CHANNEL, (keyId) => cache.forgetKey(keyId), options);
    this.unlisten = async () => {
      await unlistenRevoked();
      await unlistenChanged();
      await unlistenKeyRevoked();
    };
    this.keyCache = cache;
  }

  async stop(): Promise<void> {
    this.authFailures?.flush();
    this.keyCache = undefined;
    await this.unlisten?.();
    this.unlisten = undefined;
  }

  /**
   * The active client holding `key`, with the key, or why it is refused: malformed, unknown or
   * revoked (the key, or its client) is INVALID; past its expiry, EXPIRED. The lookup is by SHA-256
   * of the key: keys carry 256 random bits, so a fast hash is enough and the stored value is useless
   * to anyone who reads the table. Once started, a key seen recently costs no statement; the client
   * returned is then shared by every request with that key and must not be changed. Expiry is
   * checked against `now` on every call, a key answered from memory included.
   */
  async authenticateKey(em: SqlEntityManager, key: string, now = new Date()): Promise<KeyAuthentication> {
    if (!KEY_PATTERN.test(key)) return this.told(key, INVALID);
    const keyHash = hashKey(key);
    return this.fromMemory(key, keyHash, now.getTime()) ?? this.told(key, await this.lookUpKey(em, keyHash, now));
  }

  /**
   * What {@link authenticateKey} answers for a key this instance knows without the database (one
   * authenticated or refused recently, or a malformed one), without a promise: the same checks,
   * the key's expiry at `now` (ms) included, and the same refusals told. Undefined: only the
   * database can tell.
   */
  authenticateKnownKey(key: string, now = Date.now()): KeyAuthentication | undefined {
    if (!KEY_PATTERN.test(key)) return this.told(key, INVALID);
    return this.fromMemory(key, hashKey(key), now);
  }

  private fromMemory(key: string, keyHash: string, now: number): KeyAuthentication | undefined {
    const cached = this.keyCache?.get(keyHash, now);
    if (cached) return isExpired(cached.key.expiresAt, now) ? this.told(key, EXPIRED) : { ok: true, client: cached.client, key: cached.key };
    if (this.failedKeys.has(keyHash, Date.now())) return this.told(key, INVALID);
    return undefined;
  }

  /** `outcome`, a refusal noted among the authentication failures first. */
  private told(key: string, outcome: KeyAuthentication): KeyAuthentication {
    if (!outcome.ok) this.authFailures?.note(!KEY_PATTERN.test(key) ? 'malformed' : outcome.refusal === 'EXPIRED' ? 'expired' : 'invalid');
    return outcome;
  }

  /** A well-formed key not held in memory: from the database, then remembered. */
  private async lookUpKey(em: SqlEntityManager, keyHash: string, now: Date): Promise<KeyAuthentication> {
    const cache = this.keyCache;
    const generation = cache?.generation();
    const apiKey = await em.findOne(ApiKey, { hash: keyHash });
    if (!apiKey || apiKey.revokedAt != null) return this.refused(keyHash);
    // Not remembered as failed: an expired key is told so, every time.
    if (isExpired(apiKey.expiresAt ?? null, now)) return EXPIRED;
    const client = await em.findOne(ApiClient, { id: apiKey.clientId });
    if (!client || client.isRevoked()) return this.refused(keyHash);
    if (!apiKey.lastUsedAt || now.getTime() - apiKey.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
      await em.nativeUpdate(ApiKey, { id: apiKey.id }, { lastUsedAt: now });
      apiKey.lastUsedAt = now;
    }
    const used: UsedKey = Object.freeze({ id: apiKey.id, clientId: client.id, prefix: apiKey.prefix, expiresAt: apiKey.expiresAt ?? null });
    if (!cache || generation === undefined) return { ok: true, client, key: used };
    const holder: KeyHolder = Object.freeze({ client: detachedClient(client), key: used });
    cache.store(keyHash, holder, generation, Date.now());
    return { ok: true, ...holder };
  }

  /** INVALID, remembered: a key unknown or revoked (or its client revoked) never becomes valid. */
  private refused(keyHash: string): KeyAuthentication {
    this.failedKeys.remember(keyHash, Date.now());
    return INVALID;
  }

  /** The active client holding `key`, or null when the key is refused (see {@link authenticateKey}). */
  async authenticate(em: SqlEntityManager, key: string, now = new Date()): Promise<ApiClient | null> {
    const outcome = await this.authenticateKey(em, key, now);
    return outcome.ok ? outcome.client : null;
  }
}
