// What the client asked for below the field being resolved, so a resolver can leave out columns
// nobody will read.

import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

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

/**
 * The selection sets reached from the field being resolved by following `path` (field names,
 * through fragments and under any alias): what the client asked for of each item further down.
 *
 * @example selectionsAt(info, ['edges', 'node']) // deposits { edges { node { id refunds { id } } } } → [{ id refunds { id } }]
 */
export function selectionsAt(info: GraphQLResolveInfo, path: readonly string[]): SelectionSetNode[] {
  let sets = info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  for (const name of path) sets = sets.flatMap((set) => fieldsNamed(info, set, name).flatMap((field) => (field.selectionSet ? [field.selectionSet] : [])));
  return sets;
}

/** The fields called `name` in `set`, directly or through fragments. */
export function fieldsNamed(info: Pick<GraphQLResolveInfo, 'fragments'>, set: SelectionSetNode, name: string): FieldNode[] {
  const found: FieldNode[] = [];
  const visit = (current: SelectionSetNode | undefined, seen: Set<string>) => {
    for (const selection of current?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === name) found.push(selection);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet, seen);
      } else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        visit(info.fragments[selection.name.value]?.selectionSet, seen);
      }
    }
  };
  visit(set, new Set());
  return found;
}
