// Internal API clients and their keys: creating a client with its first key and adding keys to it
// (each shown once), listing, revoking a key or a whole client, marking a client
// trusted-documents-only and holding it to its limits; authenticating keys is key-authentication.ts's,
// which this service starts and asks. Knows nothing of HTTP or GraphQL.

import { randomBytes } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import { isoString } from '../../lib/iso-time.js';
import type { FieldError } from '../../providers/provider.js';
import { ApiClient } from './api-client.entity.js';
import { ApiKey, isExpired } from './api-key.entity.js';
import {
  API_CLIENT_CHANGED_CHANNEL,
  API_CLIENT_REVOKED_CHANNEL,
  API_KEY_REVOKED_CHANNEL,
  hashKey,
  KeyAuthenticator,
  type KeyAuthentication,
  type Listen,
} from './key-authentication.js';
import type { SummarisedLog } from '../../lib/summarised-log.js';
import { DEFAULT_CLIENT_LIMITS, MAX_CLIENT_LIMIT, type ClientLimits } from '../../config.js';
import { ClientLimiter, effectiveLimits, type Admission, type StoredLimits } from './client-limits.js';
import { isRole, type Role } from '../../kernel/roles.js';

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._()-]{0,99}$/;
export interface CreateApiClientInput {
  name: string;
  roles: string[];
  /** Merchant account codes the client may use; omitted means all. */
  merchantAccounts?: string[];
}

export type CreateApiClientResult =
  | { ok: true; client: ApiClient; /** Shown once; only its hash is stored. */ key: string; apiKey: ApiKey }
  | { ok: false; errors: FieldError[] };

export interface CreateApiKeyInput {
  clientId: string;
  /** When the key stops working; null or omitted: never. Must be in the future. */
  expiresAt?: Date | null;
}

export type CreateApiKeyResult =
  | { ok: true; apiKey: ApiKey; /** Shown once; only its hash is stored. */ key: string }
  | { ok: false; errors: FieldError[] };

export type RevokeApiKeyResult = { ok: true; apiKey: ApiKey } | { ok: false; errors: FieldError[] };

/**
 * Work a revocation does in its own transaction for a module that keeps something of the client
 * (its notification endpoints are disabled): it commits with the revocation, or not at all.
 * Given to the service where the modules are wired together (src/services.ts).
 */
export type RevocationHook = (tx: SqlEntityManager, clientId: string) => Promise<void>;

function generateKey(): string {
  return `gw_${randomBytes(32).toString('base64url')}`;
}

export class ApiClientService {
  /** Authenticates keys, from memory once started (key-authentication.ts). */
  private readonly keys: KeyAuthenticator;

  /** Each client's request rate and subscriptions, held from memory (client-limits.ts). */
  readonly limiter: ClientLimiter;

  constructor(
    private readonly knownAccounts: () => string[],
    /** Where refused keys are told, a bounded number of lines (none: not logged, as in the CLI). */
    authFailures?: SummarisedLog,
    defaultLimits: ClientLimits = DEFAULT_CLIENT_LIMITS,
    /** Work added to every revocation's transaction (`RevocationHook`). */
    private readonly revocationHooks: readonly RevocationHook[] = [],
  ) {
    this.keys = new KeyAuthenticator(authFailures);
    this.limiter = new ClientLimiter(defaultLimits);
  }

  /** The limits `client` is held to: its own, or the gateway's defaults. */
  limitsOf(client: StoredLimits): ClientLimits {
    return effectiveLimits(client, this.limiter.defaults);
  }

  /** One request of the client's rate (HTTP, or a graphql-ws operation), or when to try again. */
  admit(client: ApiClient): Admission {
    return this.limiter.take(client.id, this.limitsOf(client));
  }

  /** One of the client's subscriptions, unless it holds its maximum (the number, for the refusal). */
  openSubscription(client: ApiClient): { ok: true } | { ok: false; maxSubscriptions: number } {
    const limits = this.limitsOf(client);
    return this.limiter.openSubscription(client.id, limits) ? { ok: true } : { ok: false, maxSubscriptions: limits.maxSubscriptions };
  }

  /** Gives back a subscription `openSubscription` opened. */
  closeSubscription(clientId: string): void {
    this.limiter.closeSubscription(clientId);
  }

  /**
   * Sets a client's limits, at once on every instance: a value given replaces the client's own, null
   * gives it back the gateway's default, and one left out stays as it is.
   */
  async setLimits(
    em: SqlEntityManager,
    id: string,
    input: { requestsPerSecond?: number | null; burst?: number | null; maxSubscriptions?: number | null },
  ): Promise<{ ok: true; client: ApiClient } | { ok: false; errors: FieldError[] }> {
    const errors: FieldError[] = [];
    for (const [field, value, least] of [['requestsPerSecond', input.requestsPerSecond, 1], ['burst', input.burst, 1], ['maxSubscriptions', input.maxSubscriptions, 0]] as const) {
      if (value != null && (!Number.isInteger(value) || value < least || value > MAX_CLIENT_LIMIT)) {
        errors.push({ field: [field], code: 'LIMIT_OUT_OF_RANGE', message: `${field} must be a whole number from ${least} to ${MAX_CLIENT_LIMIT}, or null for the gateway's default` });
      }
    }
    if (errors.length > 0) return { ok: false, errors };
    return this.change(em, id, 'clientId', (client) => {
      if (input.requestsPerSecond !== undefined) client.requestsPerSecond = input.requestsPerSecond;
      if (input.burst !== undefined) client.requestBurst = input.burst;
      if (input.maxSubscriptions !== undefined) client.maxSubscriptions = input.maxSubscriptions;
    });
  }

  /**
   * Changes a client's rules in a transaction that tells every instance (`api_client_changed`);
   * they hold here from now on, without waiting for the notification to come back.
   */
  private async change(em: SqlEntityManager, id: string, idField: string, apply: (client: ApiClient) => void): Promise<{ ok: true; client: ApiClient } | { ok: false; errors: FieldError[] }> {
    const client = await em.transactional(async (tx) => {
      const found = await tx.findOne(ApiClient, { id });
      if (!found) return null;
      apply(found);
      await tx.flush();
      await tx.execute('select pg_notify(?, ?)', [API_CLIENT_CHANGED_CHANNEL, found.id]);
      return found;
    });
    if (!client) return { ok: false, errors: [{ field: [idField], code: 'NOT_FOUND', message: `No client with id ${id}` }] };
    this.keys.forget(client.id);
    return { ok: true, client };
  }

  /**
   * Starts caching authenticated clients, and forgetting each one (or each key) whose revocation or
   * change of rules any instance (or the CLI) commits (`KeyAuthenticator.start`).
   */
  start(listen: Listen): Promise<void> {
    return this.keys.start(listen);
  }

  stop(): Promise<void> {
    return this.keys.stop();
  }

  async create(em: SqlEntityManager, input: CreateApiClientInput): Promise<CreateApiClientResult> {
    const errors = this.validate(input);
    if (errors.length > 0) return { ok: false, errors };

    const now = new Date();
    const key = generateKey();
    let created: { client: ApiClient; apiKey: ApiKey };
    try {
      created = await em.transactional(async (tx) => {
        const client = tx.create(ApiClient, {
          id: newId('cli'),
          name: input.name,
          roles: [...new Set(input.roles)] as Role[],
          merchantAccounts: input.merchantAccounts ? [...new Set(input.merchantAccounts)] : null,
          trustedDocumentsOnly: false,
          createdAt: now,
        });
        // The client's row first: its key refers to it.
        await tx.flush();
        return { client, apiKey: await insertKey(tx, client.id, key, null, now) };
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        return { ok: false, errors: [{ field: ['name'], code: 'NAME_TAKEN', message: `A client named "${input.name}" already exists` }] };
      }
      throw error;
    }
    return { ok: true, ...created, key };
  }

  /**
   * Adds a key to a client, which keeps its other keys: the way to roll a key without a moment in
   * which the client has none. The key is returned once; only its hash is stored. A revoked client
   * gets no new key, and an expiry must be a valid time in the future.
   */
  async createKey(em: SqlEntityManager, input: CreateApiKeyInput, now = new Date()): Promise<CreateApiKeyResult> {
    const expiresAt = input.expiresAt ?? null;
    if (expiresAt !== null && Number.isNaN(expiresAt.getTime())) {
      return { ok: false, errors: [{ field: ['expiresAt'], code: 'INVALID_FORMAT', message: 'expiresAt must be an ISO 8601 date-time with an offset, such as 2027-01-31T00:00:00Z' }] };
    }
    if (expiresAt !== null && isExpired(expiresAt, now)) {
      return { ok: false, errors: [{ field: ['expiresAt'], code: 'EXPIRY_OUT_OF_RANGE', message: `expiresAt must be in the future (it is ${isoString(now)} now); omit it for a key that does not expire` }] };
    }
    const key = generateKey();
    return em.transactional(async (tx): Promise<CreateApiKeyResult> => {
      // Locked, so that a revocation of the client committing meanwhile is seen, not raced.
      const client = await tx.findOne(ApiClient, { id: input.clientId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!client) return { ok: false, errors: [{ field: ['clientId'], code: 'NOT_FOUND', message: `No client with id ${input.clientId}` }] };
      if (client.isRevoked()) return { ok: false, errors: [{ field: ['clientId'], code: 'CLIENT_REVOKED', message: `Client ${client.id} is revoked: it gets no new key` }] };
      return { ok: true, apiKey: await insertKey(tx, client.id, key, expiresAt, now), key };
    });
  }

  /**
   * Revokes one key at once: every later request with it fails, and every gateway instance closes
   * the sockets opened with it when the revocation commits. The client and its other keys stay.
   * Revoking twice keeps the first revocation time (and closes any socket still open). A client may
   * be left with no usable key (an admin then adds one, or revokes the client), except the caller
   * itself (`callerId`): an admin revoking its own last usable key could never act again, so that
   * is refused (CANNOT_REVOKE_OWN_LAST_KEY); another admin may.
   */
  async revokeKey(em: SqlEntityManager, keyId: string, callerId?: string): Promise<RevokeApiKeyResult> {
    const outcome = await em.transactional(async (tx): Promise<RevokeApiKeyResult> => {
      // The client's row is locked first: two revocations of one client's keys take turns, so that
      // each sees what the other left usable.
      const owner = await tx.execute<Array<{ id: string }>>('select c.id from api_client c join api_key k on k.client_id = c.id where k.id = ? for update of c', [keyId]);
      if (owner.length === 0) return { ok: false, errors: [{ field: ['keyId'], code: 'NOT_FOUND', message: `No key with id ${keyId}` }] };
      const apiKey = await tx.findOneOrFail(ApiKey, { id: keyId });
      const now = new Date();
      if (apiKey.clientId === callerId && apiKey.revokedAt == null) {
        const others = await tx.count(ApiKey, { clientId: callerId, id: { $ne: keyId }, revokedAt: null, $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] });
        if (others === 0) {
          return {
            ok: false,
            errors: [{ field: ['keyId'], code: 'CANNOT_REVOKE_OWN_LAST_KEY', message: 'This is the last usable key of the client calling: revoking it would lock it out. Create another key first, or ask another admin.' }],
          };
        }
      }
      apiKey.revokedAt ??= now;
      await tx.flush();
      await tx.execute('select pg_notify(?, ?)', [API_KEY_REVOKED_CHANNEL, apiKey.id]);
      return { ok: true, apiKey };
    });
    // Refused here from now on, without waiting for the notification to come back.
    if (outcome.ok) this.keys.forgetKey(outcome.apiKey.id);
    return outcome;
  }

  /** The active client holding `key`, with the key, or why it is refused (`KeyAuthenticator.authenticateKey`). */
  authenticateKey(em: SqlEntityManager, key: string, now = new Date()): Promise<KeyAuthentication> {
    return this.keys.authenticateKey(em, key, now);
  }

  /** `authenticateKey`'s answer for a key known without the database, without a promise; undefined otherwise (`KeyAuthenticator.authenticateKnownKey`). */
  authenticateKnownKey(key: string, now = Date.now()): KeyAuthentication | undefined {
    return this.keys.authenticateKnownKey(key, now);
  }

  /** The active client holding `key`, or null when the key is refused (see {@link authenticateKey}). */
  authenticate(em: SqlEntityManager, key: string, now = new Date()): Promise<ApiClient | null> {
    return this.keys.authenticate(em, key, now);
  }

  /** The keys of each client, oldest first, in one statement. */
  async keysOf(em: SqlEntityManager, clientIds: readonly string[]): Promise<Map<string, ApiKey[]>> {
    const keys = new Map<string, ApiKey[]>(clientIds.map((id) => [id, []]));
    if (clientIds.length === 0) return keys;
    for (const key of await em.find(ApiKey, { clientId: { $in: [...clientIds] } }, { orderBy: { clientId: 'asc', createdAt: 'asc', id: 'asc' } })) keys.get(key.clientId)?.push(key);
    return keys;
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
   * the client's open subscription sockets when the revocation commits. The registered hooks run in
   * the same transaction. Revoking twice keeps the first revocation time (and closes any socket
   * still open, and runs the hooks again).
   */
  async revoke(em: SqlEntityManager, id: string): Promise<{ ok: true; client: ApiClient } | { ok: false; errors: FieldError[] }> {
    const client = await em.transactional(async (tx) => {
      const found = await tx.findOne(ApiClient, { id });
      if (!found) return null;
      found.revokedAt ??= new Date();
      await tx.flush();
      for (const hook of this.revocationHooks) await hook(tx, found.id);
      await tx.execute('select pg_notify(?, ?)', [API_CLIENT_REVOKED_CHANNEL, found.id]);
      return found;
    });
    if (!client) return { ok: false, errors: [{ field: ['id'], code: 'NOT_FOUND', message: `No client with id ${id}` }] };
    // Refused here from now on, without waiting for the notification to come back.
    this.keys.forget(client.id);
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
    return this.change(em, id, 'id', (client) => {
      client.trustedDocumentsOnly = trustedDocumentsOnly;
    });
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

/** Inserts a key of `clientId` whose secret is `key`. */
async function insertKey(tx: SqlEntityManager, clientId: string, key: string, expiresAt: Date | null, now: Date): Promise<ApiKey> {
  const apiKey = tx.create(ApiKey, { id: newId('key', now.getTime()), clientId, prefix: key.slice(0, 10), hash: hashKey(key), createdAt: now, expiresAt, lastUsedAt: null, revokedAt: null });
  await tx.flush();
  return apiKey;
}
