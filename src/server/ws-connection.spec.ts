// A graphql-ws socket's hold on its clients' subscription maximums (src/server/ws-connection.ts):
// each kept subscription gives back one subscription of the client it was counted against, exactly
// once, whether the client completes it, its stream ends or the socket closes; that client is the
// socket's own, or another one an operation's own key belongs to. An operation being set up holds none.

import type { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { KeyInUse } from './connections-by-key.js';
import { Member, type MemberGroup } from './fan-out-member.js';
import { Connection } from './ws-connection.js';

function connection(): Connection {
  const socket = { readyState: 1, OPEN: 1, send: () => undefined } as unknown as WebSocket;
  const opened = new Connection(socket, 0, 0, 0);
  opened.keys = new KeyInUse('key_socket', 'cli_socket', null);
  return opened;
}

function member(of: Connection, id: string): Member {
  return new Member({} as MemberGroup, of, id, {} as AsyncIterator<unknown>);
}

/** A client service's closeSubscription, recording which client got one back. */
function holds(): { closeSubscription(clientId: string): void; released: string[] } {
  const released: string[] = [];
  return { closeSubscription: (clientId: string) => released.push(clientId), released };
}

describe("a socket's subscriptions held for their clients", () => {
  it("gives the socket's client its subscription back once, when the operation is deleted", () => {
    const socket = connection();
    const given = holds();
    socket.keepSubscription('a', member(socket, 'a'), 'cli_socket');
    socket.deleteOperation('a', given);
    socket.deleteOperation('a', given);
    expect(socket.takeOperations(given)).toEqual([]);
    expect(given.released).toEqual(['cli_socket']);
  });

  it("gives an operation's own client its subscription back, not the socket's", () => {
    const socket = connection();
    socket.keys = [socket.keys as KeyInUse, new KeyInUse('key_other', 'cli_other', null)];
    const given = holds();
    socket.keepSubscription('mine', member(socket, 'mine'), 'cli_socket');
    socket.keepSubscription('theirs', member(socket, 'theirs'), 'cli_other');
    socket.keepSubscription('theirs-too', member(socket, 'theirs-too'), 'cli_other');
    socket.deleteOperation('theirs', given);
    expect(given.released).toEqual(['cli_other']);
    expect(socket.takeOperations(given)).toHaveLength(2);
    expect(given.released.sort()).toEqual(['cli_other', 'cli_other', 'cli_socket']);
    expect(socket.takeOperations(given)).toEqual([]);
    expect(given.released).toHaveLength(3);
  });

  it('holds nothing for an operation being set up', () => {
    const socket = connection();
    const given = holds();
    socket.beginOperation('q');
    socket.beginOperation('r');
    socket.deleteOperation('q', given);
    expect(socket.takeOperations(given)).toEqual([]);
    expect(given.released).toEqual([]);
  });

  it('counts a subscription kept before the socket had a key against its own client', () => {
    const socket = connection();
    socket.keys = undefined;
    const given = holds();
    socket.keepSubscription('a', member(socket, 'a'), 'cli_early');
    socket.keys = new KeyInUse('key_socket', 'cli_socket', null);
    socket.takeOperations(given);
    expect(given.released).toEqual(['cli_early']);
  });
});
