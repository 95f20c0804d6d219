// What the client asked for below the field being resolved, so a resolver can leave out columns
// nobody will read.

import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * Whether the selection of the field being resolved (of each item, for a list) names any of
 * `fields`, directly or through fragments. A field under @skip or @include counts as asked for.
 *
 * @example selectsAny(info, ['deposit']) // Deposit.events { id deposit { status } } → true
 */
export function selectsAny(info: GraphQLResolveInfo, fields: readonly string[]): boolean {
  const visit = (set: SelectionSetNode | undefined): boolean =>
    set?.selections.some((selection) => {
      switch (selection.kind) {
        case Kind.FIELD:
          return fields.includes(selection.name.value);
        case Kind.INLINE_FRAGMENT:
          return visit(selection.selectionSet);
        case Kind.FRAGMENT_SPREAD:
          return visit(info.fragments[selection.name.value]?.selectionSet);
      }
    }) ?? false;
  return info.fieldNodes.some((node) => visit(node.selectionSet));
}
