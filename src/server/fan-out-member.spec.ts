// A fan-out member writes each payload its group lets through as one frame of its own id, and a
// subscriber that stops reading is cut off on its own: its socket's unsent bytes past the limit
// end its subscription with the fell-behind error, while the other members of the group get the
// same event's frame as usual.

import type { WebSocket } from 'ws';
import { describe, expect, it, vi } from 'vitest';
import { FELL_BEHIND } from '../lib/pubsub.js';
import { Member, type MemberDelivery, type MemberGroup } from './fan-out-member.js';

/** An open socket as a member writes to it, with `bufferedAmount` unsent bytes queued already. */
function socketWith(bufferedAmount: number) {
  const written: Buffer[] = [];
  const socket = { readyState: 1, OPEN: 1, bufferedAmount, send: vi.fn((frame: Buffer) => written.push(Buffer.from(frame))) };
  return { socket: socket as unknown as WebSocket, written };
}

const delivery: MemberDelivery = { settled: true, frameTail: Buffer.from(',"type":"next","payload":{"data":{}}}'), error: undefined, wait: () => undefined };

function group(): MemberGroup & { ended: Array<{ operationId: string; error: unknown }> } {
  const ended: Array<{ operationId: string; error: unknown }> = [];
  return {
    ended,
    accepts: (event, filter) => filter(event),
    delivery: () => delivery,
    leave: () => undefined,
    subscriptionEnded: (_sink, operationId, error) => ended.push({ operationId, error }),
  };
}

const source: AsyncIterator<unknown> = { next: () => Promise.resolve({ done: true, value: undefined }), return: () => Promise.resolve({ done: true, value: undefined }) };

describe('a fan-out member', () => {
  it('is cut off alone when its socket holds more than the limit unsent, and the others still get the frame', () => {
    // given: two members of one group, one of whose sockets has 5 MiB unsent
    const members = group();
    const reading = socketWith(0);
    const stalled = socketWith(5 * 1024 * 1024);
    const first = new Member(members, { socket: reading.socket }, 'op-reading', source);
    const second = new Member(members, { socket: stalled.socket }, 'op-stalled', source);

    // when: an event is offered to both
    const event = { position: '1' };
    first.offer(event, () => true);
    second.offer(event, () => true);

    // then: the reading member's frame is on its socket, its id before the shared tail
    expect(reading.written).toHaveLength(1);
    expect(reading.written[0]!.toString('utf8')).toBe('{"id":"op-reading","type":"next","payload":{"data":{}}}');
    // and: the stalled one got no frame and its subscription ended, fallen behind
    expect(stalled.written).toHaveLength(0);
    expect(members.ended).toEqual([{ operationId: 'op-stalled', error: new Error(FELL_BEHIND) }]);
  });
});
