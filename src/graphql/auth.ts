// type-graphql's auth checker: every root field carries @Authorized, and this decides.
// No client: UNAUTHENTICATED. A client without one of the listed roles: FORBIDDEN. ADMIN passes all.

import { getMetadataStorage, type AuthCheckerFn } from 'type-graphql';
import { isAdmin } from '../kernel/visibility.js';
import type { Role } from '../kernel/roles.js';
import type { GatewayContext } from './context.js';
import { forbidden, unauthenticated } from './errors.js';

// Synchronous (`satisfies`, not a wider annotation, keeps its type so): guardStorableArguments
// calls it ahead of a field's resolver and relies on a refusal being thrown there and then.
export const authChecker = (({ context, info }, roles) => {
  if (context.client === null) throw unauthenticated(context.authFailure);
  // A request's viewer is its client. A subscription group's run of an event (a subscription
  // field resolving) has no client: every member subscribed as itself, through this check, and
  // the group's visibility holds the roles each of them has, so it answers for them all.
  const viewer = context.viewer;
  if (roles.length === 0 || isAdmin(viewer) || roles.some((role) => viewer.roles.includes(role))) return true;
  throw forbidden(`${info.parentType.name}.${info.fieldName} needs one of the roles ${roles.join(', ')}`);
}) satisfies AuthCheckerFn<GatewayContext, Role>;

/** The roles of every `@Authorized` root field, by schema field name (unique across Query, Mutation and Subscription). */
export function rootFieldRoles(): Map<string, Role[]> {
  const storage = getMetadataStorage();
  const roles = new Map<string, Role[]>();
  for (const field of [...storage.queries, ...storage.mutations, ...storage.subscriptions]) {
    const authorized = storage.authorizedFields.find((candidate) => candidate.target === field.target && candidate.fieldName === field.methodName);
    if (authorized) roles.set(field.schemaName, authorized.roles as Role[]);
  }
  return roles;
}
