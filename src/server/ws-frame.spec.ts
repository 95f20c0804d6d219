// A live update's frame written straight to the socket's stream: one buffer holding a final,
// unmasked text frame with each of RFC 6455's three length forms, the member's start before the
// shared tail; and `ws`'s own `send` when its sender is queueing frames, so none is overtaken.
// The frames a real graphql-ws client reads through this path are checked in
// test/performance/fan-out.test.ts and the subscription tests.

import type { WebSocket } from 'ws';
import { describe, expect, it, vi } from 'vitest';
import { sendTextFrame } from './ws-frame.js';

/** A socket as sendTextFrame reaches into it: its stream's writes, its sender's state, and `send`. */
function fakeSocket(senderState = 0) {
  const written: Buffer[] = [];
  const send = vi.fn();
  const socket = { _socket: { write: (chunk: Buffer) => written.push(Buffer.from(chunk)) }, _sender: { _state: senderState }, send };
  return { socket: socket as unknown as WebSocket, written, send };
}

/** The frame's parts as RFC 6455 5.2 lays them out (unmasked). */
function parse(frame: Buffer): { fin: boolean; opcode: number; masked: boolean; payload: string } {
  let length = frame[1]! & 0x7f;
  let offset = 2;
  if (length === 126) {
    length = frame.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    length = Number(frame.readBigUInt64BE(2));
    offset = 10;
  }
  expect(frame.length).toBe(offset + length);
  return { fin: (frame[0]! & 0x80) !== 0, opcode: frame[0]! & 0x0f, masked: (frame[1]! & 0x80) !== 0, payload: frame.subarray(offset).toString('utf8') };
}

describe('a live update frame written to the stream', () => {
  it.each([
    ['a short one (length in the second byte)', 40],
    ['at the two-byte length', 200],
    ['at the eight-byte length', 70_000],
  ])('is one final unmasked text frame, %s', (_name, tailLength) => {
    const { socket, written, send } = fakeSocket();
    const head = '{"id":"op-é1"';
    const tail = Buffer.from(`,"payload":"${'x'.repeat(tailLength)}"}`);

    sendTextFrame(socket, head, tail);

    expect(send).not.toHaveBeenCalled();
    expect(written).toHaveLength(1);
    expect(parse(written[0]!)).toEqual({ fin: true, opcode: 1, masked: false, payload: head + tail.toString('utf8') });
  });

  it("goes through ws's send while its sender queues frames, so it is not written ahead of them", () => {
    const { socket, written, send } = fakeSocket(1);

    sendTextFrame(socket, '{"id":"1"', Buffer.from(',"type":"next"}'));

    expect(written).toHaveLength(0);
    expect(send).toHaveBeenCalledTimes(1);
    const [message, options] = send.mock.calls[0]! as [Buffer, { binary: boolean }];
    expect(message.toString('utf8')).toBe('{"id":"1","type":"next"}');
    expect(options).toEqual({ binary: false });
  });
});
