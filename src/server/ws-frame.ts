// One live update's `next` frame, written as one buffer straight onto the subscriber's TCP stream.
// A fan-out writes the same payload to thousands of sockets in one loop, so what each write costs
// is most of a live update's time on the event loop. Through `ws`'s `send`, each frame is a
// header buffer and a payload buffer written corked, then `writev` of the two: an options object,
// the header's allocation, the cork and the chunk list per frame. Here the frame is built whole
// (the WebSocket header, the member's id, the payload every member shares) and written with one
// `write` of one buffer, which is about a tenth less CPU per frame on the test machines
// (docs/benchmarks.md, "Live updates' tail"). On the wire it is what `ws` sends: one final,
// unmasked, uncompressed text frame (RFC 6455 5.2; a server never masks, and a permessage-deflate
// peer accepts an uncompressed message).
//
// `ws` (pinned in package.json) keeps its TCP socket and frame sender in fields of its own; a socket
// whose sender is busy (it queues frames while compressing or reading a Blob, neither of which the
// gateway does) or that has no stream falls back to `send`, so frames never overtake one another.

import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/** FIN and the text opcode: one whole text message. */
const FINAL_TEXT = 0x81;

/** What this writes through in `ws`'s WebSocket (8.x): its stream, and its sender's state (0 while it queues nothing). */
interface WsInternals {
  _socket?: Duplex | null;
  _sender?: { _state?: number } | null;
}

/**
 * Writes the text frame `head` + `tail` (UTF-8) to an open socket: `head` is the member's own start
 * of the message, `tail` the bytes every member shares.
 */
export function sendTextFrame(socket: WebSocket, head: string, tail: Buffer): void {
  const internals = socket as unknown as WsInternals;
  const stream = internals._socket;
  const headBytes = Buffer.byteLength(head);
  const length = headBytes + tail.length;
  if (!stream || internals._sender?._state !== 0) {
    const message = Buffer.allocUnsafe(length);
    message.write(head, 0, 'utf8');
    tail.copy(message, headBytes);
    socket.send(message, { binary: false });
    return;
  }
  // The payload length: in the second byte up to 125, else 126 and two bytes, else 127 and eight.
  const lengthBytes = length < 126 ? 0 : length < 65536 ? 2 : 8;
  const offset = 2 + lengthBytes;
  const frame = Buffer.allocUnsafe(offset + length);
  frame[0] = FINAL_TEXT;
  if (lengthBytes === 0) {
    frame[1] = length;
  } else if (lengthBytes === 2) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(head, offset, 'utf8');
  tail.copy(frame, offset + headBytes);
  stream.write(frame);
}
