// The policies applied to the schema: an admin-only field answers null to every reader but an
// admin with no resolver of its own, and a binding the schema cannot honour stops the build.

import 'reflect-metadata';
import { GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, execute, parse, type GraphQLFieldConfigMap } from 'graphql';
import { describe, expect, it } from 'vitest';
import { redactionPolicy } from '../kernel/redaction.js';
import { declareSubjectKinds, SUBJECT_TYPES } from '../kernel/visibility.fixture.js';
import { redactAdminOnlyFields } from './redaction.js';
import { buildGatewaySchema, REDACTED_TYPES } from './schema/schema.js';

declareSubjectKinds();

const policy = redactionPolicy<{ id: string; note: string | null; reason: string | null }>('deposit', { adminOnly: ['note', 'reason'] });

function schemaWith(fields: GraphQLFieldConfigMap<unknown, unknown>): GraphQLSchema {
  const thing = new GraphQLObjectType({ name: 'Thing', fields: () => ({ id: { type: GraphQLString }, ...fields }) });
  return new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { thing: { type: thing, resolve: () => ({ id: 't1', note: 'kept for admins', reason: 'code 05' }) } } }) });
}

describe('admin-only fields in the schema', () => {
  it('answer null to any other reader, whatever their own resolver, and themselves to an admin', () => {
    const schema = redactAdminOnlyFields(schemaWith({ note: { type: GraphQLString }, reason: { type: GraphQLString, resolve: () => 'resolved code 05' } }), [{ type: 'Thing', policy }]);
    const read = (roles: string[]) => execute({ schema, document: parse('{ thing { id note reason } }'), contextValue: { viewer: { roles } } });
    expect(read(['ADMIN'])).toEqual({ data: { thing: { id: 't1', note: 'kept for admins', reason: 'resolved code 05' } } });
    for (const roles of [['CASHIER'], ['REFUNDS'], ['PAYOUTS'], []]) expect(read(roles)).toEqual({ data: { thing: { id: 't1', note: null, reason: null } } });
  });

  it('stop the build for a field the type lacks unless declared not shown, a non-null one, and a missing type', () => {
    expect(() => redactAdminOnlyFields(schemaWith({ note: { type: GraphQLString } }), [{ type: 'Thing', policy }])).toThrow('Thing has no field reason, admin-only in the deposit redaction policy');
    expect(() => redactAdminOnlyFields(schemaWith({ note: { type: GraphQLString } }), [{ type: 'Thing', policy, notShown: ['reason'] }])).not.toThrow();
    expect(() => redactAdminOnlyFields(schemaWith({ note: { type: GraphQLString }, reason: { type: new GraphQLNonNull(GraphQLString) } }), [{ type: 'Thing', policy }])).toThrow(
      'Thing.reason is admin-only (deposit redaction policy) and must be nullable',
    );
    expect(() => redactAdminOnlyFields(schemaWith({}), [{ type: 'Other', policy }])).toThrow('Other, bound to the deposit redaction policy, is no object type of the schema');
  });

  it('are bound for every subject kind the API shows (an endpoint is shown as no subject), and the gateway\'s schema builds with them', async () => {
    expect(REDACTED_TYPES.map((bound) => bound.policy.subjectType).sort()).toEqual(SUBJECT_TYPES.filter((type) => type !== 'endpoint').sort());
    await expect(buildGatewaySchema()).resolves.toBeInstanceOf(GraphQLSchema);
  });
});
