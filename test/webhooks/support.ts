// Test helpers for the webhook inbox and the event bus: deposit rows made directly, and deposit
// gateway webhooks signed the way the provider signs them, POSTed over real HTTP.

import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { Deposit } from '../../src/modules/deposits/deposit.entity.js';
import { PaymentEvent } from '../../src/kernel/events/payment-event.entity.js';
import { WebhookDelivery } from '../../src/kernel/inbox/webhook-delivery.entity.js';
import { signatureHeader } from '../../src/providers/deposit-gateway/index.js';
import { execute, type TestGateway } from '../support/gateway.js';
import { statementsIssued } from '../support/statements.js';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';

export const DG_ACCOUNT = 'dg-test';

/** A PENDING card deposit of a demo client on `dg-test`, inserted directly (no provider call). */
export async function insertDeposit(
  t: TestGateway,
  overrides: Partial<Pick<Deposit, 'amount' | 'currency' | 'status' | 'providerReference' | 'clientId' | 'merchantAccount'>> = {},
): Promise<Deposit> {
  const em = t.gateway.db.fork();
  const client = t.gateway.demoClients[0];
  if (!client) throw new Error('demo clients are needed');
  const deposit = em.create(Deposit, {
    id: newId('dep'),
    clientId: client.id,
    merchantAccount: DG_ACCOUNT,
    provider: 'deposit-gateway',
    rail: 'CARD',
    livemode: false,
    status: 'PENDING',
    providerStatus: 'redirected',
    amount: '10.00',
    currency: 'EUR',
    providerReference: `pay_${randomBytes(8).toString('hex')}`,
    request: { details: { rail: 'CARD' }, customer: {} },
    ...overrides,
  });
  await em.flush();
  return deposit;
}

export interface Envelope {
  id: string;
  event: string;
  livemode: boolean;
  created_at: string;
  data: Record<string, unknown>;
}

/** The deposit gateway's envelope (spec: Webhook event envelope) for a payment of `deposit`. */
export function paymentEnvelope(deposit: Deposit, status: string, data: Record<string, unknown> = {}): Envelope {
  return {
    id: `evt_${randomBytes(10).toString('hex')}`,
    event: `payment.${status}`,
    livemode: false,
    created_at: new Date().toISOString(),
    data: {
      reference: deposit.providerReference,
      merchant_reference: deposit.id,
      status,
      amount: deposit.amount,
      currency: deposit.currency,
      ...data,
    },
  };
}

export interface SendOptions {
  /** Secrets to sign with (default: the account's current one). */
  secrets?: string[];
  /** Signature timestamp, unix seconds (default: now). */
  timestamp?: number;
  /** Replaces the signature header entirely; null sends none. */
  header?: string | null;
  account?: string;
  provider?: string;
}

export function accountSecrets(t: TestGateway, code = DG_ACCOUNT): string[] {
  const account = t.gateway.config.merchantAccounts.find((candidate) => candidate.code === code);
  if (!account) throw new Error(`no account ${code}`);
  return account.webhookSecrets;
}

/** POSTs `body` (an envelope or exact bytes) signed as the provider would, and reads the answer. */
export async function sendWebhook(t: TestGateway, body: Envelope | string | Buffer, options: SendOptions = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const header = options.header === undefined ? signatureHeader(bytes, options.secrets ?? [accountSecrets(t)[0]!], timestamp) : options.header;
  const response = await fetch(`${t.gateway.url}/webhooks/${options.provider ?? 'deposit-gateway'}/${options.account ?? DG_ACCOUNT}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(header === null ? {} : { 'x-service-signature': header }) },
    body: new Uint8Array(bytes),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export async function readDeposit(t: TestGateway, id: string): Promise<Deposit> {
  return t.gateway.db.fork().findOneOrFail(Deposit, { id });
}

/**
 * A card deposit made through the API that the provider approved, but whose approval webhook
 * never reached the gateway (the sandbox dropped it): our row still lacks the status and fee/net.
 */
export async function approvedWithWebhookLost(t: TestGateway): Promise<{ id: string; reference: string }> {
  const controls = t.gateway.sandboxes.get('deposit-gateway')!.controls;
  const apiKey = t.gateway.config.merchantAccounts.find((account) => account.code === DG_ACCOUNT)!.apiKey;
  controls.webhooks({ apiKey, dropNext: 10 });
  try {
    const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
    expect(created.data?.createDeposit.userErrors).toEqual([]);
    const id = created.data!.createDeposit.deposit!.id;
    const reference = (await readDeposit(t, id)).providerReference!;
    await expect.poll(() => controls.payment(reference)?.status, { interval: 20 }).toBe('approved');
    return { id, reference };
  } finally {
    controls.webhooks({ apiKey, dropNext: 0 });
  }
}

/**
 * The statements the approval webhook of a deposit `approvedWithWebhookLost` left behind costs,
 * its fee/net follow-up included: the job worker's claims and sweeps, key lookups, the bus, the
 * relay, the limits' sharing and the timeline's call records are background work, left out.
 */
export function webhookAndFollowUpStatements(t: TestGateway, id: string): Promise<string[]> {
  return statementsIssued(
    t,
    async () => {
      const sent = await sendWebhook(t, paymentEnvelope(await readDeposit(t, id), 'approved'));
      expect(sent.body.outcome).toBe('applied');
      await expect.poll(async () => (await readDeposit(t, id)).fee, { interval: 20 }).not.toBeNull();
    },
    /^\s*update\s+job\b|\b(from|update)\s+"?api_client"?\b|\/\* (event-bus|relay|client-limits|call-records) \*\/|^\s*select "d0"\.\* from "deposit"/i,
  );
}

export async function eventsOf(t: TestGateway, depositId: string): Promise<PaymentEvent[]> {
  return t.gateway.db.fork().find(PaymentEvent, { subjectType: 'deposit', subjectId: depositId }, { orderBy: { position: 'asc' } });
}

export async function deliveries(t: TestGateway, where: { eventId?: string; subjectId?: string } = {}): Promise<WebhookDelivery[]> {
  return t.gateway.db.fork().find(WebhookDelivery, where, { orderBy: { receivedAt: 'asc', id: 'asc' } });
}

export async function countDeliveries(t: TestGateway): Promise<number> {
  return t.gateway.db.fork().count(WebhookDelivery, {});
}
