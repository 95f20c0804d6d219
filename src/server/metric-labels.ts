// The label values of the gateway's metrics that come from a request: the operation a GraphQL
// document runs, the route a request took, the code a webhook's reason starts with. Each is read
// from the schema or from a fixed list, never taken as the caller's text, so that what a caller
// sends never makes a new series (kept in memory and in every /metrics answer).

import { Kind, type DocumentNode, type GraphQLSchema, type SelectionSetNode } from 'graphql';

/** The `operation` label of an operation that did not resolve to one (unparsable, invalid, unknown name). */
export const OTHER_OPERATION = 'other';
/** The `operation` label of an operation selecting several root fields. */
export const MULTIPLE_ROOT_FIELDS = 'multiple';
/** The `route` label of a request no route of ours matched. */
export const OTHER_ROUTE = 'other';

/**
 * The stable code that starts a reason (`TRANSITION_NOT_ALLOWED: SUCCEEDED -> PENDING` gives
 * `TRANSITION_NOT_ALLOWED`); free text never becomes a label value.
 */
export function reasonCode(reason: string | undefined): string | undefined {
  if (!reason) return undefined;
  const match = /^([A-Z][A-Z0-9_]{0,63})(?::|$)/.exec(reason);
  return match ? match[1] : 'OTHER';
}

/** The route label of a request Express matched no route for (a mounted router or middleware answered, or nothing did). */
export function routeOf(url: string): string {
  const path = url.split('?')[0] ?? '';
  if (/^\/webhooks\/[^/]+\/[^/]+\/?$/.test(path)) return '/webhooks/:provider/:account';
  return ['/graphql', '/healthz', '/readyz', '/metrics'].includes(path) ? path : OTHER_ROUTE;
}

/**
 * The `operation` label: the root field the operation selects (through fragments, by field name,
 * not alias), which the schema bounds; "multiple" for several, "other" when the document has no
 * such operation or selects no field of the schema's root type.
 */
export function operationLabel(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): string {
  const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((candidate) => candidate.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  const root = operation ? schema.getRootType(operation.operation) : undefined;
  if (!operation || !root) return OTHER_OPERATION;
  const fragments = new Map(document.definitions.flatMap((definition) => (definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [])));
  const fields = root.getFields();
  const names = new Set<string>();
  const visited = new Set<string>();
  const collect = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (Object.hasOwn(fields, selection.name.value)) names.add(selection.name.value);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet);
      } else if (!visited.has(selection.name.value)) {
        visited.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) collect(fragment.selectionSet);
      }
    }
  };
  collect(operation.selectionSet);
  if (names.size === 0) return OTHER_OPERATION;
  return names.size === 1 ? [...names][0]! : MULTIPLE_ROOT_FIELDS;
}
