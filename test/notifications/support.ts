// Back-office receivers for the notification tests: real node:http servers on 127.0.0.1 that
// verify every POST with the Standard Webhooks reference library (never the gateway's own code),
// answer as the test tells them, and record what arrived and whether two requests overlapped.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { graphql } from '../__generated__/gql.js';
import { ManualClock } from '../support/clock.js';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { afterAll, beforeAll, expect } from 'vitest';

export interface Received {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown> & { id: string };
  headers: IncomingHttpHeaders;
  body: string;
  /** Which of the receiver's secrets verified it, by index; empty when none did. */
  verifiedBy: number[];
}

export interface Receiver {
  url: string;
  /** Every verified POST answered 2xx, in arrival order. */
  delivered: Received[];
  /** Every POST, whatever the answer. */
  requests: number;
  /** POSTs of one webhook-id that were in flight at the same time. */
  overlaps: string[];
  /** Secrets to verify with (the first one for `delivered`). */
  secrets: string[];
  /** How to answer: a status (default 200), or a function of the request. */
  answer: (received: Received) => number | Promise<number>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const inFlight = new Set<string>();
  const receiver: Receiver = {
    url: '',
    delivered: [],
    requests: 0,
    overlaps: [],
    secrets: [],
    answer: () => 200,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The emitter does not wait for its listener: a throw from the test's `answer` (a failed
    // expectation) stays an unhandled rejection, which Vitest reports as a failure of the run.
    req.on('end', () => void respond());
    async function respond(): Promise<void> {
      receiver.requests++;
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id']);
      if (inFlight.has(id)) receiver.overlaps.push(id);
      inFlight.add(id);
      const verifiedBy = receiver.secrets.flatMap((secret, i) => {
        try {
          new Webhook(secret).verify(body, req.headers as Record<string, string>);
          return [i];
        } catch {
          return [];
        }
      });
      const received: Received = { ...(JSON.parse(body) as Omit<Received, 'headers' | 'body' | 'verifiedBy'>), headers: req.headers, body, verifiedBy };
      let status: number;
      try {
        status = verifiedBy.length > 0 ? await receiver.answer(received) : 400;
      } finally {
        inFlight.delete(id);
      }
      if (status >= 200 && status < 300) receiver.delivered.push(received);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

export const CreateEndpointMutation = graphql(`
  mutation CreateNotificationEndpoint($input: CreateNotificationEndpointInput!) {
    createNotificationEndpoint(input: $input) {
      endpoint { id clientId url eventTypes enabled state cursor }
      secret
      userErrors { field code message }
    }
  }
`);

export const EndpointsQuery = graphql(`
  query NotificationEndpoints($clientId: ID) {
    notificationEndpoints(clientId: $clientId) { id clientId url eventTypes enabled disabledReason state failedSince nextProbeAt cursor previousSecretExpiresAt }
  }
`);

export const DeliveriesQuery = graphql(`
  query NotificationDeliveries($endpointId: ID!, $filter: NotificationDeliveryFilter, $first: Int) {
    notificationDeliveries(endpointId: $endpointId, filter: $filter, first: $first) {
      edges {
        node {
          id eventId eventType eventCursor subjectType subjectId state attemptCount nextAttemptAt deliveredAt
          attempts { attemptedAt httpStatus errorCode durationMs responseExcerpt }
        }
      }
    }
  }
`);

export const RotateMutation = graphql(`
  mutation RotateNotificationSecret($id: ID!) {
    rotateNotificationSecret(id: $id) { endpoint { id previousSecretExpiresAt } secret userErrors { field code message } }
  }
`);

export const RedeliverMutation = graphql(`
  mutation RedeliverNotification($deliveryId: ID, $eventId: ID, $endpointId: ID) {
    redeliverNotification(deliveryId: $deliveryId, eventId: $eventId, endpointId: $endpointId) {
      delivery { id state eventId }
      userErrors { field code message }
    }
  }
`);

/** Admin: an endpoint for `clientId` at the receiver, whose secret the receiver then verifies with. */
export async function createEndpoint(t: TestGateway, receiver: Receiver, clientId: string, eventTypes?: string[]) {
  const result = await execute(t.gateway.graphqlUrl, CreateEndpointMutation, { input: { clientId, url: receiver.url, ...(eventTypes ? { eventTypes } : {}) } }, { key: t.keys.admin });
  expect(result.errors).toBeUndefined();
  const payload = result.data!.createNotificationEndpoint;
  expect(payload.userErrors).toEqual([]);
  receiver.secrets.push(payload.secret!);
  return payload.endpoint!;
}

export async function deliveries(t: TestGateway, endpointId: string, filter?: { state?: 'PENDING' | 'DELIVERED' | 'FAILED'; subjectId?: string }) {
  const result = await execute(t.gateway.graphqlUrl, DeliveriesQuery, { endpointId, first: 100, ...(filter ? { filter } : {}) }, { key: t.keys.admin });
  expect(result.errors).toBeUndefined();
  return result.data!.notificationDeliveries.edges.map((edge) => edge.node);
}

/** A card deposit by `key` (approved at once by the sandbox): its id. */
export async function cardDeposit(t: TestGateway, key: string, amount = '25.00'): Promise<string> {
  const result = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, amount } }, { key });
  expect(result.errors).toBeUndefined();
  expect(result.data!.createDeposit.userErrors).toEqual([]);
  return result.data!.createDeposit.deposit!.id;
}

export function clientId(t: TestGateway, name: 'web-cashier' | 'mobile-cashier' | 'admin'): string {
  return t.gateway.demoClients.find((client) => client.name.startsWith(name))!.id;
}

/** The events of one subject the receiver got, as types, in arrival order. */
export function typesOf(receiver: Receiver, subjectId: string): string[] {
  return receiver.delivered.filter((received) => received.data.id === subjectId).map((received) => received.type);
}

/** Settings that make a test quick: a sweep and worker polls every few tens of ms, a 1 s time-out. */
export const FAST_NOTIFICATIONS = {
  NOTIFICATION_SWEEP_INTERVAL_MS: '100',
  NOTIFICATION_TIMEOUT_MS: '1000',
  JOBS_POLL_INTERVAL_MS: '50',
};

/**
 * A test file's gateway with the fast notification settings above (and `env`'s), on a clock the
 * test moves, and the receivers the file starts: the gateway starts before the file's tests, and
 * all close after.
 */
export function useNotificationGateway(env: Record<string, string> = {}): { clock: ManualClock; gateway: () => TestGateway; receiver: () => Promise<Receiver> } {
  const clock = new ManualClock();
  let gateway: TestGateway | undefined;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    gateway = await startTestGateway({ clock, env: { ...FAST_NOTIFICATIONS, ...env } });
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all(receivers.map((started) => started.close()));
  });
  return {
    clock,
    gateway() {
      if (!gateway) throw new Error('the notification tests\' gateway starts in beforeAll');
      return gateway;
    },
    async receiver() {
      const started = await startReceiver();
      receivers.push(started);
      return started;
    },
  };
}
