// Introspection is open in development and to ADMIN keys; other callers get FORBIDDEN before
// anything executes. Applied to HTTP (the request plugin) and graphql-ws (onSubscribe) alike.

import { Kind, type DocumentNode, type SelectionSetNode } from 'graphql';
import type { RequestContext } from '../graphql/context.js';
import { forbidden } from '../graphql/errors.js';

/** True when any operation in the document selects `__schema` or `__type` (fragments included). */
export function usesIntrospection(document: DocumentNode): boolean {
  const visit = (selectionSet: SelectionSetNode | undefined): boolean =>
    selectionSet?.selections.some((selection) => {
      if (selection.kind === Kind.FIELD) {
        return selection.name.value === '__schema' || selection.name.value === '__type' || visit(selection.selectionSet);
      }
      if (selection.kind === Kind.INLINE_FRAGMENT) return visit(selection.selectionSet);
      return false;
    }) ?? false;
  return document.definitions.some(
    (definition) =>
      (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) && visit(definition.selectionSet),
  );
}

/**
 * The HTTP check, called by the gateway's one request plugin (src/server/apollo.ts) once Apollo
 * has resolved the operation: throws FORBIDDEN when the caller may not introspect and the document does.
 */
export function introspectionGuard(): (document: DocumentNode, contextValue: RequestContext) => void {
  // Apollo hands every request of a cached query text the same parsed document: walked once.
  const answers = new WeakMap<DocumentNode, boolean>();
  const introspects = (document: DocumentNode): boolean => {
    let answer = answers.get(document);
    if (answer === undefined) {
      answer = usesIntrospection(document);
      answers.set(document, answer);
    }
    return answer;
  };
  return (document, contextValue) => {
    if (!contextValue.introspectionAllowed && introspects(document)) {
      throw forbidden('introspection is available to ADMIN keys only', { httpStatus: 403 });
    }
  };
}
