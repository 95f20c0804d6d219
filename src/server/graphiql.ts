// GraphiQL on GET /graphql, self-contained (no CDN: every script and style is inlined), with
// subscriptions over graphql-ws, served compressed. The demo admin key is pre-filled in the
// headers only for a client on this machine (a loopback peer address).

import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * The tabs a first visit opens with: the operations of the README and docs/, ready to run with the demo admin key.
 * GraphiQL keeps tabs in the browser's storage, so these only fill a fresh page. The operations
 * are checked against the schema, and against the docs' (the same operations, variables
 * written in), by test/foundation/graphiql.test.ts.
 */
export const DEFAULT_TABS: ReadonlyArray<{ query: string; variables?: string }> = [
  {
    query: `# Welcome to the payments gateway. Every operation needs a key: the Headers tab below has one.
# GraphiQL runs one operation at a time per window: to watch a subscription while you run
# mutations, open this page in a second window.

query Viewer {
  viewer { id name roles }
  merchantAccounts { code provider livemode }
}
`,
  },
  {
    query: `# Every change of every deposit the key may see, as it commits. Run it in its own window.
subscription WatchDeposits {
  depositUpdated { id status amount { amount currency } fee { amount } net { amount } declineReason updatedAt }
}
`,
  },
  {
    query: `# A card deposit. Try amount "10.13" for a decline, "0.50" for AMOUNT_BELOW_MINIMUM, or the
# same idempotencyKey twice for the same answer.
mutation TakeDeposit($input: CreateDepositInput!) {
  createDeposit(input: $input) {
    deposit { id status redirectUrl amount { amount currency } }
    userErrors { field code message }
  }
}
`,
    variables: JSON.stringify(
      {
        input: {
          amount: '25.00',
          idempotencyKey: 'order-1001-attempt-1',
          merchantReference: 'order-1001',
          customer: { email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva', country: 'NL', address1: 'Damrak 1', city: 'Amsterdam', zipCode: '1012LG' },
          card: {},
        },
      },
      null,
      2,
    ),
  },
  {
    query: `# Refund a SUCCEEDED deposit in full (no amount) or in part; follow it on refundUpdated.
mutation Refund($depositId: ID!) {
  requestRefund(input: { depositId: $depositId, amount: "10.00", reason: "player asked", idempotencyKey: "refund-order-1001" }) {
    refund { id status amount { amount currency } }
    userErrors { field code message }
  }
}
`,
    variables: JSON.stringify({ depositId: 'dep_…' }, null, 2),
  },
  {
    query: `# A Thai QR code to show the payer; simulateQrPayment pays it in test mode.
mutation ShowQrCode {
  createQrCode(input: { amount: "150.00", payer: { name: "Somchai Jaidee" }, idempotencyKey: "table-7-bill-1" }) {
    deposit { id status qrCode { payload svg expiresAt } }
    userErrors { field code message }
  }
}
`,
  },
  {
    query: `# What admins did, newest first: clients created and revoked, replays, reconciliations.
query AdminTrail {
  adminActions(first: 20) { edges { node { action clientName outcome objects { kind id } startedAt } } }
}
`,
  },
  {
    query: `# Why is a deposit stuck? Its whole story, oldest first: changes, provider calls (each
# attempt), webhooks, follow-up jobs, reconciliation checks, notifications, its credit claim.
query PaymentTimeline($id: ID!) {
  deposit(id: $id) {
    id status
    timeline {
      edges { node { kind at traceId
        ... on EventEntry { type fromStatus toStatus }
        ... on ProviderCallEntry { operation attempt callOutcome httpStatus durationMs error }
        ... on WebhookDeliveryEntry { eventName deliveryOutcome reason }
        ... on JobEntry { jobKind status attempts lastError }
        ... on ReconciliationCheckEntry { checkOutcome reason }
        ... on NotificationAttemptEntry { endpointUrl httpStatus errorCode }
      } }
      pageInfo { hasNextPage endCursor }
    }
  }
}
`,
    variables: JSON.stringify({ id: 'dep_…' }, null, 2),
  },
];

/** The media types Apollo answers on /graphql; GraphiQL is served only when HTML is preferred to all of them. */
const NEGOTIATED = ['application/json', 'application/graphql-response+json', 'multipart/mixed', 'text/html'];

type Encoding = 'br' | 'gzip' | 'identity';

/**
 * True for a peer address on this machine: 127.0.0.0/8, ::1, or either written as IPv4-mapped
 * IPv6 (a socket listening on `::` reports IPv4 peers as `::ffff:a.b.c.d`).
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || address === '::1' || address === '0:0:0:0:0:0:0:1';
}

/**
 * Express handler for GET /graphql that serves GraphiQL to a browser and passes every other
 * request on. `defaultAuthorization` (the demo admin key) is written into the page only when the
 * TCP peer is loopback: the socket's address, never a header the client controls (`trust proxy`
 * is off), so a gateway reachable from the network never hands its admin key out.
 */
export function graphiqlPage(options: { defaultAuthorization?: string }): RequestHandler {
  // Each variant rendered on its first request, not at start: most gateways never serve the page,
  // and rendering both took about 5% of a gateway's start (a test suite starts a hundred).
  let withKey: string | undefined;
  let withoutKey: string | undefined;
  const page = (keyed: boolean): string => (keyed ? (withKey ??= render(options.defaultAuthorization)) : (withoutKey ??= render(undefined)));
  // The page is static per variant: each is compressed once, on first use, and kept.
  const compressed = new Map<string, Promise<Buffer>>();
  const encoded = (variant: 'key' | 'nokey', html: string, encoding: Exclude<Encoding, 'identity'>): Promise<Buffer> => {
    const cacheKey = `${variant}:${encoding}`;
    let entry = compressed.get(cacheKey);
    if (!entry) {
      const bytes = Buffer.from(html, 'utf8');
      // Brotli's default quality (11) takes seconds on a page this size; 9 is near it in size.
      entry = encoding === 'br' ? brotliAsync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } }) : gzipAsync(bytes, { level: 9 });
      compressed.set(cacheKey, entry);
      entry.catch(() => compressed.delete(cacheKey));
    }
    return entry;
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' || req.accepts(NEGOTIATED) !== 'text/html') return next();
    const keyed = Boolean(options.defaultAuthorization) && isLoopbackAddress(req.socket.remoteAddress);
    const html = page(keyed);
    const encoding = (req.acceptsEncodings('br', 'gzip', 'identity') || 'identity') as Encoding;
    res.vary('Accept-Encoding');
    res.type('html');
    // A page carrying a key must not sit in any cache.
    res.set('Cache-Control', keyed ? 'no-store' : 'no-cache');
    try {
      if (encoding === 'identity') {
        res.send(html);
        return;
      }
      const body = await encoded(keyed ? 'key' : 'nokey', html, encoding);
      res.set('Content-Encoding', encoding);
      res.send(body);
    } catch (error) {
      next(error);
    }
  };
}

function render(defaultAuthorization: string | undefined): string {
  const headers = defaultAuthorization ? JSON.stringify({ Authorization: defaultAuthorization }, null, 2) : undefined;
  return renderGraphiQL({
    title: 'Payments gateway',
    endpoint: '/graphql',
    subscriptionsProtocol: 'WS',
    defaultTabs: DEFAULT_TABS.map((tab) => ({ ...tab, ...(headers ? { headers } : {}) })),
    ...(headers ? { defaultHeaders: headers } : {}),
    // GraphiQL opens graphql-ws with these parameters; each operation then carries the Headers
    // tab in its extensions, which the ws server authenticates per operation.
    ...(defaultAuthorization ? { connectionParams: { authorization: defaultAuthorization } } : {}),
    isHeadersEditorEnabled: true,
    defaultEditorToolsVisibility: 'headers',
    shouldPersistHeaders: false,
  });
}
