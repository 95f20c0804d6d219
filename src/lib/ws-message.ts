// The text of a WebSocket message as the ws package hands it over.

import type { RawData } from 'ws';

/**
 * A message's text (UTF-8). ws hands a message as one Buffer unless the socket's binaryType asks
 * for another form (none of ours does); those forms, an ArrayBuffer or a Buffer per fragment,
 * are decoded the same way rather than printed as `[object ArrayBuffer]`.
 */
export function messageText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString();
  return (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString();
}
