// The redaction policies (src/kernel/redaction.ts) applied to the schema: every admin-only field of
// a type that shows a subject kind answers null to any reader but an admin, whatever path reaches
// the type (a query, `node`, `events(after:)`, a nested list, a subscription's frame). A field
// named in a policy is withheld here without a resolver of its own; no resolver decides it alone.

import { defaultFieldResolver, isNonNullType, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { mayRead, type RedactionPolicy } from '../kernel/redaction.js';
import type { GatewayContext } from './context.js';

/** A GraphQL object type that shows the snapshots of one subject kind, and that kind's policy. */
export interface RedactedType {
  /** The type's name in the schema, e.g. `Deposit`. */
  type: string;
  policy: RedactionPolicy;
  /**
   * Admin-only fields of the snapshot that this type does not show under any name, so has
   * nothing to withhold. Any other admin-only field must be a field of the type, of the same name.
   */
  notShown?: readonly string[];
}

/**
 * Wraps the resolver of each admin-only field of each type in `types`; mutates and returns
 * `schema`. Throws, so the gateway does not start, when a type is missing, when an admin-only
 * field is neither a field of its type nor declared `notShown` (the type may show it under
 * another name, which this could not withhold), or when one is non-null (it could not answer null).
 */
export function redactAdminOnlyFields(schema: GraphQLSchema, types: readonly RedactedType[]): GraphQLSchema {
  for (const { type: name, policy, notShown } of types) {
    const type = schema.getType(name);
    if (!isObjectType(type)) throw new Error(`${name}, bound to the ${policy.subjectType} redaction policy, is no object type of the schema`);
    const fields = type.getFields();
    for (const fieldName of policy.adminOnly) {
      if (notShown?.includes(fieldName)) continue;
      const field = fields[fieldName];
      if (!field) throw new Error(`${name} has no field ${fieldName}, admin-only in the ${policy.subjectType} redaction policy: show it under that name, or declare it notShown if the type shows nothing of it`);
      if (isNonNullType(field.type)) throw new Error(`${name}.${fieldName} is admin-only (${policy.subjectType} redaction policy) and must be nullable, to answer null to other readers; it is ${String(field.type)}`);
      field.resolve = adminOnly(field.resolve ?? defaultFieldResolver, policy, fieldName);
    }
  }
  return schema;
}

function adminOnly(inner: GraphQLFieldResolver<unknown, GatewayContext>, policy: RedactionPolicy, field: string): GraphQLFieldResolver<unknown, GatewayContext> {
  // Synchronous for a reader who may not read it: a subscription frame's fields that need no read stay ready at once.
  return (source, args, ctx, info) => (mayRead(ctx.viewer, policy, field) ? inner(source, args, ctx, info) : null);
}
