// node:http plumbing shared by the gateway and the sandboxes: bounded body reading and listening.

import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export class BodyTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`Request body is larger than ${limitBytes} bytes`);
    this.name = 'BodyTooLarge';
  }
}

/**
 * The request body as the exact bytes received, refusing (and cutting the connection of) any
 * body past `maxBytes` before it is buffered in full.
 */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new BodyTooLarge(maxBytes));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Starts listening and resolves with the bound address (port 0 picks a free port). */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}
