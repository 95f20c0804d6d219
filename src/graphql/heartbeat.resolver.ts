// `heartbeat`: a subscription that ticks at a chosen interval, so a client can tell a live
// connection from a silently dead one (mobile networks drop sockets without a close).

import { Arg, Authorized, Field, Int, ObjectType, Resolver, Root, Subscription } from 'type-graphql';
import { GraphQLError } from 'graphql';

@ObjectType({ description: 'One tick of the heartbeat subscription.' })
export class Heartbeat {
  @Field({ description: 'When the tick was sent.' })
  at!: Date;

  @Field(() => Int, { description: 'Ticks so far on this subscription, starting at 1.' })
  sequence!: number;
}

/** An async iterator that yields a beat every `ms` and stops its timer as soon as it is closed. */
function ticks(ms: number): AsyncIterableIterator<Heartbeat> {
  let sequence = 0;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let done = false;
  const iterator: AsyncIterableIterator<Heartbeat> = {
    async next() {
      if (done) return { done: true, value: undefined };
      if (sequence > 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, ms);
        });
      }
      if (done) return { done: true, value: undefined };
      sequence += 1;
      return { done: false, value: Object.assign(new Heartbeat(), { at: new Date(), sequence }) };
    },
    async return() {
      done = true;
      clearTimeout(timer);
      wake?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

@Resolver()
export class HeartbeatResolver {
  @Authorized()
  @Subscription(() => Heartbeat, {
    description: 'Ticks every `intervalSeconds` (1-300), the first at once.',
    subscribe: ({ args }) => {
      const seconds = (args as { intervalSeconds: number }).intervalSeconds;
      if (!Number.isInteger(seconds) || seconds < 1 || seconds > 300) {
        throw new GraphQLError('intervalSeconds must be between 1 and 300', { extensions: { code: 'BAD_USER_INPUT' } });
      }
      return ticks(seconds * 1000);
    },
  })
  heartbeat(@Root() beat: Heartbeat, @Arg('intervalSeconds', () => Int, { defaultValue: 15, description: 'Seconds between ticks, 1 to 300.' }) _intervalSeconds: number): Heartbeat {
    return beat;
  }
}
