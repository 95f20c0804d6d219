// The schema a subscription group runs each event through (src/server/fan-out.ts): the gateway's
// schema, except that each Subscription field resolves through its payload mapping alone, the
// function its type-graphql method returns. The public schema's Subscription fields go through
// type-graphql's middleware (the `@Authorized` check), which makes every resolve a promise, so a
// group's payload would wait behind everything the commit queued before it. Here a payload whose
// fields need no read is ready in the same call as the commit that published it.
//
// Nothing is authorized twice and nothing is skipped: each member subscribed as itself, through
// the public schema's `subscribe` and its check, and a group's run has no client, only the
// visibility of its members' class (src/graphql/auth.ts), which the nested fields still read.

import { GraphQLObjectType, GraphQLSchema, type GraphQLFieldConfigMap } from 'graphql';
import { depositOfEvent } from '../../modules/deposits/deposit.resolver.js';
import { payoutOfEvent } from '../../modules/payouts/payout.resolver.js';
import { refundOfEvent } from '../../modules/refunds/refund.resolver.js';
import type { Heartbeat } from '../heartbeat.resolver.js';

/** Each Subscription field's payload mapping: what its resolver method returns for an event. */
export const SUBSCRIPTION_PAYLOADS: Readonly<Record<string, (event: never) => unknown>> = {
  depositUpdated: depositOfEvent,
  refundUpdated: refundOfEvent,
  payoutUpdated: payoutOfEvent,
  // A tick is its own payload (heartbeat.resolver.ts).
  heartbeat: (tick: Heartbeat) => tick,
};

/**
 * `schema` with every Subscription field resolving through `payloads` (by default the gateway's
 * own). Throws when a field has no mapping, so a subscription added without one stops the
 * gateway's start instead of running through a resolve that is not its own. `schema` itself is
 * left as it is.
 */
export function deliverySchema(schema: GraphQLSchema, payloads: Readonly<Record<string, (event: never) => unknown>> = SUBSCRIPTION_PAYLOADS): GraphQLSchema {
  const subscription = schema.getSubscriptionType();
  if (!subscription) return schema;
  const config = subscription.toConfig();
  const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const [name, field] of Object.entries(config.fields)) {
    const payload = payloads[name] as ((event: unknown) => unknown) | undefined;
    if (!payload) throw new Error(`Subscription.${name} has no payload mapping in SUBSCRIPTION_PAYLOADS (src/graphql/schema/delivery.ts)`);
    fields[name] = { ...field, resolve: (event) => payload(event) };
  }
  const delivered = new GraphQLObjectType({ ...config, fields });
  const schemaConfig = schema.toConfig();
  return new GraphQLSchema({ ...schemaConfig, subscription: delivered, types: schemaConfig.types.map((type) => (type === subscription ? delivered : type)) });
}
