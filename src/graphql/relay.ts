// Relay connection helpers: opaque cursors, PageInfo, and a factory for `XConnection` types.

import { GraphQLError } from 'graphql';
import { Field, Int, ObjectType, type ClassType } from 'type-graphql';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

@ObjectType({ simpleResolvers: true, description: 'Relay page information.' })
export class PageInfo {
  @Field({ description: 'True when more items follow this page: pass endCursor as `after` to read them.' })
  hasNextPage!: boolean;

  @Field({ description: 'True when this page was read after a cursor (`after` was given).' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: 'Cursor of the first item of this page; null when the page is empty.' })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: 'Cursor of the last item of this page; null when the page is empty.' })
  endCursor!: string | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface Connection<T> {
  edges: Edge<T>[];
  pageInfo: PageInfo;
}

/**
 * Builds `<Name>Edge` and `<Name>Connection` object types for a node type; `item` is what the
 * descriptions call one node, when the name alone does not say it (a `Timeline`'s items are entries).
 *
 * @example
 * @ObjectType({ description: 'A page of API clients.' }) export class ApiClientConnection extends connectionType(ApiClientNode, 'ApiClient') {}
 */
export function connectionType<T extends object>(nodeType: ClassType<T>, name: string, item: string = name) {
  @ObjectType(`${name}Edge`, { simpleResolvers: true, description: `One ${item} of a page, with the cursor that continues the list after it.` })
  class EdgeType {
    @Field({ description: 'Opaque position of this item: pass it as `after` to read the items that follow.' })
    cursor!: string;

    @Field(() => nodeType, { description: `The ${item}.` })
    node!: T;
  }

  // Not emitted by itself: type-graphql 2 prints only types reachable from the resolvers.
  @ObjectType({ simpleResolvers: true })
  abstract class ConnectionType implements Connection<T> {
    @Field(() => [EdgeType], { description: 'The items of this page, in the list\'s order.' })
    edges!: Edge<T>[];

    @Field(() => PageInfo, { description: 'Whether more items follow, and the cursors at both ends of this page.' })
    pageInfo!: PageInfo;
  }
  return ConnectionType;
}

/** Options of every list's `first` argument. */
export const FIRST_ARGUMENT = { nullable: true, description: `How many items to return: 1 to ${MAX_PAGE_SIZE}, ${DEFAULT_PAGE_SIZE} when omitted.` } as const;

/** Options of every list's `after` argument. */
export const AFTER_ARGUMENT = { nullable: true, description: 'A cursor from an earlier page (an edge\'s cursor or pageInfo.endCursor): the items after it are returned.' } as const;

/** Cursors are opaque to clients: base64url of a JSON key (an ordered position, e.g. [createdAt, id]). */
export function encodeCursor(key: unknown): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

export function decodeCursor<T>(cursor: string, isValid: (value: unknown) => value is T): T {
  const value = readCursor(cursor, isValid);
  if (value !== undefined) return value;
  throw new GraphQLError('The "after" cursor is not valid for this list', { extensions: { code: 'BAD_USER_INPUT' } });
}

/** The key a cursor holds, or undefined when it is not a cursor with a key `isValid` accepts. */
export function readCursor<T>(cursor: string, isValid: (value: unknown) => value is T): T | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (isValid(value)) return value;
  } catch {
    // not a cursor
  }
  return undefined;
}

/** An event log position, the key of `events(after:)` cursors and of every subscription message's `extensions.cursor`. */
export const isEventPosition = (value: unknown): value is string => typeof value === 'string' && /^[0-9]{1,19}$/.test(value);

/** A `[ISO time, id]` cursor key: the position of lists ordered newest first by (time, id). */
export const isTimeIdCursor = (value: unknown): value is [string, string] =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string' && !Number.isNaN(Date.parse(value[0]));

/** Validates `first` and returns the page size. */
export function pageSize(first: number | null | undefined): number {
  if (first == null) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw new GraphQLError(`"first" must be between 1 and ${MAX_PAGE_SIZE}`, { extensions: { code: 'BAD_USER_INPUT' } });
  }
  return first;
}

/**
 * Turns `size + 1` rows fetched in order into a connection: the extra row only says there is a
 * next page.
 */
export function toConnection<Row, Node>(rows: Row[], size: number, cursorOf: (row: Row) => unknown, toNode: (row: Row) => Node, hadCursor: boolean): Connection<Node> {
  const page = rows.slice(0, size);
  const edges = page.map((row) => ({ cursor: encodeCursor(cursorOf(row)), node: toNode(row) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: rows.length > size,
      hasPreviousPage: hadCursor,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

export { Int };
