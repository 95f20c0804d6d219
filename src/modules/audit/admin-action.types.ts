// GraphQL shapes of the admin audit trail.

import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/relay.js';
import type { AdminAction } from './admin-action.entity.js';

@ObjectType('AdminActionObject', { description: 'An object an admin action named or touched.' })
export class AdminActionObjectNode {
  @Field({ description: 'Where the id came from: an argument (`id`, `input.depositId`) or a payload field (`client`, `deposit`, `delivery`).' })
  kind!: string;

  @Field(() => ID, { description: 'The object\'s id, e.g. dep_… or cli_….' })
  id!: string;
}

@ObjectType('AdminAction', { description: 'One action taken with an ADMIN key: who did what to which objects, and how it ended.' })
export class AdminActionNode {
  @Field(() => ID, { description: 'The action\'s id.' })
  id!: string;

  @Field({ description: 'The mutation, e.g. revokeApiClient.' })
  action!: string;

  @Field(() => ID, { description: 'The API client that acted.' })
  clientId!: string;

  @Field({ description: 'Its name when it acted.' })
  clientName!: string;

  @Field({ description: 'The request id (X-Request-Id) of the HTTP request or graphql-ws operation, to find its log lines.' })
  requestId!: string;

  @Field(() => [AdminActionObjectNode], { description: 'The objects the action named or touched.' })
  objects!: AdminActionObjectNode[];

  @Field(() => String, {
    nullable: true,
    description: 'OK, the first userError code, or the error code (e.g. INTERNAL_SERVER_ERROR); null while the action runs, or if the gateway stopped before it ended.',
  })
  outcome!: string | null;

  @Field({ description: 'When the action started.' })
  startedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the action ended; null while it runs, or if the gateway stopped before it ended.' })
  finishedAt!: Date | null;

  static from(row: AdminAction): AdminActionNode {
    return Object.assign(new AdminActionNode(), {
      id: row.id,
      action: row.action,
      clientId: row.clientId,
      clientName: row.clientName,
      requestId: row.requestId,
      objects: row.objects.map((object) => Object.assign(new AdminActionObjectNode(), object)),
      outcome: row.outcome ?? null,
      startedAt: row.startedAt,
      finishedAt: row.finishedAt ?? null,
    });
  }
}

@ObjectType({ description: 'A page of admin actions, newest first.' })
export class AdminActionConnection extends connectionType(AdminActionNode, 'AdminAction') {}

@InputType({ description: 'Narrows adminActions; every field given must match.' })
export class AdminActionFilter {
  @Field(() => String, { nullable: true, description: 'The mutation, e.g. revokeApiClient.' })
  action?: string;

  @Field(() => ID, { nullable: true, description: 'The client that acted.' })
  clientId?: string;

  @Field(() => ID, { nullable: true, description: 'Actions that named or touched this object.' })
  objectId?: string;
}
