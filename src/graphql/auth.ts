// type-graphql's auth checker: every root field carries @Authorized, and this decides.
// No client: UNAUTHENTICATED. A client without one of the listed roles: FORBIDDEN. ADMIN passes all.

import type { AuthCheckerFn } from 'type-graphql';
import type { Role } from '../modules/clients/roles.js';
import type { GatewayContext } from './context.js';
import { forbidden, unauthenticated } from './errors.js';

export const authChecker: AuthCheckerFn<GatewayContext, Role> = ({ context, info }, roles) => {
  const client = context.client;
  if (!client) throw unauthenticated(context.authFailure);
  if (roles.length === 0 || client.isAdmin() || roles.some((role) => client.hasRole(role))) return true;
  throw forbidden(`${info.parentType.name}.${info.fieldName} needs one of the roles ${roles.join(', ')}`);
};
