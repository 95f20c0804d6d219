// A tiny sandbox of the test-only "third gateway": a node:http server that creates payments, answers
// status lookups and, when a payment is paid, sends the gateway a signed webhook over real HTTP.
// Its wire format is its own (snake_case JSON, `tp-signature: t=<unix>,v1=<hex HMAC-SHA256>`, the
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

export interface ThirdSandbox {
  /** Base address the adapter calls, e.g. http://127.0.0.1:1234 */
  baseUrl: string;
  /** The header its webhooks carry their signature in. */
  signatureHeader: string;
  payments: Map<string, ThirdPayment>;
  /** Where paid payments are reported; set once the gateway listens. */
  webhookUrl: string | undefined;
  /** Marks a payment paid; with `webhook` (default), reports it and resolves with the gateway's answer. */
  pay(id: string, options?: { webhook?: boolean }): Promise<{ status: number; body: unknown } | undefined>;
  /** Sends a body signed with the given secret (a wrong one to test refusal). */
  send(body: string, secret?: string): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

export const THIRD_API_KEY = 'tp_test_key_for_the_sandbox';
export const THIRD_WEBHOOK_SECRET = 'whsec_third_gateway_sandbox';

export function signThird(body: string, secret: string, at = Math.floor(Date.now() / 1000)): string {
  return `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}`;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startThirdSandbox(options: { port?: number; signatureHeader?: string } = {}): Promise<ThirdSandbox> {
  const signatureHeader = options.signatureHeader ?? 'tp-signature';
  const payments = new Map<string, ThirdPayment>();
  /** Idempotency: our deposit id (the merchant reference) creates one payment, however often it is sent. */
  const byReference = new Map<string, string>();
  let events = 0;

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://sandbox');
      // Readiness, as the gateway's sandbox host asks it: no key.
      if (req.method === 'GET' && url.pathname === '/healthz') return reply(res, 200, { ok: true });
      if (req.headers.authorization !== `Bearer ${THIRD_API_KEY}`) return reply(res, 401, { error: 'unauthorized' });
      if (req.method === 'GET' && url.pathname === '/health') return reply(res, 200, { ok: true });
      if (req.method === 'POST' && url.pathname === '/payments') {
        const body = (await readJson(req)) as { merchant_reference: string; amount: string; currency: string };
        const existing = byReference.get(body.merchant_reference);
        if (existing) return reply(res, 200, payments.get(existing));
        const payment: ThirdPayment = {
          id: `tp_pay_${payments.size + 1}`,
          merchant_reference: body.merchant_reference,
          amount: body.amount,
          currency: body.currency,
          status: 'pending',
          created_at: new Date().toISOString(),
        };
        payments.set(payment.id, payment);
        byReference.set(payment.merchant_reference, payment.id);
        return reply(res, 201, payment);
      }
      const match = /^\/payments\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && match) {
        const payment = payments.get(decodeURIComponent(match[1]!));
        return payment ? reply(res, 200, payment) : reply(res, 404, { error: 'not_found' });
      }
      reply(res, 404, { error: 'not_found' });
    })().catch((error: unknown) => reply(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const sandbox: ThirdSandbox = {
    baseUrl: url,
    signatureHeader,
    payments,
    webhookUrl: undefined,
    async send(body, secret = THIRD_WEBHOOK_SECRET) {
      if (!sandbox.webhookUrl) throw new Error('the sandbox has no webhook URL yet');
      const response = await fetch(sandbox.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', [signatureHeader]: signThird(body, secret) }, body });
      return { status: response.status, body: await response.json() };
    },
    async pay(id, options = {}) {
      const payment = payments.get(id);
      if (!payment) throw new Error(`no payment ${id}`);
      payment.status = 'paid';
      if (options.webhook === false) return undefined;
      events++;
      return sandbox.send(JSON.stringify({ id: `tp_evt_${events}`, type: 'payment.paid', payment }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return sandbox;
}
