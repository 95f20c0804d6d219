// The audit trail of mutations. Every mutation field, over HTTP and graphql-ws, present and future,
// is wrapped once: it writes one structured log line when it ends (client, operation, outcome code,
// object ids), and an action only ADMIN keys may take is also recorded in `admin_action`, readable
// through `adminActions`. Only ids and codes are recorded: never keys, card or account numbers or
// e-mail addresses, whatever the arguments or the payload hold.

import { GraphQLError, defaultFieldResolver, type GraphQLFieldResolver, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { isStorableText } from '../lib/storable-text.js';
import type { AdminActionObject } from '../modules/audit/admin-action.entity.js';
import type { RequestContext } from './context.js';
import { rootFieldRoles } from './auth.js';

/** The outcome of a mutation that returned without userErrors. */
export const OUTCOME_OK = 'OK';

/**
 * Wraps the `resolve` of every Mutation field; mutates and returns `schema`. An admin action is a
 * mutation whose only role is ADMIN, as declared with `@Authorized('ADMIN')`: adding one needs no
 * change here.
 */
export function auditMutations(schema: GraphQLSchema): GraphQLSchema {
  const mutationType = schema.getMutationType();
  if (!mutationType) return schema;
  const rolesOf = rootFieldRoles();
  for (const field of Object.values(mutationType.getFields())) {
    const roles = rolesOf.get(field.name);
    field.resolve = audited(field.resolve ?? defaultFieldResolver, roles?.length === 1 && roles[0] === 'ADMIN');
  }
  return schema;
}

function audited(inner: GraphQLFieldResolver<unknown, RequestContext>, adminAction: boolean): GraphQLFieldResolver<unknown, RequestContext> {
  return async (source, args: Record<string, unknown>, ctx, info) => {
    const started = process.hrtime.bigint();
    const named = argumentObjects(args);
    // Only an admin's own actions go to the table: anyone else's attempt is refused by the auth
    // checker and stays a log line, so a flood of refused calls cannot fill the table.
    const recorded = adminAction && ctx.client?.isAdmin() ? await startRecord(ctx, info.fieldName, named) : undefined;
    let outcome = 'INTERNAL_SERVER_ERROR';
    let codes: string[] = [];
    let objects = named;
    try {
      const result: unknown = await inner(source, args, ctx, info);
      codes = userErrorCodes(result);
      outcome = codes[0] ?? OUTCOME_OK;
      objects = mergeObjects(named, payloadObjects(result));
      return result;
    } catch (error) {
      outcome = errorCode(error);
      throw error;
    } finally {
      ctx.logger.info(
        {
          // The caller's clientId is bound to the request's logger already (HTTP and graphql-ws alike).
          audit: 'mutation',
          operation: info.fieldName,
          operationName: info.operation.name?.value ?? null,
          outcome,
          ...(codes.length > 1 ? { userErrorCodes: codes } : {}),
          objects,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'mutation audited',
      );
      if (recorded) await finishRecord(ctx, recorded, outcome, objects, info);
    }
  };
}

/** Inserts the action's row before it runs. An action that cannot be recorded does not run. */
function startRecord(ctx: RequestContext, action: string, objects: AdminActionObject[]): Promise<string> {
  const client = ctx.client!;
  return ctx.services.adminActions.start(ctx.em.fork(), { action, clientId: client.id, clientName: client.name, requestId: ctx.requestId, objects });
}

/** Completes the row. The action has happened by now: a failure here is logged, never turned into the action's failure. */
async function finishRecord(ctx: RequestContext, id: string, outcome: string, objects: AdminActionObject[], info: GraphQLResolveInfo): Promise<void> {
  try {
    await ctx.services.adminActions.finish(ctx.em.fork(), id, outcome, objects);
  } catch (error) {
    ctx.logger.error({ err: error, adminActionId: id, operation: info.fieldName, outcome }, 'admin action ran but its outcome could not be recorded');
  }
}

/** Longest argument kept as an id: the gateway's ids are 30 characters. */
const MAX_ID_LENGTH = 64;

/**
 * The ids named by the arguments: a top-level `id`, and `id` or `…Id` fields of `input`. Values
 * that cannot be ids (too long, or text the database cannot store, which the argument guard
 * refuses anyway) are left out, so that recording a refused call can never fail.
 */
function argumentObjects(args: Record<string, unknown>): AdminActionObject[] {
  const candidates: Array<[string, unknown]> = [['id', args.id]];
  const input = args.input;
  if (input && typeof input === 'object') {
    for (const [name, value] of Object.entries(input)) {
      if (name === 'id' || name.endsWith('Id')) candidates.push([`input.${name}`, value]);
    }
  }
  return candidates.flatMap(([kind, id]) => (typeof id === 'string' && id.length <= MAX_ID_LENGTH && isStorableText(id) ? [{ kind, id }] : []));
}

/** The ids of the objects a payload returns: each top-level field holding an object with an `id`. */
function payloadObjects(result: unknown): AdminActionObject[] {
  if (!result || typeof result !== 'object') return [];
  const objects: AdminActionObject[] = [];
  for (const [name, value] of Object.entries(result as Record<string, unknown>)) {
    if (value && typeof value === 'object' && !Array.isArray(value) && 'id' in value && typeof value.id === 'string') objects.push({ kind: name, id: value.id });
  }
  return objects;
}

/** Both lists, each id once (an argument naming the object the payload returns is one object). */
function mergeObjects(named: AdminActionObject[], returned: AdminActionObject[]): AdminActionObject[] {
  const seen = new Set(named.map((object) => object.id));
  return [...named, ...returned.filter((object) => !seen.has(object.id))];
}

function userErrorCodes(result: unknown): string[] {
  if (!result || typeof result !== 'object' || !('userErrors' in result) || !Array.isArray(result.userErrors)) return [];
  return result.userErrors.flatMap((error: unknown) => (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? [error.code] : []));
}

function errorCode(error: unknown): string {
  const code = error instanceof GraphQLError ? error.extensions.code : undefined;
  return typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR';
}
