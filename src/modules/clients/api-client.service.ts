// Internal API clients: creating them with a one-time key, authenticating keys by their hash,
// listing, revoking, and marking them trusted-documents-only. Knows nothing of HTTP or GraphQL.

import { createHash, randomBytes } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import type { FieldError } from '../../providers/provider.js';
import { ApiClient, detachedClient } from './api-client.entity.js';
import { KeyCache } from './key-cache.js';
import { FailedKeys } from './failed-keys.js';
import { isRole, type Role } from '../../kernel/roles.js';

/** Keys look like `gw_` + 43 url-safe characters (256 random bits). */
const KEY_PATTERN = /^gw_[A-Za-z0-9_-]{43}$/;
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._()-]{0,99}$/;
/** lastUsedAt is a hint for operators, not an audit log: write it at most once a minute per client. */
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
 * PostgreSQL NOTIFY channel carrying the id of a client whose access rules changed (its
 * trusted-documents rule): sent in the changing transaction, so every instance drops the client
 * from its key cache on commit, as a revocation does, and its next request reads the new rule.
 */
export const API_CLIENT_CHANGED_CHANNEL = 'api_client_changed';

export interface CreateApiClientInput {
  name: string;
  roles: string[];
  /** Merchant account codes the client may use; omitted means all. */
  merchantAccounts?: string[];
}

export type CreateApiClientResult =
  | { ok: true; client: ApiClient; /** Shown once; only its hash is stored. */ key: string }
  | { ok: false; errors: FieldError[] };

/** Subscribes to a NOTIFY channel (`Database.listen`). */
export type Listen = (
  channel: string,
  handler: (payload: string) => void,
  options?: { onReconnect?: () => void },
) => Promise<() => Promise<void>>;

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function generateKey(): string {
  return `gw_${randomBytes(32).toString('base64url')}`;
}

export class ApiClientService {
  /** Present once `start` listens for revocations: without hearing them, nothing may be cached. */
  private keyCache: KeyCache | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  /** Keys that failed recently: safe without notifications, so kept from the start. */
  readonly failedKeys = new FailedKeys(FAILED_KEYS);

  constructor(private readonly knownAccounts: () => string[]) {}

  /**
   * Starts caching authenticated clients, and forgetting each one whose revocation or change of
   * rules any instance (or the CLI) commits. After the LISTEN connection comes back, everything is
   * forgotten: a notification sent while it was down is lost.
   */
  async start(listen: Listen): Promise<void> {
    if (this.unlisten) return;
    const cache = new KeyCache(KEY_CACHE);
    const forget = (clientId: string) => cache.forget(clientId);
    const options = { onReconnect: () => cache.clear() };
    const unlistenRevoked = await listen(API_CLIENT_REVOKED_CHANNEL, forget, options);
    const unlistenChanged = await listen(API_CLIENT_CHANGED_CHANNEL, forget, options);
    this.unlisten = async () => {
      await unlistenRevoked();
      await unlistenChanged();
    };
    this.keyCache = cache;
  }

  async stop(): Promise<void> {
    this.keyCache = undefined;
    await this.unlisten?.();
    this.unlisten = undefined;
  }

  async create(em: SqlEntityManager, input: CreateApiClientInput): Promise<CreateApiClientResult> {
    const errors = this.validate(input);
    if (errors.length > 0) return { ok: false, errors };

    const key = generateKey();
    const client = em.create(ApiClient, {
      id: newId('cli'),
      name: input.name,
      roles: [...new Set(input.roles)] as Role[],
      keyPrefix: key.slice(0, 10),
      keyHash: hashKey(key),
      merchantAccounts: input.merchantAccounts ? [...new Set(input.merchantAccounts)] : null,
      trustedDocumentsOnly: false,
      createdAt: new Date(),
    });
    try {
      await em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        return { ok: false, errors: [{ field: ['name'], code: 'NAME_TAKEN', message: `A client named "${input.name}" already exists` }] };
      }
      throw error;
    }
    return { ok: true, client, key };
  }

  /**
   * The active client holding `key`, or null for a malformed, unknown or revoked key. The lookup
   * is by SHA-256 of the key: keys carry 256 random bits, so a fast hash is enough and the stored
   * value is useless to anyone who reads the table. Once started, a key seen recently costs no
   * statement; the client returned is then shared by every request with that key and must not be
   * changed.
   */
  async authenticate(em: SqlEntityManager, key: string, now = new Date()): Promise<ApiClient | null> {
    if (!KEY_PATTERN.test(key)) return null;
    const keyHash = hashKey(key);
    const cache = this.keyCache;
    const cached = cache?.get(keyHash, now.getTime());
    if (cached) return cached;
    if (this.failedKeys.has(keyHash, Date.now())) return null;
    const generation = cache?.generation();
    const client = await em.findOne(ApiClient, { keyHash });
    if (!client || client.isRevoked()) {
      this.failedKeys.remember(keyHash, Date.now());
      return null;
    }
    if (!client.lastUsedAt || now.getTime() - client.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
      await em.nativeUpdate(ApiClient, { id: client.id }, { lastUsedAt: now });
      client.lastUsedAt = now;
    }
    if (!cache || generation === undefined) return client;
    const copy = detachedClient(client);
    cache.store(keyHash, copy, generation, Date.now());
    return copy;
  }

  list(em: SqlEntityManager): Promise<ApiClient[]> {
    return em.find(ApiClient, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  /** Up to `limit` clients after the given position, oldest first. */
  page(em: SqlEntityManager, limit: number, after?: { createdAt: Date; id: string }): Promise<ApiClient[]> {
    const where = after
      ? { $or: [{ createdAt: { $gt: after.createdAt } }, { createdAt: after.createdAt, id: { $gt: after.id } }] }
      : {};
    return em.find(ApiClient, where, { orderBy: { createdAt: 'asc', id: 'asc' }, limit });
  }

  findById(em: SqlEntityManager, id: string): Promise<ApiClient | null> {
    return em.findOne(ApiClient, { id });
  }

  findByName(em: SqlEntityManager, name: string): Promise<ApiClient | null> {
    return em.findOne(ApiClient, { name });
  }

  /**
   * Revokes a client's key at once: every later request fails, and every gateway instance closes
   * the client's open subscription sockets when the revocation commits. Revoking twice keeps the
   * first revocation time (and closes any socket still open).
   */
  async revoke(em: SqlEntityManager, id: string): Promise<{ ok: true; client: ApiClient } | { ok: false; errors: FieldError[] }> {
    const client = await em.transactional(async (tx) => {
      const found = await tx.findOne(ApiClient, { id });
      if (!found) return null;
      found.revokedAt ??= new Date();
      await tx.flush();
      await tx.execute('select pg_notify(?, ?)', [API_CLIENT_REVOKED_CHANNEL, found.id]);
      return found;
    });
    if (!client) return { ok: false, errors: [{ field: ['id'], code: 'NOT_FOUND', message: `No client with id ${id}` }] };
    // Refused here from now on, without waiting for the notification to come back.
    this.keyCache?.forget(client.id);
    return { ok: true, client };
  }

  /**
   * Marks a client trusted-documents-only (it may then run only the documents of the
   * persisted-documents manifest) or lets it send full documents again. Like a revocation, the
   * change reaches every instance's key cache when it commits, so no instance goes on answering
   * with the old rule.
   */
  async setTrustedDocumentsOnly(em: SqlEntityManager, id: string, trustedDocumentsOnly: boolean, callerId?: string): Promise<{ ok: true; client: ApiClient } | { ok: false; errors: FieldError[] }> {
    // An admin restricted to the manifest's documents could not send this mutation again to undo
    // it (the manifest holds no admin tooling): it would lock itself out. Another admin may.
    if (trustedDocumentsOnly && id === callerId) {
      return { ok: false, errors: [{ field: ['id'], code: 'CANNOT_RESTRICT_SELF', message: 'A client cannot make itself trusted-documents-only: it could not undo it. Ask another admin.' }] };
    }
    const client = await em.transactional(async (tx) => {
      const found = await tx.findOne(ApiClient, { id });
      if (!found) return null;
      found.trustedDocumentsOnly = trustedDocumentsOnly;
      await tx.flush();
      await tx.execute('select pg_notify(?, ?)', [API_CLIENT_CHANGED_CHANNEL, found.id]);
      return found;
    });
    if (!client) return { ok: false, errors: [{ field: ['id'], code: 'NOT_FOUND', message: `No client with id ${id}` }] };
    // The new rule holds here from now on, without waiting for the notification to come back.
    this.keyCache?.forget(client.id);
    return { ok: true, client };
  }

  private validate(input: CreateApiClientInput): FieldError[] {
    const errors: FieldError[] = [];
    if (!NAME_PATTERN.test(input.name)) {
      errors.push({ field: ['name'], code: 'INVALID_FORMAT', message: 'Name must be 1-100 letters, digits, spaces or ._()- and start with a letter or digit' });
    }
    if (input.roles.length === 0) {
      errors.push({ field: ['roles'], code: 'FIELD_REQUIRED', message: 'A client needs at least one role' });
    }
    input.roles.forEach((role, index) => {
      if (!isRole(role)) {
        errors.push({ field: ['roles', String(index)], code: 'INVALID_VALUE', message: `Unknown role "${role}"; roles are CASHIER, PAYOUTS, REFUNDS, ADMIN` });
      }
    });
    const known = new Set(this.knownAccounts());
    input.merchantAccounts?.forEach((code, index) => {
      if (!known.has(code)) {
        errors.push({ field: ['merchantAccounts', String(index)], code: 'NOT_FOUND', message: `No merchant account "${code}"` });
      }
    });
    return errors;
  }
}
