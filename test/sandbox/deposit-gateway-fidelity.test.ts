// The deposit gateway sandbox can say everything the spec says, over its own HTTP API and pages:
// every card decline reason, per-account card brands, refund_status `cancelled`, payout.failed, an
// event name the spec does not list, and the statuses without a transition in the spec reached
// from the payment and checkout pages as well as the test control, except on the crypto page, whose
// flow has only two outcomes. The checkout page keeps the session's amount and account whatever is
// posted to it.

import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_DECLINE_REASONS, SANDBOX_TRIGGERS } from '../../src/providers/deposit-gateway/assumptions.js';
import { startDepositGatewaySandbox, type DepositGatewaySandbox } from '../../src/sandbox/deposit-gateway/index.js';
import { loadCardForm, submitCard, type CardEntry } from '../card-form/shopper.js';

const TEST_KEY = 'svc_test_fidelity';
const AMEX_KEY = 'svc_test_fidelity_amex';
const LIVE_KEY = 'svc_live_not_a_real_key_fidelity';
const SECRET = 'whsec_fidelity';
const RESULT_URL = 'https://shop.example/cashier/back?order=signed-token';

let sandbox: DepositGatewaySandbox;
let receiver: http.Server;
const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  sandbox = await startDepositGatewaySandbox({
    accounts: [
      { apiKey: TEST_KEY, webhookSecret: SECRET, webhookUrl },
      { apiKey: AMEX_KEY, webhookSecret: SECRET, cardBrands: 'VISA MASTER AMEX' },
      { apiKey: LIVE_KEY, webhookSecret: SECRET },
    ],
    timeScale: 0.001,
    autoComplete: false,
  });
});

afterAll(async () => {
  await sandbox?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

type Json = Record<string, any>;

async function call(method: string, path: string, body?: unknown, key = TEST_KEY): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/** A browser form post to a sandbox page; redirects are not followed, so the answer is the page's own. */
async function post(path: string, fields: Record<string, string> = {}): Promise<Response> {
  return fetch(`${sandbox.checkoutUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

const person = { email: 'player@example.com', firstName: 'Ada', lastName: 'Lovelace' };
const card = { method: 'cards', amount: '10.00', ...person, country: 'DE', address1: 'Main St 1', city: 'Berlin', zipCode: '10115' };
const sepa = { ...card, method: 'sepa', bankCountry: 'NL', country: 'NL', amount: '25.00' };

async function createCard(key = TEST_KEY, amount = '10.00'): Promise<string> {
  const created = await call('POST', '/payments', { ...card, amount }, key);
  expect(created.status).toBe(201);
  return created.body.payment.reference as string;
}

/** The shopper pays in the embedded card form with `entry`; then the merchant's server settles. */
async function payByCard(reference: string, entry: CardEntry, key = TEST_KEY): Promise<{ submission: Awaited<ReturnType<typeof submitCard>>; settle: Json }> {
  const session = await call('GET', `/payments/${reference}/card-session`, undefined, key);
  expect(session.status).toBe(200);
  const form = await loadCardForm(session.body.script_url as string, RESULT_URL, String(session.body.brands).split(' '));
  const submission = await submitCard(form.fieldsUrl, entry);
  const settle = await call('POST', `/payments/${reference}/settle`, {}, key);
  return { submission, settle: settle.body };
}

describe('card decline reasons', () => {
  const cards = Object.entries(SANDBOX_TRIGGERS.declineCards) as Array<[string, readonly [string, string]]>;

  it('has a test card for every decline reason of the spec', () => {
    expect(new Set(cards.map(([, [reason]]) => reason))).toEqual(new Set(CARD_DECLINE_REASONS));
  });

  it.each(cards)('card %s declines with its reason; the processor code stays in status_reason', async (number, [reason, processorCode]) => {
    const reference = await createCard();
    const { settle } = await payByCard(reference, { number, expiry: '12/39', cvv: '123' });
    expect(settle).toMatchObject({ ok: true, settled: true, changed: true, payment: { status: 'declined', decline_reason: reason } });
    const payment = await call('GET', `/payments/${reference}`);
    expect(payment.body.payment).toMatchObject({ status: 'declined', decline_reason: reason, status_reason: processorCode, card_bin: null });
  });

  it('the card payment page offers every decline reason, and declines with the one chosen', async () => {
    const reference = await createCard();
    const page = await (await fetch(sandbox.controls.payment(reference)!.redirect_url)).text();
    for (const reason of CARD_DECLINE_REASONS) expect(page).toContain(`value="${reason}"`);
    const basePath = new URL(sandbox.controls.payment(reference)!.redirect_url).pathname;
    const answer = await post(`${basePath}/decline`, { decline_reason: 'verification_failed' });
    expect(answer.status).toBe(303);
    expect((await call('GET', `/payments/${reference}`)).body.payment).toMatchObject({ status: 'declined', decline_reason: 'verification_failed' });
  });

  it('the test control declines with a named reason too', async () => {
    const reference = await createCard();
    sandbox.controls.complete(reference, 'declined', { declineReason: 'too_many_attempts' });
    expect((await call('GET', `/payments/${reference}`)).body.payment).toMatchObject({ status: 'declined', decline_reason: 'too_many_attempts' });
  });
});

describe('card brands per account', () => {
  const AMEX: CardEntry = { number: '3782 822463 10005', expiry: '12/39', cvv: '1234' };

  it('the card session lists the brands boarded on the account, not always VISA MASTER', async () => {
    const amexSession = await call('GET', `/payments/${await createCard(AMEX_KEY)}/card-session`, undefined, AMEX_KEY);
    expect(amexSession.body.brands).toBe('VISA MASTER AMEX');
    const defaultSession = await call('GET', `/payments/${await createCard()}/card-session`);
    expect(defaultSession.body.brands).toBe('VISA MASTER');
  });

  it('a brand the account boarded authorises; on an account without it the card is refused, whatever the form says', async () => {
    const onAmexAccount = await payByCard(await createCard(AMEX_KEY), AMEX, AMEX_KEY);
    expect(onAmexAccount.settle.payment).toMatchObject({ status: 'approved' });

    const reference = await createCard();
    const session = await call('GET', `/payments/${reference}/card-session`);
    // The merchant's form claims AMEX; the processor goes by the account.
    const form = await loadCardForm(session.body.script_url as string, RESULT_URL, ['VISA', 'MASTER', 'AMEX']);
    const refused = await submitCard(form.fieldsUrl, AMEX);
    expect(refused.status).toBe(422);
    expect(sandbox.controls.payment(reference)!.status).toBe('redirected');
  });

  it('a brand set later on the account applies from then on', async () => {
    sandbox.controls.setAccount(TEST_KEY, { cardBrands: 'VISA MASTER MAESTRO JCB' });
    try {
      const session = await call('GET', `/payments/${await createCard()}/card-session`);
      expect(session.body.brands).toBe('VISA MASTER MAESTRO JCB');
      const jcb = await payByCard(await createCard(), { number: '3530111333300000', expiry: '12/39', cvv: '123' });
      expect(jcb.settle.payment).toMatchObject({ status: 'approved' });
      expect((await call('GET', `/payments/${jcb.settle.payment.reference}`)).body.payment.card_scheme).toBe('JCB');
    } finally {
      sandbox.controls.setAccount(TEST_KEY, { cardBrands: undefined });
    }
  });
});

describe('refund_status cancelled', () => {
  async function approvedPayment(): Promise<string> {
    const reference = await createCard(TEST_KEY, '40.00');
    sandbox.controls.complete(reference, 'approved');
    return reference;
  }

  it(`a refund whose amount ends in ${SANDBOX_TRIGGERS.refundCancelMinorSuffix} (minor units) is cancelled: refund.cancelled, refund_status cancelled, nothing refunded`, async () => {
    const reference = await approvedPayment();
    const refund = await call('POST', '/refunds', { reference, amount: '10.31', idempotency_key: `cancel-${reference}` });
    expect(refund.status).toBe(201);
    await sandbox.controls.idle();
    const events = sandbox.controls.events(TEST_KEY).filter((event) => event.data.reference === refund.body.refund.id);
    expect(events.map((event) => [event.event, event.data.status])).toEqual([
      ['refund.requested', 'pending'],
      ['refund.cancelled', 'cancelled'],
    ]);
    expect((await call('GET', `/payments/${reference}`)).body.payment).toMatchObject({ status: 'approved', refund_status: 'cancelled' });
    // Nothing moved: the whole amount can still be refunded.
    expect((await call('POST', '/refunds', { reference, amount: '40.00' })).status).toBe(201);
  });

  it('the test control cancels a refund still under review, and refuses one already decided', async () => {
    // A sandbox on a slow clock: the review takes a real second, so the control comes first.
    const slow = await startDepositGatewaySandbox({ accounts: [{ apiKey: TEST_KEY, webhookSecret: SECRET }], timeScale: 10, autoComplete: false });
    try {
      const created = await fetch(`${slow.baseUrl}/payments`, { method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ ...card, amount: '40.00' }) });
      const reference = ((await created.json()) as Json).payment.reference as string;
      slow.controls.complete(reference, 'approved');
      const answer = await fetch(`${slow.baseUrl}/refunds`, { method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ reference, amount: '5.00' }) });
      const refundId = ((await answer.json()) as Json).refund.id as string;
      slow.controls.cancelRefund(refundId);
      await slow.controls.idle();
      expect(slow.controls.refunds(reference)).toEqual([expect.objectContaining({ id: refundId, status: 'cancelled' })]);
      expect(slow.controls.payment(reference)).toMatchObject({ refund_status: 'cancelled' });
      expect(() => slow.controls.cancelRefund(refundId)).toThrow(/already cancelled/);
    } finally {
      await slow.close();
    }
  });
});

describe('payout.failed', () => {
  it(`a payout to an account ending in ${SANDBOX_TRIGGERS.payoutFailAccountSuffix} fails: payout.failed, status failed`, async () => {
    const created = await call('POST', '/payouts', {
      country: 'COLOMBIA',
      amount: '50000',
      beneficiary: { name: 'Ada Lovelace', document_type: 'CC', document_number: '1020304050', account_number: '12345678941', bank_code: 'BANCOLOMBIA', account_type: 'SAVINGS' },
    });
    expect(created.status).toBe(201);
    await sandbox.controls.idle();
    const reference = created.body.payout.reference as string;
    expect(sandbox.controls.events(TEST_KEY).filter((event) => event.data.reference === reference).map((event) => [event.event, event.data.status])).toEqual([['payout.failed', 'failed']]);
    expect(sandbox.controls.payout(reference)).toMatchObject({ status: 'failed' });
  });
});

describe('an event name the spec does not list', () => {
  it('is signed and delivered like any other, with the data given', async () => {
    const before = received.length;
    const envelope = sandbox.controls.emitEvent(TEST_KEY, 'balance.topped_up', { reference: 'svc_bal_1', status: 'credited', amount: '1.00', currency: 'EUR' });
    await sandbox.controls.idle();
    const deliveries = received.slice(before).filter((entry) => entry.body.includes(envelope.id));
    // Delivered once, with the data given
    expect(deliveries.map((entry) => JSON.parse(entry.body) as unknown)).toEqual([
      { id: envelope.id, event: 'balance.topped_up', livemode: false, created_at: envelope.created_at, data: { reference: 'svc_bal_1', status: 'credited', amount: '1.00', currency: 'EUR' } },
    ]);
    const [delivery] = deliveries as [(typeof received)[number]];
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(String(delivery.headers['x-service-signature']))!;
    expect(v1).toBe(createHmac('sha256', SECRET).update(`${t}.${delivery.body}`).digest('hex'));
  });
});

describe('statuses without a transition in the spec, from the sandbox pages', () => {
  it.each([
    ['authorize', 'approved_for_payment', 'payment.approved_for_payment'],
    ['cancel', 'cancelled', 'payment.cancelled'],
    ['expire', 'expired', 'payment.expired'],
    ['error', 'error', 'payment.error'],
  ])('the payment page\'s %s button makes the payment %s', async (action, status, event) => {
    const created = await call('POST', '/payments', sepa);
    const reference = created.body.payment.reference as string;
    const pageUrl = created.body.payment.redirect_url as string;
    const page = await (await fetch(pageUrl)).text();
    expect(page).toContain(`formaction="${new URL(pageUrl).pathname}/${action}"`);
    const answer = await post(`${new URL(pageUrl).pathname}/${action}`);
    expect(answer.status).toBe(303);
    expect(new URL(answer.headers.get('location')!).searchParams.get('status')).toBe(status);
    expect(sandbox.controls.payment(reference)!.status).toBe(status);
    expect(sandbox.controls.events(TEST_KEY).filter((entry) => entry.data.reference === reference).map((entry) => entry.event)).toContain(event);
  });

  it('an authorised payment stays open on its page and can still be paid', async () => {
    const created = await call('POST', '/payments', sepa);
    const path = new URL(created.body.payment.redirect_url as string).pathname;
    await post(`${path}/authorize`);
    expect(await (await fetch(`${sandbox.checkoutUrl}${path}`)).text()).toContain(`${path}/pay`);
    await post(`${path}/pay`);
    expect(sandbox.controls.payment(created.body.payment.reference)!.status).toBe('approved');
  });

  it('the hosted checkout page has the same buttons', async () => {
    const session = await call('POST', '/checkout-sessions', { amount: '30.00', currency: 'EUR' }, LIVE_KEY);
    const path = new URL(session.body.url as string).pathname;
    expect(await (await fetch(session.body.url as string)).text()).toContain(`${path}/cancel`);
    const answer = await post(`${path}/cancel`, { method: 'cards', email: 'player@example.com', firstName: 'Ada', lastName: 'Lovelace' });
    expect(answer.status).toBe(303);
    expect(new URL(answer.headers.get('location')!).searchParams.get('status')).toBe('cancelled');
  });
});

describe('the crypto flow has two outcomes', () => {
  // Spec (Events): "The crypto flow uses only payment.approved (deposit confirmed on-chain) and
  // payment.declined (quote expired with no matching deposit)".
  const crypto = { provider: 'crypto', amount: '25.00', currency: 'EUR', ...person };

  async function createCrypto(): Promise<{ reference: string; path: string }> {
    const created = await call('POST', '/payments', crypto);
    expect(created.status).toBe(201);
    return { reference: created.body.reference as string, path: new URL(created.body.redirect_url as string).pathname };
  }

  it('the crypto page offers a confirmed deposit and an expired quote, and nothing else', async () => {
    const { path } = await createCrypto();
    const page = await (await fetch(`${sandbox.checkoutUrl}${path}`)).text();
    const offered = [...page.matchAll(/formaction="([^"]+)"/g)].map((match) => match[1]);
    expect(offered).toEqual([`${path}/pay`, `${path}/decline`]);
    expect(page).toContain('Deposit confirmed on-chain');
    expect(page).toContain('Quote expired, no deposit');
    expect(page).not.toContain('decline_reason');
  });

  it.each([
    ['pay', 'approved', 'payment.approved'],
    ['decline', 'declined', 'payment.declined'],
  ])('its %s button makes the payment %s with %s, and no payment.pending', async (action, status, event) => {
    const { reference, path } = await createCrypto();
    const answer = await post(`${path}/${action}`);
    expect(answer.status).toBe(303);
    expect(sandbox.controls.payment(reference)!.status).toBe(status);
    expect(sandbox.controls.events(TEST_KEY).filter((entry) => entry.data.reference === reference).map((entry) => [entry.event, entry.data.status])).toEqual([[event, status]]);
  });

  it.each(['authorize', 'cancel', 'expire', 'error'])('a post to %s, which the crypto page does not offer, is refused and changes nothing', async (action) => {
    const { reference, path } = await createCrypto();
    const answer = await post(`${path}/${action}`);
    expect(answer.status).toBe(405);
    expect(sandbox.controls.payment(reference)!.status).toBe('pending');
    expect(sandbox.controls.events(TEST_KEY).filter((entry) => entry.data.reference === reference)).toEqual([]);
  });

  it.each(['approved_for_payment', 'cancelled', 'expired', 'error'] as const)('the test control refuses to make a crypto payment %s', async (outcome) => {
    const { reference } = await createCrypto();
    expect(() => sandbox.controls.complete(reference, outcome)).toThrow(/crypto payment cannot become/);
    expect(sandbox.controls.payment(reference)!.status).toBe('pending');
  });
});

describe('LATAM links expire as the spec states, on the sandbox\'s scaled clock', () => {
  // Spec (LATAM, expiresAt): "Ecuador requires a near-future value; Peru and Chile ignore it
  // (provider sets 30 minutes)"; Mexico and Colombia per A33. At timeScale 0.001 half an hour is 1.8 s.
  const TIME_SCALE = 0.001;
  const THIRTY_MINUTES = 30 * 60_000;
  const inMinutes = (minutes: number): string => new Date(Date.now() + minutes * 60_000).toISOString();
  const peru = { country: 'PERU', method: 'bank', amount: '50.00', ...person, documentType: 'DNI', documentNumber: '12345678' };
  const chile = { country: 'CHILE', method: 'bank', amount: '5000', ...person, documentType: 'RUT', documentNumber: '12345678-5' };
  const mexico = { country: 'MEXICO', amount: '100.00', ...person, documentType: 'CURP', documentNumber: 'GODE561231HDFRRN09' };
  const colombia = { country: 'COLOMBIA', amount: '50000', ...person, documentType: 'CC', documentNumber: '1020304050', phone: '3001234567', phoneCode: '+57' };
  const ecuador = { country: 'ECUADOR', amount: '20.00', ...person, documentType: 'CI', documentNumber: '1710034065' };

  async function createLatam(body: Json): Promise<{ reference: string; path: string }> {
    const created = await call('POST', '/payments', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { reference: created.body.reference as string, path: new URL(created.body.redirect_url as string).pathname };
  }

  it.each<[string, Json, 'requested' | 'thirty minutes']>([
    ['Peru: the provider\'s 30 minutes', peru, 'thirty minutes'],
    ['Chile: 30 minutes, its expiresAt in a week ignored', { ...chile, expiresAt: inMinutes(7 * 24 * 60) }, 'thirty minutes'],
    ['Ecuador: its expiresAt', { ...ecuador, expiresAt: inMinutes(90) }, 'requested'],
    ['Mexico: its expiresAt (A33)', { ...mexico, expiresAt: inMinutes(10) }, 'requested'],
    ['Mexico without expiresAt: 30 minutes (A33)', mexico, 'thirty minutes'],
    ['Colombia without expiresAt: 30 minutes (A33)', colombia, 'thirty minutes'],
  ])('%s', async (_label, body, lifetime) => {
    const { reference } = await createLatam(body);
    const payment = sandbox.controls.payment(reference)!;
    const createdAt = Date.parse(payment.created_at);
    const simulated = lifetime === 'thirty minutes' ? THIRTY_MINUTES : Date.parse(body.expiresAt as string) - createdAt;
    expect(Date.parse(payment.link_expires_at!) - createdAt).toBeCloseTo(simulated * TIME_SCALE, -1);
  });

  it('a link that lapses unpaid becomes expired with payment.expired, and its page refuses a late payment', async () => {
    // Given three Peru links made together: one paid at once, one authorised, and one left alone
    const paid = await createLatam(peru);
    const authorised = await createLatam(peru);
    const open = await createLatam(peru);
    expect((await post(`${paid.path}/pay`)).status).toBe(303);
    expect((await post(`${authorised.path}/authorize`)).status).toBe(303);
    expect((await fetch(`${sandbox.checkoutUrl}${open.path}`)).status).toBe(200);

    // When the last one's half hour passes (1.8 s here)
    await expect
      .poll(() => sandbox.controls.payment(open.reference)!.status, { timeout: 30_000, interval: 20, message: 'the unpaid Peru link never expired' })
      .toBe('expired');
    await sandbox.controls.idle();

    // Then it is expired, announced once by payment.expired (A27) to the merchant, signed
    const events = sandbox.controls.events(TEST_KEY).filter((entry) => entry.data.reference === open.reference);
    expect(events.map((entry) => [entry.event, entry.data.status])).toEqual([['payment.expired', 'expired']]);
    const delivered = received.filter((entry) => entry.body.includes(events[0]!.id));
    expect(delivered).toHaveLength(1);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(String(delivered[0]!.headers['x-service-signature']))!;
    expect(v1).toBe(createHmac('sha256', SECRET).update(`${t}.${delivered[0]!.body}`).digest('hex'));
    expect((await call('GET', `/payments/${open.reference}`)).body.payment).toMatchObject({ status: 'expired', approved_at: null, decline_reason: null });

    // And its page, and a late payment on it, answer 410: nothing is charged, no event follows
    const page = await fetch(`${sandbox.checkoutUrl}${open.path}`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('Payment link expired');
    for (const action of ['pay', 'authorize', 'decline']) expect((await post(`${open.path}/${action}`)).status).toBe(410);
    expect(() => sandbox.controls.complete(open.reference, 'approved')).toThrow(/link expired/);
    expect(sandbox.controls.payment(open.reference)).toMatchObject({ status: 'expired', approved_at: null });
    expect(sandbox.controls.events(TEST_KEY).filter((entry) => entry.data.reference === open.reference)).toHaveLength(1);

    // While the one paid in time stays approved, and the authorised one, whose money has left the
    // payer, is not expired by its link and still settles
    expect(sandbox.controls.payment(paid.reference)!.status).toBe('approved');
    expect((await fetch(`${sandbox.checkoutUrl}${authorised.path}`)).status).toBe(200);
    expect(sandbox.controls.payment(authorised.reference)!.status).toBe('approved_for_payment');
    expect((await post(`${authorised.path}/pay`)).status).toBe(303);
    expect(sandbox.controls.payment(authorised.reference)!.status).toBe('approved');
  });

  it('idle() does not wait for a link\'s expiry', async () => {
    const { reference } = await createLatam({ ...ecuador, expiresAt: inMinutes(72 * 60) });
    await sandbox.controls.idle();
    expect(sandbox.controls.payment(reference)!.status).toBe('redirected');
  });
});

describe('a checkout session\'s amount and account are locked', () => {
  it.each([
    ['a changed amount', { amount: '0.01' }],
    ['a changed currency', { currency: 'GBP' }],
    ['another account', { api_key: TEST_KEY }],
  ])('a post carrying %s is refused and creates no payment', async (_label, tamper) => {
    const session = await call('POST', '/checkout-sessions', { amount: '30.00', currency: 'EUR', merchant_reference: 'locked-order' }, LIVE_KEY);
    const path = new URL(session.body.url as string).pathname;
    const before = sandbox.controls.records().payments.length;
    const answer = await post(`${path}/pay`, { method: 'cards', email: 'player@example.com', firstName: 'Ada', lastName: 'Lovelace', ...tamper });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toMatch(/locked/);
    expect(sandbox.controls.records().payments.length).toBe(before);

    // The honest post that follows pays the session's own amount, to the session's own account.
    const paid = await post(`${path}/pay`, { method: 'cards', email: 'player@example.com', firstName: 'Ada', lastName: 'Lovelace' });
    expect(paid.status).toBe(303);
    const reference = new URL(paid.headers.get('location')!).searchParams.get('ref')!;
    expect(sandbox.controls.payment(reference)).toMatchObject({ amount: '30.00', currency: 'EUR', merchant_reference: 'locked-order', session_id: session.body.id });
    expect((await call('GET', `/payments/${reference}`, undefined, LIVE_KEY)).status).toBe(200);
    expect((await call('GET', `/payments/${reference}`, undefined, TEST_KEY)).status).toBe(404);
  });
});
