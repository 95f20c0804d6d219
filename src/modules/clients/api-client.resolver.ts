import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GatewayContext, RequestContext } from '../../graphql/context.js';
import { AFTER_ARGUMENT, decodeCursor, FIRST_ARGUMENT, isTimeIdCursor, pageSize, toConnection } from '../../graphql/relay.js';
import { userErrors } from '../../graphql/user-error.js';
import {
  ApiClientConnection,
  ApiClientNode,
  CreateApiClientInput,
  CreateApiClientPayload,
  RevokeApiClientInput,
  RevokeApiClientPayload,
  SetApiClientTrustedDocumentsInput,
  SetApiClientTrustedDocumentsPayload,
} from './api-client.types.js';

@Resolver()
export class ApiClientResolver {
  @Authorized()
  @Query(() => ApiClientNode, { description: 'The client making this request.' })
  viewer(@Ctx() { client }: RequestContext): ApiClientNode {
    return ApiClientNode.from(client!);
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
  @Mutation(() => RevokeApiClientPayload, { description: 'Revokes a client\'s key at once. Admins only.' })
  async revokeApiClient(@Ctx() { em, services }: GatewayContext, @Arg('input', { description: 'The client to revoke.' }) input: RevokeApiClientInput): Promise<RevokeApiClientPayload> {
    const result = await services.clients.revoke(em, input.id);
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
