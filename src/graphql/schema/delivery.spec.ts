import 'reflect-metadata';
import { GraphQLObjectType, GraphQLSchema, GraphQLString, execute, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { Heartbeat } from '../heartbeat.resolver.js';
import { deliverySchema, SUBSCRIPTION_PAYLOADS } from './delivery.js';
import { buildGatewaySchema } from './schema.js';

const query = new GraphQLObjectType({ name: 'Query', fields: { ping: { type: GraphQLString } } });

describe('the delivery schema', () => {
  it('maps every Subscription field of the gateway\'s schema, and names no field it lacks', async () => {
    const schema = await buildGatewaySchema();
    expect(() => deliverySchema(schema)).not.toThrow();
    expect(Object.keys(SUBSCRIPTION_PAYLOADS).sort()).toEqual(Object.keys(schema.getSubscriptionType()!.getFields()).sort());
  });

  it('refuses a Subscription field without a payload mapping, by name', () => {
    const subscription = new GraphQLObjectType({ name: 'Subscription', fields: { mapped: { type: GraphQLString }, unmapped: { type: GraphQLString } } });
    const schema = new GraphQLSchema({ query, subscription });
    expect(() => deliverySchema(schema, { mapped: (event: string) => event })).toThrow('Subscription.unmapped has no payload mapping');
  });

  it('resolves through the mapping synchronously, and leaves the schema it was made from as it was', () => {
    const resolve = () => 'public';
    const subscription = new GraphQLObjectType({ name: 'Subscription', fields: { greeting: { type: GraphQLString, resolve } } });
    const schema = new GraphQLSchema({ query, subscription });
    const delivered = deliverySchema(schema, { greeting: (event: { name: string }) => `hello ${event.name}` });
    const result = execute({ schema: delivered, document: parse('subscription { greeting }'), rootValue: { name: 'ada' } });
    // A value, not a promise: graphql-js finished the execution in the call.
    expect(result).toEqual({ data: { greeting: 'hello ada' } });
    expect(schema.getSubscriptionType()!.getFields().greeting!.resolve).toBe(resolve);
  });

  it('gives the gateway\'s payloads as its resolvers do: a heartbeat tick as itself', async () => {
    const delivered = deliverySchema(await buildGatewaySchema());
    const tick = Object.assign(new Heartbeat(), { at: new Date('2026-11-28T00:00:00.000Z'), sequence: 7 });
    const result = execute({ schema: delivered, document: parse('subscription { heartbeat(intervalSeconds: 5) { at sequence } }'), rootValue: tick, contextValue: {} });
    expect(result).toEqual({ data: { heartbeat: { at: '2026-11-28T00:00:00.000Z', sequence: 7 } } });
  });
});
