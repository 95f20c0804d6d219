// GraphQL shapes of internal API clients: the object, its inputs and payloads. Never the key hash.

import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { Node } from '../../graphql/node.js';
import { connectionType } from '../../graphql/relay.js';
import { UserError } from '../../graphql/user-error.js';
import type { ApiClient } from './api-client.entity.js';
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

@ObjectType('ApiClient', { implements: Node, description: 'An internal client of the gateway and its access.' })
export class ApiClientNode extends Node {
  @Field({ description: 'Unique name of the client, e.g. web-cashier.' })
  name!: string;

  @Field(() => [RoleEnum], { description: 'What the client may do.' })
  roles!: Role[];

  @Field({ description: 'First characters of the key, to tell keys apart. The key itself is shown once, at creation.' })
  keyPrefix!: string;

  @Field(() => [String], { nullable: true, description: 'Merchant accounts the client may use; null means all.' })
  merchantAccounts!: string[] | null;

  @Field({ description: 'True when the client may run only the documents of the persisted-documents manifest (by hash), and is refused any other document. Set with setApiClientTrustedDocuments.' })
  trustedDocumentsOnly!: boolean;

  @Field({ description: 'When the client was created.' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'About when its key was last used (updated at most once a minute); null if never.' })
  lastUsedAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When it was revoked; null while its key is valid.' })
  revokedAt!: Date | null;

  static from(client: ApiClient): ApiClientNode {
    return Object.assign(new ApiClientNode(), {
      id: client.id,
      name: client.name,
      roles: client.roles,
      keyPrefix: client.keyPrefix,
      merchantAccounts: client.merchantAccounts ?? null,
      trustedDocumentsOnly: client.trustedDocumentsOnly,
      createdAt: client.createdAt,
      lastUsedAt: client.lastUsedAt ?? null,
      revokedAt: client.revokedAt ?? null,
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
