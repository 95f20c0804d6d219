// The HTTP server's graceful stop: idle kept-alive connections closed at once, a request in flight
// answered in full and its connection closed after it, and a request still running at the end of
// the grace period cut off.

import http, { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drainHttpServer } from './drain.js';

const servers: Server[] = [];
const agents: http.Agent[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections();
  for (const agent of agents.splice(0)) agent.destroy();
});

/** A server with the plugin, listening; `stop` runs the plugin's drain as Apollo's stop would. */
async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void, gracePeriodMs?: number) {
  const server = createServer(handler);
  // Kept-alive connections would otherwise linger for the whole test: only the drain closes them.
  server.keepAliveTimeout = 600_000;
  servers.push(server);
  const plugin = drainHttpServer(server, gracePeriodMs);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const listener = await plugin.serverWillStart!({} as never);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  return { server, agent, port: (server.address() as AddressInfo).port, stop: () => listener!.drainServer!() };
}

/** A GET through `agent`: the status, the body, and the socket it used. */
function get(port: number, agent: http.Agent): Promise<{ status: number; body: string; socketClosed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/', agent }, (response) => {
      const socketClosed = new Promise<void>((closed) => response.socket.once('close', () => closed()));
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body, socketClosed }));
    });
    request.on('error', reject);
  });
}

describe('drainHttpServer', () => {
  it('closes an idle kept-alive connection at once and stops', async () => {
    const { agent, port, stop } = await serve((_request, response) => response.end('ok'));
    const answered = await get(port, agent);
    expect(answered).toMatchObject({ status: 200, body: 'ok' });

    await stop();
    await answered.socketClosed;
  });

  it('lets a request in flight finish, then closes its connection, and only then stops', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const { agent, port, stop } = await serve((_request, response) => {
      arrived();
      void released.then(() => response.end('finished'));
    });
    const answer = get(port, agent);
    await inFlight;

    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);

    release();
    const answered = await answer;
    expect(answered).toMatchObject({ status: 200, body: 'finished' });
    await answered.socketClosed;
    await stopping;
  });

  it('cuts off a request still running when the grace period ends', async () => {
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const { agent, port, stop } = await serve(() => arrived(), 50);
    const cutOff = expect(get(port, agent)).rejects.toThrow(/socket hang up|ECONNRESET/);
    await inFlight;
    await stop();
    await cutOff;
  });
});
