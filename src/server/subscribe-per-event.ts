// graphql-js's subscribe, except that each event of the stream is executed with a context of its
// own (a fresh EntityManager fork and so fresh per-context DataLoaders), not the operation's.

import { createSourceEventStream, execute, type ExecutionArgs, type ExecutionResult } from 'graphql';

/**
 * Same contract as graphql-js `subscribe`: the root field's `subscribe` runs once with the
 * operation's context (authorization, visibility check, topic); then every source event is
 * executed like graphql-js does it (the event as root value) but with `contextForEvent(context)`.
 */
export async function subscribeWithContextPerEvent(
  args: ExecutionArgs,
  contextForEvent: (operationContext: unknown) => unknown,
): Promise<AsyncGenerator<ExecutionResult, void, void> | ExecutionResult> {
  const stream = await createSourceEventStream(args);
  if (!isAsyncIterable(stream)) return stream;
  return mapAsyncIterable(stream, (payload) => execute({ ...args, rootValue: payload, contextValue: contextForEvent(args.contextValue) }));
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';
}

/** Maps each value in order; ending the mapped iterator ends the source (unsubscribing from the topic). */
function mapAsyncIterable<T, U>(iterable: AsyncIterable<T>, map: (value: T) => U | Promise<U>): AsyncGenerator<U, void, void> {
  const iterator = iterable[Symbol.asyncIterator]();
  const close = async () => {
    try {
      await iterator.return?.();
    } catch {
      // The source is being abandoned anyway.
    }
  };
  const mapResult = async (result: IteratorResult<T>): Promise<IteratorResult<U, void>> => {
    if (result.done) return { value: undefined, done: true };
    try {
      return { value: await map(result.value), done: false };
    } catch (error) {
      await close();
      throw error;
    }
  };
  const mapped: AsyncGenerator<U, void, void> = {
    async next() {
      return mapResult(await iterator.next());
    },
    async return() {
      await close();
      return { value: undefined, done: true };
    },
    async throw(error: unknown) {
      await close();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return mapped;
    },
  };
  return mapped;
}
