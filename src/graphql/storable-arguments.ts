// Refuses, before any resolver runs, arguments carrying text PostgreSQL cannot store: every field
// of the schema with arguments is wrapped once, so present and future fields, literals and
// variables, over HTTP and graphql-ws alike, are covered without a check in each resolver.

import { GraphQLError, defaultFieldResolver, getNamedType, getNullableType, isNonNullType, isObjectType, type GraphQLField, type GraphQLFieldResolver, type GraphQLOutputType, type GraphQLSchema } from 'graphql';
import { describeUnstorable, findUnstorableText, type UnstorableText } from '../lib/storable-text.js';
import type { Role } from '../kernel/roles.js';
import { authChecker, rootFieldRoles } from './auth.js';
import type { GatewayContext } from './context.js';
import { UserError } from './user-error.js';

/** The userError code for a mutation input field holding text that cannot be stored. */
export const INVALID_TEXT = 'INVALID_TEXT';

/**
 * The field extension by which a payload's required field gives the value it holds when the
 * request is refused before its resolver runs, e.g. `@Extensions(whenRefused(false))`: such a
 * mutation still answers its userError as data.
 */
export const WHEN_REFUSED = 'whenRefused';

export function whenRefused(value: unknown): Record<string, unknown> {
  return { [WHEN_REFUSED]: value };
}

/**
 * Wraps the `resolve` (and `subscribe`) of every field that takes arguments. A mutation whose
 * payload has `userErrors` and nothing else required answers with a userError whose `field` is
 * the path inside its `input` (as every other input problem); any other field is refused with a
 * BAD_USER_INPUT GraphQL error naming the argument path. Mutates and returns `schema`.
 */
export function guardStorableArguments(schema: GraphQLSchema): GraphQLSchema {
  const mutationType = schema.getMutationType();
  const rootTypes = new Set([schema.getQueryType(), mutationType, schema.getSubscriptionType()]);
  const rolesOf = rootFieldRoles();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.args.length === 0) continue;
      const asUserError = type === mutationType && payloadCarriesUserErrors(field);
      // A root field's own authorization answers first: a caller who may not use the field learns
      // nothing about its arguments. Nested fields sit under an authorized root field.
      const roles = rootTypes.has(type) ? rolesOf.get(field.name) : undefined;
      field.resolve = guard(field.resolve ?? defaultFieldResolver, asUserError, roles);
      if (field.subscribe) field.subscribe = guard(field.subscribe, false, roles);
    }
  }
  return schema;
}

function guard(inner: GraphQLFieldResolver<unknown, unknown>, asUserError: boolean, roles: Role[] | undefined): GraphQLFieldResolver<unknown, unknown> {
  return (source, args: Record<string, unknown>, context, info) => {
    const found = findUnstorableText(args);
    if (!found) return inner(source, args, context, info);
    if (roles) authChecker({ root: source, args, context: context as GatewayContext, info }, roles);
    if (asUserError) {
      const field = found.path[0] === 'input' ? found.path.slice(1) : found.path;
      const error = UserError.from({ field: field.map(String), code: INVALID_TEXT, message: describeUnstorable({ ...found, path: field }) });
      return { ...refusedValues(info.returnType), userErrors: [error] };
    }
    throw badText(found, info.fieldName);
  };
}

function badText(found: UnstorableText, fieldName: string): GraphQLError {
  return new GraphQLError(describeUnstorable(found, `An argument of ${fieldName}`), {
    extensions: { code: 'BAD_USER_INPUT', argumentPath: found.path.map(String) },
  });
}

/**
 * A payload that can answer with `userErrors` alone: every other field of it may be null, or
 * says what it holds then (`whenRefused`).
 */
function payloadCarriesUserErrors(field: GraphQLField<unknown, unknown>): boolean {
  const payload = getNullableType(field.type);
  if (!isObjectType(payload)) return false;
  const fields = Object.values(payload.getFields());
  const userErrors = fields.find((candidate) => candidate.name === 'userErrors');
  if (!userErrors || getNamedType(userErrors.type).name !== 'UserError') return false;
  return fields.every((candidate) => candidate === userErrors || !isNonNullType(candidate.type) || WHEN_REFUSED in (candidate.extensions ?? {}));
}

/** The values a payload's required fields hold when the request is refused before its resolver. */
function refusedValues(type: GraphQLOutputType): Record<string, unknown> {
  const payload = getNullableType(type);
  if (!isObjectType(payload)) return {};
  return Object.fromEntries(
    Object.values(payload.getFields())
      .filter((candidate) => WHEN_REFUSED in (candidate.extensions ?? {}))
      .map((candidate) => [candidate.name, (candidate.extensions as Record<string, unknown>)[WHEN_REFUSED]]),
  );
}
