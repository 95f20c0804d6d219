// A tiny sandbox of the test-only "third gateway": a node:http server that creates payments, refunds
// and payouts, answers status lookups and payout lists, takes webhook registrations and, when
// something is settled, sends a signed webhook over real HTTP to every registered URL, signed with
// that registration's secret. Its wire format is its own (snake_case JSON,
// `tp-signature: t=<unix>,v1=<hex HMAC-SHA256>`, the
// header's name a setting of its provider), so the gateway can only understand it through the
// adapter beside it.

import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ThirdPayment {
  id: string;
  merchant_reference: string;
  amount: string;
  currency: string;
  status: 'pending' | 'paid' | 'failed';
  created_at: string;
}

export interface ThirdRefund {
  id: string;
  payment_id: string;
  refund_id: string;
  amount: string;
  currency: string;
  status: 'pending' | 'approved' | 'rejected';
}

export interface ThirdPayout {
  id: string;
  merchant_reference: string;
  country: string;
  amount: string;
  currency: string;
  account_number: string;
  status: 'pending' | 'paid' | 'bounced';
  created_at: string;
}

export interface ThirdRegistration {
  id: string;
  url: string;
  events: string[];
  secret: string;
  status: 'active';
  created_at: string;
}

export interface ThirdSandbox {
  /** Base address the adapter calls, e.g. http://127.0.0.1:1234 */
  baseUrl: string;
  /** The header its webhooks carry their signature in. */
  signatureHeader: string;
  payments: Map<string, ThirdPayment>;
  refunds: Map<string, ThirdRefund>;
  payouts: Map<string, ThirdPayout>;
  /** Webhook registrations, in the order they were made. */
  registrations: ThirdRegistration[];
  /** Every request's method, path and headers, as received (newest last). */
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers'] }>;
  /** Marks a payment paid; with `webhook` (default), reports it and resolves with the gateway's answer. */
  pay(id: string, options?: { webhook?: boolean }): Promise<{ status: number; body: unknown } | undefined>;
  /** Approves a refund and reports it. */
  approveRefund(id: string): Promise<{ status: number; body: unknown }>;
  /** Marks a payout paid and reports it. */
  payPayout(id: string): Promise<{ status: number; body: unknown }>;
  /** Sends a body to the registered URL, signed with the registration's secret or the one given (a wrong one to test refusal). */
  send(body: string, secret?: string): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

export const THIRD_API_KEY = 'tp_test_key_for_the_sandbox';
export const THIRD_WEBHOOK_SECRET = 'whsec_third_gateway_sandbox';

export function signThird(body: string, secret: string, at = Math.floor(Date.now() / 1000)): string {
  return `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}`;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

type Route = (body: Record<string, unknown>, match: RegExpExecArray, url: URL) => [number, unknown];

export async function startThirdSandbox(options: { port?: number; signatureHeader?: string } = {}): Promise<ThirdSandbox> {
  const signatureHeader = options.signatureHeader ?? 'tp-signature';
  const payments = new Map<string, ThirdPayment>();
  const refunds = new Map<string, ThirdRefund>();
  const payouts = new Map<string, ThirdPayout>();
  const registrations: ThirdRegistration[] = [];
  const requests: ThirdSandbox['requests'] = [];
  /** Idempotency: our id (payment, refund or payout) creates one object, however often it is sent. */
  const seen = new Map<string, unknown>();
  let events = 0;

  const once = (key: string, create: () => unknown): [number, unknown] => {
    const existing = seen.get(key);
    if (existing) return [200, existing];
    const created = create();
    seen.set(key, created);
    return [201, created];
  };

  const routes: Array<{ method: string; path: RegExp; run: Route }> = [
    { method: 'GET', path: /^\/health$/, run: () => [200, { ok: true }] },
    {
      method: 'POST',
      path: /^\/payments$/,
      run: (body) =>
        once(`payment:${String(body.merchant_reference)}`, () => {
          const payment: ThirdPayment = { id: `tp_pay_${payments.size + 1}`, merchant_reference: String(body.merchant_reference), amount: String(body.amount), currency: String(body.currency), status: 'pending', created_at: new Date().toISOString() };
          payments.set(payment.id, payment);
          return payment;
        }),
    },
    {
      method: 'GET',
      path: /^\/payments\/([^/]+)$/,
      run: (_body, match) => {
        const payment = payments.get(decodeURIComponent(match[1]!));
        return payment ? [200, payment] : [404, { error: 'not_found' }];
      },
    },
    {
      method: 'POST',
      path: /^\/refunds$/,
      run: (body) => {
        const payment = payments.get(String(body.payment_id));
        if (!payment || payment.status !== 'paid') return [422, { error: 'payment_not_refundable' }];
        return once(`refund:${String(body.refund_id)}`, () => {
          const refund: ThirdRefund = { id: `tp_rfd_${refunds.size + 1}`, payment_id: payment.id, refund_id: String(body.refund_id), amount: String(body.amount), currency: payment.currency, status: 'pending' };
          refunds.set(refund.id, refund);
          return refund;
        });
      },
    },
    {
      method: 'POST',
      path: /^\/payouts$/,
      run: (body) =>
        once(`payout:${String(body.merchant_reference)}`, () => {
          const payout: ThirdPayout = {
            id: `tp_po_${payouts.size + 1}`,
            merchant_reference: String(body.merchant_reference),
            country: String(body.country),
            amount: String(body.amount),
            currency: String(body.currency),
            account_number: String(body.account_number),
            status: 'pending',
            created_at: new Date().toISOString(),
          };
          payouts.set(payout.id, payout);
          return payout;
        }),
    },
    // Newest first, one page: the gateway reconciles payouts from it.
    { method: 'GET', path: /^\/payouts$/, run: () => [200, { items: [...payouts.values()].reverse() }] },
    {
      method: 'POST',
      path: /^\/webhooks$/,
      run: (body) => {
        if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url) || typeof body.secret !== 'string') return [422, { error: 'url_and_secret_required' }];
        const registration: ThirdRegistration = { id: `tp_wh_${registrations.length + 1}`, url: body.url, events: (body.events as string[] | undefined) ?? [], secret: body.secret, status: 'active', created_at: new Date().toISOString() };
        registrations.push(registration);
        const { secret: _secret, ...shown } = registration;
        return [201, shown];
      },
    },
  ];

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://sandbox');
      // Readiness, as the gateway's sandbox host asks it: no key.
      if (req.method === 'GET' && url.pathname === '/healthz') return reply(res, 200, { ok: true });
      requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers });
      if (req.headers.authorization !== `Bearer ${THIRD_API_KEY}`) return reply(res, 401, { error: 'unauthorized' });
      for (const route of routes) {
        const match = route.method === req.method ? route.path.exec(url.pathname) : null;
        if (!match) continue;
        const [status, body] = route.run(req.method === 'POST' ? await readJson(req) : {}, match, url);
        return reply(res, status, body);
      }
      reply(res, 404, { error: 'not_found' });
    })().catch((error: unknown) => reply(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const report = (type: string, object: Record<string, unknown>) => sandbox.send(JSON.stringify({ id: `tp_evt_${++events}`, type, object }));

  const sandbox: ThirdSandbox = {
    baseUrl,
    signatureHeader,
    payments,
    refunds,
    payouts,
    registrations,
    requests,
    async send(body, secret) {
      // Like a provider with a registration API: events go to registered URLs only.
      const registration = registrations.at(-1);
      if (!registration) throw new Error('no webhook URL is registered with the sandbox');
      const response = await fetch(registration.url, { method: 'POST', headers: { 'content-type': 'application/json', [signatureHeader]: signThird(body, secret ?? registration.secret) }, body });
      return { status: response.status, body: await response.json() };
    },
    async pay(id, options = {}) {
      const payment = payments.get(id);
      if (!payment) throw new Error(`no payment ${id}`);
      payment.status = 'paid';
      if (options.webhook === false) return undefined;
      return report('payment.paid', { ...payment });
    },
    async approveRefund(id) {
      const refund = refunds.get(id);
      if (!refund) throw new Error(`no refund ${id}`);
      refund.status = 'approved';
      return report('refund.approved', { ...refund });
    },
    async payPayout(id) {
      const payout = payouts.get(id);
      if (!payout) throw new Error(`no payout ${id}`);
      payout.status = 'paid';
      return report('payout.paid', { ...payout });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return sandbox;
}
