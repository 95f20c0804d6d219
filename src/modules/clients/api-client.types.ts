// GraphQL shapes of internal API clients and their keys: the objects, inputs and payloads. Never a
// key's hash, and a key's secret only in the payload that creates it.

import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Node } from '../../graphql/node.js';
import { connectionType } from '../../graphql/relay.js';
import { UserError } from '../../graphql/user-error.js';
import type { ApiClient } from './api-client.entity.js';
import type { ApiKey } from './api-key.entity.js';
import type { StoredLimits } from './client-limits.js';
import type { Role } from '../../kernel/roles.js';

export const RoleEnum = { CASHIER: 'CASHIER', PAYOUTS: 'PAYOUTS', REFUNDS: 'REFUNDS', ADMIN: 'ADMIN' } as const satisfies Record<Role, Role>;

registerEnumType(RoleEnum, {
  name: 'Role',
  description: 'What an API client may do.',
  valuesConfig: {
    CASHIER: { description: 'Create deposits and QR codes; read and subscribe to its own.' },
    PAYOUTS: { description: 'Create and read payouts.' },
    REFUNDS: { description: 'Request and read refunds.' },
    ADMIN: { description: 'Everything, every client\'s data, introspection.' },
  },
});

@ObjectType('ApiKey', { description: 'One key of an API client. The key itself is shown once, when it is created; only its prefix is kept in clear.' })
export class ApiKeyNode {
  @Field(() => ID, { description: 'The key\'s id (key_…), to revoke it; not the key.' })
  id!: string;

  @Field(() => ID, { description: 'The client the key belongs to.' })
  clientId!: string;

  @Field({ description: 'First characters of the key, to tell keys apart.' })
  prefix!: string;

  @Field({ description: 'When the key was created.' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'From this time on the key is refused (UNAUTHENTICATED, "expired") and the sockets opened with it are closed (4403); null if it does not expire.' })
  expiresAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'About when the key was last used (updated at most once a minute); null if never.' })
  lastUsedAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the key was revoked; null while it is not. A revoked client refuses every key, whatever this says.' })
  revokedAt!: Date | null;

  static from(key: ApiKey): ApiKeyNode {
    return Object.assign(new ApiKeyNode(), {
      id: key.id,
      clientId: key.clientId,
      prefix: key.prefix,
      createdAt: key.createdAt,
      expiresAt: key.expiresAt ?? null,
      lastUsedAt: key.lastUsedAt ?? null,
      revokedAt: key.revokedAt ?? null,
    });
  }
}

@ObjectType('ApiClient', { implements: Node, description: 'An internal client of the gateway and its access.' })
export class ApiClientNode extends Node {
  @Field({ description: 'Unique name of the client, e.g. web-cashier.' })
  name!: string;

  @Field(() => [RoleEnum], { description: 'What the client may do.' })
  roles!: Role[];

  /** The prefix of the key the request authenticated with, when this is its caller (`viewer`): known without a lookup. */
  callerKeyPrefix?: string;

  /** Its own limits as stored (null: the gateway's default), for the `limits` field. */
  storedLimits!: StoredLimits;

  @Field(() => [String], { nullable: true, description: 'Merchant accounts the client may use; null means all.' })
  merchantAccounts!: string[] | null;

  @Field({ description: 'True when the client may run only the documents of the persisted-documents manifest (by hash), and is refused any other document. Set with setApiClientTrustedDocuments.' })
  trustedDocumentsOnly!: boolean;

  @Field({ description: 'When the client was created.' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the client was revoked, with every key of it; null while it is not.' })
  revokedAt!: Date | null;

  static from(client: ApiClient, callerKeyPrefix?: string): ApiClientNode {
    return Object.assign(new ApiClientNode(), {
      id: client.id,
      name: client.name,
      roles: client.roles,
      merchantAccounts: client.merchantAccounts ?? null,
      trustedDocumentsOnly: client.trustedDocumentsOnly,
      createdAt: client.createdAt,
      revokedAt: client.revokedAt ?? null,
      storedLimits: { requestsPerSecond: client.requestsPerSecond ?? null, requestBurst: client.requestBurst ?? null, maxSubscriptions: client.maxSubscriptions ?? null },
      ...(callerKeyPrefix === undefined ? {} : { callerKeyPrefix }),
    });
  }
}

@ObjectType({ description: 'A page of API clients, oldest first.' })
export class ApiClientConnection extends connectionType(ApiClientNode, 'ApiClient') {}

@InputType({ description: 'A new API client.' })
export class CreateApiClientInput {
  @Field({ description: 'Unique name: 1 to 100 letters, digits, spaces or ._()-, starting with a letter or digit.' })
  name!: string;

  @Field(() => [RoleEnum], { description: 'At least one role.' })
  roles!: Role[];

  @Field(() => [String], { nullable: true, description: 'Limit the client to these merchant account codes; omit for all.' })
  merchantAccounts?: string[];
}

@ObjectType({ description: 'The answer to createApiClient: the client and its key, or what stopped it.' })
export class CreateApiClientPayload {
  @Field(() => ApiClientNode, { nullable: true, description: 'The new client.' })
  client!: ApiClientNode | null;

  @Field(() => String, { nullable: true, description: 'The new key. Shown only here, once: store it now.' })
  key!: string | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' })
  userErrors!: UserError[];
}

@InputType({ description: 'A new key for an API client, which keeps its other keys.' })
export class CreateApiKeyInput {
  @Field(() => ID, { description: 'The client\'s id.' })
  clientId!: string;

  @Field(() => Date, { nullable: true, description: 'When the key stops working: a time in the future. Omit it, or null, for a key that does not expire.' })
  expiresAt?: Date | null;
}

@ObjectType({ description: 'The answer to createApiKey: the key\'s record and the key itself, or what stopped it.' })
export class CreateApiKeyPayload {
  @Field(() => ApiKeyNode, { nullable: true, description: 'The new key\'s record, without the key.' })
  apiKey!: ApiKeyNode | null;

  @Field(() => String, { nullable: true, description: 'The new key. Shown only here, once: store it now.' })
  key!: string | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' })
  userErrors!: UserError[];
}

@InputType({ description: 'The key to revoke.' })
export class RevokeApiKeyInput {
  @Field(() => ID, { description: 'The key\'s id (key_…), as `ApiClient.keys` lists it.' })
  keyId!: string;
}

@ObjectType({ description: 'The answer to revokeApiKey: the revoked key\'s record, or what stopped it.' })
export class RevokeApiKeyPayload {
  @Field(() => ApiKeyNode, { nullable: true, description: 'The key, now revoked.' })
  apiKey!: ApiKeyNode | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' })
  userErrors!: UserError[];
}

@InputType({ description: 'The API client to revoke.' })
export class RevokeApiClientInput {
  @Field(() => ID, { description: 'The client\'s id.' })
  id!: string;
}

@ObjectType({ description: 'The answer to revokeApiClient: the revoked client, or what stopped it.' })
export class RevokeApiClientPayload {
  @Field(() => ApiClientNode, { nullable: true, description: 'The client, now revoked.' })
  client!: ApiClientNode | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' })
  userErrors!: UserError[];
}

@InputType({ description: 'Whether an API client may run only trusted documents.' })
export class SetApiClientTrustedDocumentsInput {
  @Field(() => ID, { description: 'The client\'s id.' })
  id!: string;

  @Field({ description: 'True: the client may run only the documents of the persisted-documents manifest, sent by hash. False: it may send full documents again.' })
  trustedDocumentsOnly!: boolean;
}

@ObjectType({ description: 'The answer to setApiClientTrustedDocuments: the client with its new rule, or what stopped it.' })
export class SetApiClientTrustedDocumentsPayload {
  @Field(() => ApiClientNode, { nullable: true, description: 'The client, with its new rule.' })
  client!: ApiClientNode | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' })
  userErrors!: UserError[];
}

@ObjectType('ClientLimits', { description: 'What a client may send (docs/clients.md "Client limits"): its own limits where an admin set them, the gateway\'s defaults otherwise.' })
export class ClientLimitsNode {
  @Field(() => Int, { description: 'Requests a second, sustained: HTTP requests and graphql-ws subscribe messages alike. Over it: HTTP 429 with Retry-After, or the operation refused, with the code RATE_LIMITED.' })
  requestsPerSecond!: number;

  @Field(() => Int, { description: 'Requests at once above the rate, after a quiet spell.' })
  burst!: number;

  @Field(() => Int, { description: 'Subscriptions held open at once, over every socket and instance. Over it: a new one is refused with SUBSCRIPTION_LIMIT; the others keep running.' })
  maxSubscriptions!: number;
}

@InputType({ description: 'A client\'s new limits: a value replaces its own, null gives it back the gateway\'s default, a field left out stays as it is.' })
export class SetApiClientLimitsInput {
  @Field(() => ID, { description: 'The client\'s id.' })
  clientId!: string;

  @Field(() => Int, { nullable: true, description: 'Requests a second (1 to 1,000,000), or null for the default.' })
  requestsPerSecond?: number | null;

  @Field(() => Int, { nullable: true, description: 'Requests at once above the rate (1 to 1,000,000), or null for the default.' })
  burst?: number | null;

  @Field(() => Int, { nullable: true, description: 'Subscriptions held at once (0 to 1,000,000), or null for the default.' })
  maxSubscriptions?: number | null;
}

@ObjectType({ description: 'The answer to setApiClientLimits: the client with its limits, or what stopped it.' })
export class SetApiClientLimitsPayload {
  @Field(() => ApiClientNode, { nullable: true, description: 'The client, with its new limits.' })
  client!: ApiClientNode | null;

  @Field(() => [UserError], { description: 'What stopped the operation, each with its input field and code; empty when it succeeded.' })
  userErrors!: UserError[];
}
