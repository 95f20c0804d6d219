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
  // A list field resolved for each object of a page asks the same of the same selection each time.
  const single = info.fieldNodes.length === 1 ? info.fieldNodes[0]! : undefined;
  const key = fields.join(',');
  const kept = single ? selectsAnyKept.get(single)?.get(key) : undefined;
  if (kept !== undefined) return kept;
  const answer = selectsAnyOf(info, fields);
  if (single) {
    let byFields = selectsAnyKept.get(single);
    if (!byFields) selectsAnyKept.set(single, (byFields = new Map<string, boolean>()));
    byFields.set(key, answer);
  }
  return answer;
}

/** `selectsAny`'s answers by field node (of one parsed document, with its fragments) and fields asked. */
const selectsAnyKept = new WeakMap<FieldNode, Map<string, boolean>>();

function selectsAnyOf(info: GraphQLResolveInfo, fields: readonly string[]): boolean {
  return info.fieldNodes.some((node) => node.selectionSet !== undefined && fieldsIn(info, node.selectionSet).fields.some((field) => fields.includes(field.name.value)));
}

/**
 * The fields of `set`, directly and through fragments (each fragment once), under any alias, and
 * whether every fragment it spreads is in the document (`complete`). What the readers of a selection
 * below each ask of it.
 */
function fieldsIn(info: Pick<GraphQLResolveInfo, 'fragments'>, set: SelectionSetNode): { fields: FieldNode[]; complete: boolean } {
  const fields: FieldNode[] = [];
  let complete = true;
  const seen = new Set<string>();
  const visit = (current: SelectionSetNode) => {
    for (const selection of current.selections) {
      if (selection.kind === Kind.FIELD) {
        fields.push(selection);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet);
      } else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = info.fragments[selection.name.value];
        if (fragment) visit(fragment.selectionSet);
        else complete = false;
      }
    }
  };
  visit(set);
  return { fields, complete };
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

/**
 * Whether every field of `sets` (through fragments, `__typename` aside) is one of `names`: false
 * for any other, or for a fragment the document does not hold.
 *
 * @example selectsOnly(info, selectionsAt(info, []), ['edges', 'pageInfo']) // deposits { edges { … } totalCount } → false
 */
export function selectsOnly(info: Pick<GraphQLResolveInfo, 'fragments'>, sets: readonly SelectionSetNode[], names: readonly string[]): boolean {
  return sets.every((set) => {
    const { fields, complete } = fieldsIn(info, set);
    return complete && fields.every((field) => names.includes(field.name.value) || field.name.value === '__typename');
  });
}

/** The fields called `name` in `set`, directly or through fragments. */
export function fieldsNamed(info: Pick<GraphQLResolveInfo, 'fragments'>, set: SelectionSetNode, name: string): FieldNode[] {
  return fieldsIn(info, set).fields.filter((field) => field.name.value === name);
}

/**
 * Which stored properties the fields of one object type need (`byField`, by field name), so a list
 * can read only those of its rows. Each distinct set is one list object, the same on every call,
 * since reads keep their statements by list (src/db/plain-rows.ts); past `MOST_SHAPES` sets, or
 * for any field it does not know, every property is read.
 */
export class FieldReads<P extends string> {
  private static readonly MOST_SHAPES = 32;
  private readonly shapes = new Map<string, readonly P[]>();

  /**
   * @param byField what each field of the type reads (`[]`: nothing beyond `always`); a field
   *   missing here reads `every`, so a new field is never answered from a row without its column.
   * @param always what every row is read with (its id, its position in the list).
   * @param every every property there is, in the order a read lists them.
   */
  constructor(
    private readonly byField: Readonly<Record<string, readonly P[]>>,
    private readonly always: readonly P[],
    readonly every: readonly P[],
  ) {
    const unknown = [...always, ...Object.values(byField).flat()].filter((property) => !every.includes(property));
    if (unknown.length > 0) throw new Error(`FieldReads names properties it does not list: ${[...new Set(unknown)].join(', ')}`);
  }

  /**
   * The properties the fields of `sets` (selections on this type, through fragments and under any
   * alias; a field under @skip or @include counts as asked for) need, as one of its lists.
   *
   * @example reads.of(info, [{ id amount { amount } }]) // ['id', 'amount', 'currency', 'createdAt']
   */
  of(info: Pick<GraphQLResolveInfo, 'fragments'>, sets: readonly SelectionSetNode[]): readonly P[] {
    const needed = new Set<P>(this.always);
    for (const set of sets) {
      const { fields, complete } = fieldsIn(info, set);
      if (!complete) return this.every;
      for (const field of fields) {
        const name = field.name.value;
        const reads = Object.hasOwn(this.byField, name) ? this.byField[name] : undefined;
        if (reads) for (const property of reads) needed.add(property);
        else if (name !== '__typename') return this.every;
      }
    }
    const list = this.every.filter((property) => needed.has(property));
    if (list.length === this.every.length) return this.every;
    const key = list.join(',');
    let shape = this.shapes.get(key);
    if (shape === undefined) {
      if (this.shapes.size >= FieldReads.MOST_SHAPES) return this.every;
      shape = list;
      this.shapes.set(key, shape);
    }
    return shape;
  }
}
