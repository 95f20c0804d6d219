// What the deposit sandbox can now say reaches the gateway's clients through the API: each card
// decline reason of the spec on the deposit, the account's own card brands in the card session,
// the statuses without a transition in the spec when the payer picks them on the sandbox's payment
// page (the crypto page's two alone), a LATAM link that lapses unpaid, a cancelled refund request,
// and an event name the spec does not list, which the gateway acknowledges and ignores.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TRIGGERS } from '../../src/providers/deposit-gateway/assumptions.js';
import { loadCardForm, submitCard } from '../card-form/shopper.js';
import { CardSessionQuery, SettleCardDepositMutation } from '../card-form/operations.js';
import { RefundQuery, RequestRefundMutation } from '../refunds/operations.js';
import { startRefundGateway, type RefundTestGateway } from '../refunds/support.js';
import { execute } from '../support/gateway.js';
import { deliveries, readDeposit } from '../webhooks/support.js';
import { CARD_INPUT, VALID_DEPOSITS } from './fixtures.js';
import { CreateDepositMutation, DepositQuery } from './operations.js';

let t: RefundTestGateway;
beforeAll(async () => {
  t = await startRefundGateway();
  // The payer decides on the sandbox's pages and card fields, not the test-mode amount rule.
  t.gateway.sandboxes.get('deposit-gateway')!.controls.setAutoComplete(false);
});
afterAll(() => t?.close());

const controls = () => t.gateway.sandboxes.get('deposit-gateway')!.controls;
const dgApiKey = () => t.gateway.config.merchantAccounts.find((account) => account.provider === 'deposit-gateway')!.apiKey;
const read = async (id: string) => {
  const response = await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier });
  expect(response.errors).toBeUndefined();
  return response.data!.deposit!;
};

async function createDeposit(input = CARD_INPUT): Promise<{ id: string; redirectUrl: string }> {
  const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input }, { key: t.keys.webCashier });
  expect(created.errors).toBeUndefined();
  expect(created.data!.createDeposit.userErrors).toEqual([]);
  const deposit = created.data!.createDeposit.deposit!;
  return { id: deposit.id, redirectUrl: deposit.redirectUrl! };
}

describe('card decline reasons', () => {
  const cards = Object.entries(SANDBOX_TRIGGERS.declineCards) as Array<[string, readonly [string, string]]>;

  it.each(cards)('card %s makes the deposit DECLINED with the spec\'s reason, never the processor code', async (number, [reason, processorCode]) => {
    // Given a card deposit whose shopper pays with the test card in the embedded form
    const { id } = await createDeposit();
    const session = (await execute(t.gateway.graphqlUrl, CardSessionQuery, { depositId: id }, { key: t.keys.webCashier })).data!.cardSession!;
    const form = await loadCardForm(session.scriptUrl!, session.formAction!, session.brands);
    await submitCard(form.fieldsUrl, { number, expiry: '12/39', cvv: '123' });

    // When the cashier settles it
    const settled = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: id } }, { key: t.keys.webCashier });

    // Then the deposit is DECLINED and carries the neutral reason (the provider's own webhook may
    // apply the decline first; the reason then follows from the payment's record); the processor's
    // code is never in the cashier's answer
    expect(settled.errors).toBeUndefined();
    expect(settled.data!.settleCardDeposit.deposit).toMatchObject({ status: 'DECLINED' });
    await expect.poll(async () => (await read(id)).declineReason, { interval: 20 }).toBe(reason);
    expect(JSON.stringify(settled)).not.toContain(processorCode);
    expect(JSON.stringify(await read(id))).not.toContain(processorCode);
  });
});

describe('card brands', () => {
  it('the card session lists the brands boarded on the merchant account', async () => {
    controls().setAccount(dgApiKey(), { cardBrands: 'VISA MASTER AMEX DISCOVER' });
    try {
      const { id } = await createDeposit();
      const session = await execute(t.gateway.graphqlUrl, CardSessionQuery, { depositId: id }, { key: t.keys.webCashier });
      expect(session.errors).toBeUndefined();
      expect(session.data!.cardSession!.brands).toEqual(['VISA', 'MASTER', 'AMEX', 'DISCOVER']);
    } finally {
      controls().setAccount(dgApiKey(), { cardBrands: undefined });
    }
  });
});

describe('statuses the payer picks on the sandbox\'s payment page', () => {
  it.each([
    ['authorize', 'AUTHORIZED', 'approved_for_payment'],
    ['cancel', 'CANCELLED', 'cancelled'],
    ['expire', 'EXPIRED', 'expired'],
    ['error', 'FAILED', 'error'],
  ])('the page\'s %s button makes the deposit %s', async (action, status, providerStatus) => {
    const { id, redirectUrl } = await createDeposit(VALID_DEPOSITS.find(([label]) => label === 'OPEN_BANKING sepa NL')![1]);
    const page = new URL(redirectUrl);
    const answer = await fetch(`${page.origin}${page.pathname}/${action}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    expect(answer.status).toBe(303);
    await expect.poll(async () => (await read(id)).status, { interval: 20 }).toBe(status);
    expect(await read(id)).toMatchObject({ providerStatus, approvedAt: null });
  });
});

describe('the crypto payment page', () => {
  const cryptoInput = VALID_DEPOSITS.find(([label]) => label === 'CRYPTO')![1];

  it('offers only the crypto flow\'s two outcomes; an expired quote makes the deposit DECLINED', async () => {
    // Given a crypto deposit whose payer is on the provider's crypto page
    const { id, redirectUrl } = await createDeposit(cryptoInput);
    const page = new URL(redirectUrl);
    const html = await (await fetch(redirectUrl)).text();

    // Then the page offers a confirmed deposit and an expired quote (spec, Events: "The crypto flow
    // uses only payment.approved ... and payment.declined"), no button for another status
    expect([...html.matchAll(/formaction="([^"]+)"/g)].map((match) => match[1])).toEqual([`${page.pathname}/pay`, `${page.pathname}/decline`]);
    const refused = await fetch(`${page.origin}${page.pathname}/cancel`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    expect(refused.status).toBe(405);

    // When the quote expires with no deposit
    const answer = await fetch(`${page.origin}${page.pathname}/decline`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    expect(answer.status).toBe(303);

    // Then the deposit is DECLINED, never CANCELLED
    await expect.poll(async () => (await read(id)).status, { interval: 20 }).toBe('DECLINED');
    expect(await read(id)).toMatchObject({ providerStatus: 'declined', approvedAt: null });
    expect((await read(id)).events.map((event) => event.toStatus)).not.toContain('CANCELLED');
  });
});

describe('a LATAM link that lapses unpaid', () => {
  it('makes the deposit EXPIRED from the provider\'s payment.expired, and a late payment on the link changes nothing', async () => {
    // Given an Ecuador deposit whose link expires at its expiresAt, 6 minutes ahead (3.6 s on the
    // test gateway's sandbox clock, scaled 0.01)
    const expiresAt = new Date(Date.now() + 6 * 60_000).toISOString();
    const input = { amount: '25.00', customer: { email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva', documentType: 'CI', documentNumber: '1710034065' }, latam: { country: 'ECUADOR', expiresAt } };
    const { id, redirectUrl } = await createDeposit(input);
    expect((await read(id)).status).toBe('PENDING');

    // When the payer never pays in time
    await expect.poll(async () => (await read(id)).status, { interval: 50, message: 'the Ecuador deposit never became EXPIRED' }).toBe('EXPIRED');

    // Then the deposit is EXPIRED with the provider's word, through the signed payment.expired webhook
    expect(await read(id)).toMatchObject({ status: 'EXPIRED', providerStatus: 'expired', approvedAt: null, declineReason: null });
    const kept = await deliveries(t, { subjectId: id });
    expect(kept.map((delivery) => [delivery.eventName, delivery.outcome])).toEqual([['payment.expired', 'applied']]);

    // And a late payment on the link is refused (410) and nothing more happens to the deposit
    const page = new URL(redirectUrl);
    const late = await fetch(`${page.origin}${page.pathname}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    expect(late.status).toBe(410);
    await controls().idle();
    const after = await read(id);
    expect(after).toMatchObject({ status: 'EXPIRED', approvedAt: null });
    expect(after.events.filter((event) => event.type === 'deposit.status_changed').map((event) => [event.fromStatus, event.toStatus])).toEqual([['PENDING', 'EXPIRED']]);
    expect(new Set(after.events.map((event) => event.toStatus))).toEqual(new Set(['PENDING', 'EXPIRED']));
    expect((await deliveries(t, { subjectId: id })).map((delivery) => delivery.eventName)).toEqual(['payment.expired']);
  });
});

describe('a refund the provider cancels', () => {
  it('is REJECTED with the provider\'s word cancelled, and nothing is refunded', async () => {
    // Given a succeeded card deposit
    const { id } = await createDeposit({ ...CARD_INPUT, amount: '40.00' });
    controls().complete((await readDeposit(t, id)).providerReference!, 'approved');
    await expect.poll(async () => (await read(id)).status, { interval: 20 }).toBe('SUCCEEDED');

    // When a refund is requested that the provider cancels (the sandbox's trigger amount)
    const requested = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: id, amount: '10.31' } }, { key: t.refundsKey });
    expect(requested.errors).toBeUndefined();
    expect(requested.data!.requestRefund.userErrors).toEqual([]);
    const refundId = requested.data!.requestRefund.refund!.id;

    // Then the refund ends REJECTED, and the deposit keeps its money
    await expect
      .poll(async () => (await execute(t.gateway.graphqlUrl, RefundQuery, { id: refundId }, { key: t.refundsKey })).data!.refund!.status, { interval: 20 })
      .toBe('REJECTED');
    const refund = (await execute(t.gateway.graphqlUrl, RefundQuery, { id: refundId }, { key: t.refundsKey })).data!.refund!;
    expect(refund).toMatchObject({ providerStatus: 'cancelled', deposit: { id, status: 'SUCCEEDED' } });
  });
});

describe('an event name the spec does not list', () => {
  it('about a known payment is acknowledged with 2xx, kept as ignored, and changes nothing', async () => {
    // Given an open card deposit
    const { id } = await createDeposit();
    const reference = (await readDeposit(t, id)).providerReference!;
    const before = await read(id);

    // When the provider sends an event type added "over time", about that payment
    const envelope = controls().emitEvent(dgApiKey(), 'payment.risk_reviewed', { reference, merchant_reference: id, status: 'reviewed', amount: '25.00', currency: 'EUR' });
    await controls().idle();

    // Then the gateway acknowledged it, kept it as ignored, and the deposit is as it was
    const attempts = controls().deliveries().filter((delivery) => delivery.eventId === envelope.id);
    expect(attempts.map((attempt) => attempt.statusCode)).toEqual([200]);
    const kept = await deliveries(t, { eventId: envelope.id });
    expect(kept.map((delivery) => delivery.outcome)).toEqual(['ignored']);
    const after = await read(id);
    expect(after).toMatchObject({ status: before.status, providerStatus: before.providerStatus });
    expect(after.events.map((event) => event.type)).toEqual(before.events.map((event) => event.type));
  });

  it('of a family the gateway does not know at all is acknowledged and ignored too', async () => {
    const envelope = controls().emitEvent(dgApiKey(), 'balance.topped_up', { reference: 'svc_bal_1', status: 'credited', amount: '1.00', currency: 'EUR' });
    await controls().idle();
    expect(controls().deliveries().filter((delivery) => delivery.eventId === envelope.id).map((attempt) => attempt.statusCode)).toEqual([200]);
    expect((await deliveries(t, { eventId: envelope.id })).map((delivery) => delivery.outcome)).toEqual(['ignored']);
  });
});
