import { Arg, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GatewayContext, RequestContext } from '../../graphql/context.js';
import { loaders } from '../../graphql/loaders.js';
import { AFTER_ARGUMENT, decodeCursor, FIRST_ARGUMENT, isTimeIdCursor, pageSize, toConnection } from '../../graphql/relay.js';
import { userErrors } from '../../graphql/user-error.js';
import {
  ApiClientConnection,
  ApiClientNode,
  ApiKeyNode,
  CreateApiClientInput,
  CreateApiClientPayload,
  CreateApiKeyInput,
  CreateApiKeyPayload,
  RevokeApiClientInput,
  RevokeApiClientPayload,
  RevokeApiKeyInput,
  RevokeApiKeyPayload,
  ClientLimitsNode,
  SetApiClientLimitsInput,
  SetApiClientLimitsPayload,
  SetApiClientTrustedDocumentsInput,
  SetApiClientTrustedDocumentsPayload,
} from './api-client.types.js';

@Resolver(() => ApiClientNode)
export class ApiClientResolver {
  @Authorized()
  @Query(() => ApiClientNode, { description: 'The client making this request.' })
  viewer(@Ctx() { client, apiKey }: RequestContext): ApiClientNode {
    return ApiClientNode.from(client!, apiKey?.prefix);
  }

  @FieldResolver(() => [ApiKeyNode], { description: 'Every key of the client, revoked and expired ones included, oldest first; never the keys themselves.' })
  async keys(@Root() client: ApiClientNode, @Ctx() ctx: GatewayContext): Promise<ApiKeyNode[]> {
    return (await loaders(ctx).apiKeys.load(client.id)).map((key) => ApiKeyNode.from(key));
  }

  @FieldResolver(() => String, {
    description: 'First characters of a key, to tell keys apart: for `viewer`, of the key this request uses; otherwise of the client\'s newest usable key (or newest key, when none is usable).',
    deprecationReason: 'A client may hold several keys: read `keys { prefix }`.',
  })
  async keyPrefix(@Root() client: ApiClientNode, @Ctx() ctx: GatewayContext): Promise<string> {
    if (client.callerKeyPrefix !== undefined) return client.callerKeyPrefix;
    const keys = await loaders(ctx).apiKeys.load(client.id);
    const now = new Date();
    // Every client has a key: one is made with it, and keys are never deleted.
    return (keys.findLast((key) => key.isUsable(now)) ?? keys.at(-1))?.prefix ?? '';
  }

  @FieldResolver(() => Date, { nullable: true, description: 'About when any key of the client was last used (updated at most once a minute per key); null if never.' })
  async lastUsedAt(@Root() client: ApiClientNode, @Ctx() ctx: GatewayContext): Promise<Date | null> {
    let last: Date | null = null;
    for (const key of await loaders(ctx).apiKeys.load(client.id)) {
      if (key.lastUsedAt && (!last || key.lastUsedAt > last)) last = key.lastUsedAt;
    }
    return last;
  }

  @FieldResolver(() => ClientLimitsNode, { description: 'What the client may send: its own limits, or the gateway\'s defaults (setApiClientLimits).' })
  limits(@Root() client: ApiClientNode, @Ctx() { services }: GatewayContext): ClientLimitsNode {
    return Object.assign(new ClientLimitsNode(), services.clients.limitsOf(client.storedLimits));
  }

  @Authorized('ADMIN')
  @Query(() => ApiClientConnection, { description: 'Every API client, oldest first. Admins only.' })
  async apiClients(
    @Ctx() { em, services }: GatewayContext,
    @Arg('first', () => Int, FIRST_ARGUMENT) first?: number,
    @Arg('after', () => String, AFTER_ARGUMENT) after?: string,
  ): Promise<ApiClientConnection> {
    const size = pageSize(first);
    const cursor = after ? decodeCursor(after, isTimeIdCursor) : undefined;
    const rows = await services.clients.page(em, size + 1, cursor && { createdAt: new Date(cursor[0]), id: cursor[1] });
    return toConnection(rows, size, (row) => [row.createdAt.toISOString(), row.id], (row) => ApiClientNode.from(row), Boolean(cursor));
  }

  @Authorized('ADMIN')
  @Mutation(() => CreateApiClientPayload, { description: 'Creates an API client and returns its key, once. Admins only.' })
  async createApiClient(@Ctx() { em, services }: GatewayContext, @Arg('input', { description: 'The new client\'s name, roles and accounts.' }) input: CreateApiClientInput): Promise<CreateApiClientPayload> {
    const result = await services.clients.create(em, input);
    return result.ok
      ? { client: ApiClientNode.from(result.client), key: result.key, userErrors: [] }
      : { client: null, key: null, userErrors: userErrors(result.errors) };
  }

  @Authorized('ADMIN')
  @Mutation(() => CreateApiKeyPayload, {
    description: 'Adds a key to a client and returns it, once; the client\'s other keys keep working, so a key can be rolled with no gap. Admins only.',
  })
  async createApiKey(@Ctx() { em, services }: GatewayContext, @Arg('input', { description: 'The client, and when the key expires.' }) input: CreateApiKeyInput): Promise<CreateApiKeyPayload> {
    const result = await services.clients.createKey(em, { clientId: input.clientId, expiresAt: input.expiresAt ?? null });
    return result.ok ? { apiKey: ApiKeyNode.from(result.apiKey), key: result.key, userErrors: [] } : { apiKey: null, key: null, userErrors: userErrors(result.errors) };
  }

  @Authorized('ADMIN')
  @Mutation(() => RevokeApiKeyPayload, {
    description:
      'Revokes one key at once, on every instance, and closes the sockets opened with it (4403); the client and its other keys stay. Admins only; an admin cannot revoke its own last usable key (CANNOT_REVOKE_OWN_LAST_KEY).',
  })
  async revokeApiKey(@Ctx() { em, services, client }: GatewayContext, @Arg('input', { description: 'The key to revoke.' }) input: RevokeApiKeyInput): Promise<RevokeApiKeyPayload> {
    const result = await services.clients.revokeKey(em, input.keyId, client?.id);
    return result.ok ? { apiKey: ApiKeyNode.from(result.apiKey), userErrors: [] } : { apiKey: null, userErrors: userErrors(result.errors) };
  }

  @Authorized('ADMIN')
  @Mutation(() => RevokeApiClientPayload, { description: 'Revokes a client and every key of it at once. Admins only.' })
  async revokeApiClient(@Ctx() { em, services }: GatewayContext, @Arg('input', { description: 'The client to revoke.' }) input: RevokeApiClientInput): Promise<RevokeApiClientPayload> {
    const result = await services.clients.revoke(em, input.id);
    return result.ok ? { client: ApiClientNode.from(result.client), userErrors: [] } : { client: null, userErrors: userErrors(result.errors) };
  }

  @Authorized('ADMIN')
  @Mutation(() => SetApiClientLimitsPayload, {
    description: 'Sets what a client may send (requests a second, burst, subscriptions held), at once on every instance. Admins only.',
  })
  async setApiClientLimits(@Ctx() { em, services }: GatewayContext, @Arg('input', { description: 'The client and its new limits.' }) input: SetApiClientLimitsInput): Promise<SetApiClientLimitsPayload> {
    const result = await services.clients.setLimits(em, input.clientId, input);
    return result.ok ? { client: ApiClientNode.from(result.client), userErrors: [] } : { client: null, userErrors: userErrors(result.errors) };
  }

  @Authorized('ADMIN')
  @Mutation(() => SetApiClientTrustedDocumentsPayload, {
    description: 'Marks a client trusted-documents-only, or lets it send full documents again; takes effect at once, on every instance. Admins only; an admin cannot restrict itself (CANNOT_RESTRICT_SELF), since it could not undo it.',
  })
  async setApiClientTrustedDocuments(
    @Ctx() { em, services, client }: GatewayContext,
    @Arg('input', { description: 'The client and its new rule.' }) input: SetApiClientTrustedDocumentsInput,
  ): Promise<SetApiClientTrustedDocumentsPayload> {
    const result = await services.clients.setTrustedDocumentsOnly(em, input.id, input.trustedDocumentsOnly, client?.id);
    return result.ok ? { client: ApiClientNode.from(result.client), userErrors: [] } : { client: null, userErrors: userErrors(result.errors) };
  }
}
