// The embedded card form end to end over HTTP: the card session never carries `integrity`; the
// provider's loader frames the processor's card fields, which post to the processor and send the
// shopper back to the gateway with only a signed order token; the gateway verifies the token and
// settles server to server. Card data never reaches the gateway. Settling is promote-only and
// idempotent (one change, one event), a `.13` amount is declined with its reason, and a settle
// result about another order is refused.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { buildSchema, type GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signOrderToken } from '../../src/modules/deposits/card-form.token.js';
import { Deposit } from '../../src/modules/deposits/deposit.entity.js';
import { cardSettlePath } from '../../src/providers/deposit-gateway/assumptions.js';
import { execute, metric, startTestGateway } from '../support/gateway.js';
import { CARD_INPUT, VALID_DEPOSITS } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { DepositRefundsQuery, RequestRefundMutation } from '../refunds/operations.js';
import { CardSessionQuery, SettleCardDepositMutation } from './operations.js';
import { loadCardForm, submitCard, TEST_CARD, type CardEntry } from './shopper.js';

let t: Awaited<ReturnType<typeof startTestGateway>>;
beforeAll(async () => {
  t = await startTestGateway();
  // The shopper completes the embedded form: payments stay open until the settle call.
  t.gateway.sandboxes.get('deposit-gateway')!.controls.setAutoComplete(false);
});
afterAll(() => t?.close());

const RETURN_URL = 'https://shop.example/cashier/back';

async function createCardDeposit(amount = '25.00'): Promise<string> {
  const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, amount, returnUrl: RETURN_URL } }, { key: t.keys.webCashier });
  expect(created.errors).toBeUndefined();
  expect(created.data!.createDeposit.userErrors).toEqual([]);
  return created.data!.createDeposit.deposit!.id;
}

async function cardSession(id: string) {
  const response = await execute(t.gateway.graphqlUrl, CardSessionQuery, { depositId: id }, { key: t.keys.webCashier });
  expect(response.errors).toBeUndefined();
  return response.data!.cardSession!;
}

/** The shopper on the cashier page: the loader frames the processor's fields and the card goes to the processor. */
async function payAtProcessor(id: string, card: CardEntry = TEST_CARD) {
  const session = await cardSession(id);
  const form = await loadCardForm(session.scriptUrl!, session.formAction!, session.brands);
  const submission = await submitCard(form.fieldsUrl, card);
  return { session, form, submission };
}

async function depositStatus(id: string): Promise<string> {
  const read = await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier });
  expect(read.errors).toBeUndefined();
  return read.data!.deposit!.status;
}

function providerReferenceOf(id: string): Promise<string> {
  return t.gateway.db.fork().findOneOrFail(Deposit, { id }).then((deposit) => deposit.providerReference!);
}

function settleCalls(reference: string): number {
  return t.gateway.sandboxes.get('deposit-gateway')!.controls.requestCount(cardSettlePath(reference), 'POST');
}

async function statusChanges(id: string): Promise<string[]> {
  const read = await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier });
  expect(read.errors).toBeUndefined();
  return read.data!.deposit!.events.filter((event) => event.type === 'deposit.status_changed').map((event) => `${event.fromStatus}->${event.toStatus}`);
}

describe('cardSession', () => {
  it('gives the script address and brands, and never the integrity value', async () => {
    const id = await createCardDeposit();
    const response = await execute(t.gateway.graphqlUrl, CardSessionQuery, { depositId: id }, { key: t.keys.webCashier });
    expect(response.errors).toBeUndefined();
    const session = response.data!.cardSession!;
    expect(session).toMatchObject({ depositId: id, settled: false, status: 'PENDING', amount: { amount: '25.00', currency: 'EUR' }, brands: ['VISA', 'MASTER'] });
    expect(session.scriptUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/js\/loader\/.+\.js\?checkout=/);
    expect(JSON.stringify(response)).not.toMatch(/integrity|sha384-/);
    // The form's action is this gateway's return address with a signed order token, not the raw id.
    expect(session.formAction!.startsWith(`${t.gateway.url}/card-form/return/v1.`)).toBe(true);
    expect(session.formAction).not.toContain(id);
    // Not even selectable: the type has no such field.
    const schema = buildSchema(await readFile(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));
    const fields = Object.keys((schema.getType('CardSession') as GraphQLObjectType).getFields());
    expect(fields.sort()).toEqual(['amount', 'brands', 'depositId', 'formAction', 'scriptUrl', 'settled', 'status']);
  });

  it('is null for another cashier\'s deposit and refused for a deposit on another rail', async () => {
    const id = await createCardDeposit();
    const other = await execute(t.gateway.graphqlUrl, CardSessionQuery, { depositId: id }, { key: t.keys.mobileCashier });
    expect(other.errors).toBeUndefined();
    expect(other.data!.cardSession).toBeNull();

    const bank = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: VALID_DEPOSITS[2]![1] }, { key: t.keys.webCashier });
    const bankId = bank.data!.createDeposit.deposit!.id;
    const refused = await execute(t.gateway.graphqlUrl, CardSessionQuery, { depositId: bankId }, { key: t.keys.webCashier });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'NOT_A_CARD_DEPOSIT' });
    const settle = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: bankId } }, { key: t.keys.webCashier });
    expect(settle.errors).toBeUndefined();
    expect(settle.data!.settleCardDeposit.userErrors.map((error) => error.code)).toEqual(['NOT_A_CARD_DEPOSIT']);
  });

  it('names the provider\'s refusal when the provider no longer knows the payment, never "Internal error"', async () => {
    const id = await createCardDeposit();
    // The provider lost the payment (or it is another environment's): its card session answers 404.
    await t.gateway.db.fork().execute('update deposit set provider_reference = ? where id = ?', ['pay_unknown_to_the_provider', id]);
    const response = await execute(t.gateway.graphqlUrl, CardSessionQuery, { depositId: id }, { key: t.keys.webCashier });
    expect(response.data?.cardSession ?? null).toBeNull();
    expect(response.errors?.[0]).toMatchObject({ message: expect.stringMatching(/provider rejected/), extensions: { code: 'PROVIDER_REJECTED' } });
  });
});

describe('the loader script', () => {
  it('placed in <head>, where the form does not exist yet, waits for the document and then frames the card fields', async () => {
    const id = await createCardDeposit();
    const session = await cardSession(id);
    const form = await loadCardForm(session.scriptUrl!, session.formAction!, session.brands, { inHead: true });
    expect(form.injectedIntoMerchantForm).toEqual([]);
    // The framed fields are the processor's, for this payment and this order's return address.
    const fields = await fetch(form.fieldsUrl);
    expect(fields.status).toBe(200);
    expect(new URL(form.fieldsUrl).searchParams.get('result_url')).toBe(session.formAction);
  });

  it('the card fields report their height to the loader\'s frame, and their CSP lets only that script run', async () => {
    const id = await createCardDeposit();
    const session = await cardSession(id);
    const form = await loadCardForm(session.scriptUrl!, session.formAction!, session.brands);
    const fields = await fetch(form.fieldsUrl);
    const html = await fields.text();
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(script).toContain('postMessage');
    const hash = `'sha256-${createHash('sha256').update(script!).digest('base64')}'`;
    expect(fields.headers.get('content-security-policy')).toContain(`script-src ${hash}`);
  });
});

describe('settleCardDeposit', () => {
  it('settling twice makes one change and one event', async () => {
    // given: the shopper paid at the processor
    const id = await createCardDeposit();
    await payAtProcessor(id);

    // when
    const first = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: id } }, { key: t.keys.webCashier });
    const second = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: id } }, { key: t.keys.webCashier });

    // then
    expect(first.errors).toBeUndefined();
    // The settle call makes the provider send its payment.approved webhook at once: on a busy
    // machine that webhook can be applied before the call's own answer is, and the first settle
    // then finds the change made. Either way there is one change and one event (below).
    expect(first.data!.settleCardDeposit).toMatchObject({ alreadyProcessed: expect.any(Boolean) as boolean, userErrors: [], deposit: { id, status: 'SUCCEEDED', declineReason: null } });
    expect(second.errors).toBeUndefined();
    expect(second.data!.settleCardDeposit).toMatchObject({ alreadyProcessed: true, userErrors: [], deposit: { id, status: 'SUCCEEDED' } });
    // The provider's own payment.approved webhook (fired by the settle call) changes nothing either.
    await t.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
    expect(await statusChanges(id)).toEqual(['PENDING->SUCCEEDED']);
  });

  it('after a partial refund, answers the settled payment again, without an anomaly or an error-level line', async () => {
    // given: a settled card deposit, refunded in part (the provider then reports the payment `refunded`)
    const id = await createCardDeposit();
    await payAtProcessor(id);
    await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: id } }, { key: t.keys.webCashier });
    const requested = await execute(t.gateway.graphqlUrl, RequestRefundMutation, { input: { depositId: id, amount: '5.00', reason: 'partial' } }, { key: t.keys.admin });
    expect(requested.data!.requestRefund.userErrors).toEqual([]);
    const refunded = async () => (await execute(t.gateway.graphqlUrl, DepositRefundsQuery, { id }, { key: t.keys.admin })).data!.deposit!;
    await expect.poll(async () => (await refunded()).refundedAmount.amount).toBe('5.00');
    const linesBefore = t.logs.length;

    // when: the cashier settles again, as often as it likes
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: id } }, { key: t.keys.webCashier }));

    // then: the payment is settled, as before; nothing changes, and nothing pages an operator
    for (const answer of answers) expect(answer.data!.settleCardDeposit).toMatchObject({ alreadyProcessed: true, userErrors: [], deposit: { id, status: 'SUCCEEDED' } });
    expect(await refunded()).toMatchObject({ status: 'SUCCEEDED', refundedAmount: { amount: '5.00' } });
    expect(await statusChanges(id)).toEqual(['PENDING->SUCCEEDED']);
    const errorLines = t.logs.slice(linesBefore).map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level >= 50);
    expect(errorLines).toEqual([]);
  });

  it('two settle calls at once still make one change', async () => {
    const id = await createCardDeposit();
    await payAtProcessor(id);
    const results = await Promise.all(
      [1, 2].map(() => execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: id } }, { key: t.keys.webCashier })),
    );
    expect(results.map((result) => result.data!.settleCardDeposit.deposit!.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    expect(await statusChanges(id)).toEqual(['PENDING->SUCCEEDED']);
  });

  it('a .13 amount is DECLINED with its decline reason', async () => {
    const id = await createCardDeposit('10.13');
    await payAtProcessor(id);
    const settled = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: id } }, { key: t.keys.webCashier });
    expect(settled.errors).toBeUndefined();
    expect(settled.data!.settleCardDeposit).toMatchObject({ userErrors: [], deposit: { status: 'DECLINED', declineReason: 'declined', providerStatus: 'declined' } });
    expect(await statusChanges(id)).toEqual(['PENDING->DECLINED']);
  });

  it('answers with the decline reason when the payment\'s webhook, which names none, applied DECLINED first', async () => {
    // given: a gateway whose job worker is off, so no detail fetch fills the reason in meanwhile
    const quiet = await startTestGateway({ env: { JOBS_ENABLED: 'false' } });
    try {
      quiet.gateway.sandboxes.get('deposit-gateway')!.controls.setAutoComplete(false);
      const created = await execute(quiet.gateway.graphqlUrl, CreateDepositMutation, { input: { ...CARD_INPUT, amount: '10.13', returnUrl: RETURN_URL } }, { key: quiet.keys.webCashier });
      const id = created.data!.createDeposit.deposit!.id;
      const reference = (await quiet.gateway.db.fork().findOneOrFail(Deposit, { id })).providerReference!;
      // and: the provider declines the payment, and its webhook is applied before the settle call
      quiet.gateway.sandboxes.get('deposit-gateway')!.controls.complete(reference, 'declined', { declineReason: 'declined' });
      await quiet.gateway.sandboxes.get('deposit-gateway')!.controls.idle();
      const read = () => execute(quiet.gateway.graphqlUrl, DepositQuery, { id }, { key: quiet.keys.webCashier });
      await expect.poll(async () => (await read()).data!.deposit!.status).toBe('DECLINED');
      expect((await read()).data!.deposit!.declineReason).toBeNull();

      // when: the shopper's return settles it
      const settled = await execute(quiet.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: id } }, { key: quiet.keys.webCashier });

      // then: the answer names the reason the settle call gave, and so does the deposit; one status change
      expect(settled.errors).toBeUndefined();
      expect(settled.data!.settleCardDeposit).toMatchObject({ userErrors: [], deposit: { status: 'DECLINED', declineReason: 'declined' } });
      expect((await read()).data!.deposit).toMatchObject({ status: 'DECLINED', declineReason: 'declined' });
      const events = (await read()).data!.deposit!.events.map((event) => `${event.type} ${event.fromStatus}->${event.toStatus}`);
      expect(events.filter((event) => event.startsWith('deposit.status_changed'))).toEqual(['deposit.status_changed PENDING->DECLINED']);
      expect(events).toContain('deposit.details_updated DECLINED->DECLINED');
    } finally {
      await quiet.close();
    }
  });

  it('refuses a settle result that echoes another order, and applies nothing', async () => {
    // given: deposit A's provider reference points at deposit B's payment
    const a = await createCardDeposit();
    const b = await createCardDeposit();
    await payAtProcessor(b);
    const em = t.gateway.db.fork();
    const [depositA, depositB] = await Promise.all([em.findOneOrFail(Deposit, { id: a }), em.findOneOrFail(Deposit, { id: b })]);
    const referenceOfB = depositB.providerReference!;
    depositB.providerReference = `${referenceOfB}-moved`;
    await em.flush();
    depositA.providerReference = referenceOfB;
    await em.flush();

    // when
    const settled = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: a } }, { key: t.keys.webCashier });

    // then
    expect(settled.errors).toBeUndefined();
    expect(settled.data!.settleCardDeposit.userErrors.map((error) => error.code)).toEqual(['MERCHANT_REFERENCE_MISMATCH']);
    expect(settled.data!.settleCardDeposit.deposit).toMatchObject({ id: a, status: 'PENDING' });
    expect(await statusChanges(a)).toEqual([]);
    // and an operator is told at error level, the only place an anomaly of a settle call shows
    const reported = t.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.anomaly === 'MERCHANT_REFERENCE_MISMATCH' && line.depositId === a);
    expect(reported).toEqual([expect.objectContaining({ level: 50, reference: referenceOfB, reportedMerchantReference: b })]);
  });

  it('before the shopper submitted a card, the provider has no outcome and nothing changes', async () => {
    const id = await createCardDeposit();
    const settled = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: id } }, { key: t.keys.webCashier });
    expect(settled.errors).toBeUndefined();
    expect(settled.data!.settleCardDeposit).toMatchObject({ userErrors: [], alreadyProcessed: false, deposit: { status: 'PENDING' } });
    expect(await statusChanges(id)).toEqual([]);
  });

  it('an unknown deposit is a NOT_FOUND user error', async () => {
    const settled = await execute(t.gateway.graphqlUrl, SettleCardDepositMutation, { input: { depositId: 'dep_00000000000000000000000000' } }, { key: t.keys.webCashier });
    expect(settled.errors).toBeUndefined();
    expect(settled.data!.settleCardDeposit).toMatchObject({ deposit: null, userErrors: [{ code: 'NOT_FOUND', field: ['depositId'] }] });
  });
});

describe('the shopper\'s way through the embedded form', () => {
  it('card fields post to the processor; the return carries only the token and settles the deposit', async () => {
    // given
    const id = await createCardDeposit('31.00');
    const reference = await providerReferenceOf(id);
    const sandbox = t.gateway.sandboxes.get('deposit-gateway')!;

    // when: the loader replaces the cashier's form with the processor's fields, and the shopper pays
    const { session, form, submission } = await payAtProcessor(id);

    // then: nothing was written into the merchant's form; the card went to the processor's own address
    expect(form.injectedIntoMerchantForm).toEqual([]);
    expect(form.fieldsUrl.startsWith(`${sandbox.checkoutUrl}/card/`)).toBe(true);
    expect(submission.postedTo.startsWith(`${sandbox.checkoutUrl}/card/`)).toBe(true);
    expect(submission.postedTo.startsWith(t.gateway.url)).toBe(false);
    // The processor sends the shopper back to the form's action; the deposit waits for the settle call.
    expect(submission.status).toBe(303);
    const back = submission.location!;
    expect(back.startsWith(`${session.formAction}?`)).toBe(true);
    // Only the processor's order reference and outcome come back, never the card's data.
    // (Compared whole: a random port or reference may well contain "4111" or "737".)
    expect(Object.fromEntries(new URL(back).searchParams)).toEqual({ ref: reference, status: 'approved' });
    expect(await depositStatus(id)).toBe('PENDING');
    expect(settleCalls(reference)).toBe(0);

    // when: the shopper's browser follows the redirect to the gateway (a GET without a body)
    const returns = () => metric(t, /^gateway_http_requests_total\{method="GET",route="\/card-form\/return\/:token",status="303"\} (\d+)/m);
    const returnsBefore = await returns();
    const returned = await fetch(back, { redirect: 'manual' });

    // then: the gateway settled server to server and sends the shopper on to the cashier's return address
    expect(returned.status).toBe(303);
    expect(returned.headers.get('location')).toBe(`${RETURN_URL}?deposit=${id}&status=SUCCEEDED`);
    expect(await depositStatus(id)).toBe('SUCCEEDED');
    expect(settleCalls(reference)).toBe(1);
    expect(await statusChanges(id)).toEqual(['PENDING->SUCCEEDED']);
    // The provider keeps the masked card it was given; the middle digits exist nowhere.
    expect(sandbox.controls.payment(reference)).toMatchObject({ status: 'approved', card_bin: '411111', card_last4: '1111', card_scheme: 'VISA' });
    expect(JSON.stringify(sandbox.controls.records())).not.toContain('4111111111111111');

    // A reload of the return address changes nothing more.
    const again = await fetch(back, { redirect: 'manual' });
    expect(again.status).toBe(303);
    await sandbox.controls.idle();
    expect(await statusChanges(id)).toEqual(['PENDING->SUCCEEDED']);

    // The card number and security code reached neither the gateway's HTTP server nor its logs, nor
    // any request the gateway sent to the provider.
    const digits = TEST_CARD.number.replace(/ /g, '');
    const logs = t.logs.join('\n');
    expect(logs).not.toContain(digits);
    expect(logs).not.toContain(TEST_CARD.number);
    expect(logs).not.toMatch(/card_number|card_cvv/);
    // The security code as a whole JSON value: three digits also turn up by chance inside random ids.
    const cvvValue = new RegExp(`:\\s*"?${TEST_CARD.cvv}"?\\s*[,}\\]]`);
    expect(sandbox.controls.requestBodies().some((body) => body.includes(digits) || cvvValue.test(body))).toBe(false);
    // Both returns went through the gateway's own HTTP server, as operators count them
    expect((await returns()) - returnsBefore).toBe(2);
  });

  it('a tampered, forged or expired token is refused, calls no one and changes nothing', async () => {
    // given: the shopper paid; only the return is missing
    const id = await createCardDeposit();
    const reference = await providerReferenceOf(id);
    const { session, submission } = await payAtProcessor(id);
    const token = session.formAction!.split('/').pop()!;
    const account = t.gateway.services.accounts.get((await t.gateway.db.fork().findOneOrFail(Deposit, { id })).merchantAccount)!;
    const [version, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    const otherDeposit = await createCardDeposit();
    const returnAddress = (value: string) => `${t.gateway.url}/card-form/return/${value}?ref=${reference}&status=approved`;
    const attempts: Array<[string, string, number]> = [
      ['signature changed', `${version}.${payload}.${flipped}`, 400],
      ['payload swapped for another deposit', `${version}.${signOrderToken(account, otherDeposit).split('.')[1]}.${signature}`, 400],
      ['signed with a key the gateway does not hold', signOrderToken({ ...account, webhookSecrets: ['whsec_not_the_gateways_secret'] }, id), 400],
      ['no token at all, just the raw id', id, 400],
      ['expired', signOrderToken(account, id, Date.now() - 2 * 24 * 3600 * 1000), 410],
    ];

    for (const [label, value, status] of attempts) {
      // when
      const response = await fetch(returnAddress(value), { redirect: 'manual' });

      // then
      expect(response.status, label).toBe(status);
      expect(await response.text(), label).toContain('Nothing was changed');
    }
    expect(settleCalls(reference)).toBe(0);
    expect(await depositStatus(id)).toBe('PENDING');
    expect(await depositStatus(otherDeposit)).toBe('PENDING');
    expect(await statusChanges(id)).toEqual([]);

    // The genuine return still works afterwards.
    const genuine = await fetch(submission.location!, { redirect: 'manual' });
    expect(genuine.status).toBe(303);
    expect(await depositStatus(id)).toBe('SUCCEEDED');
  });

  it('a declined or expired card comes back DECLINED with its reason; a malformed card is asked again', async () => {
    const declined = await createCardDeposit('12.13');
    const first = await payAtProcessor(declined);
    await fetch(first.submission.location!, { redirect: 'manual' });
    const expired = await createCardDeposit();
    const second = await payAtProcessor(expired, { ...TEST_CARD, expiry: '01/20' });
    const back = await fetch(second.submission.location!, { redirect: 'manual' });
    expect(back.headers.get('location')).toBe(`${RETURN_URL}?deposit=${expired}&status=DECLINED`);

    const read = async (id: string) => (await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.webCashier })).data!.deposit!;
    expect(await read(declined)).toMatchObject({ status: 'DECLINED', declineReason: 'declined' });
    expect(await read(expired)).toMatchObject({ status: 'DECLINED', declineReason: 'expired_card' });

    const malformed = await createCardDeposit();
    const session = await cardSession(malformed);
    const form = await loadCardForm(session.scriptUrl!, session.formAction!, session.brands);
    const wrong = await submitCard(form.fieldsUrl, { ...TEST_CARD, number: '4111 1111 1111 1112' });
    expect(wrong.status).toBe(422);
    expect(wrong.location).toBeNull();
    expect(wrong.body).toContain('Enter a valid card number');
    expect(await depositStatus(malformed)).toBe('PENDING');
  });

  it('a shopper who comes back without paying finds the deposit still open', async () => {
    const id = await createCardDeposit();
    const session = await cardSession(id);
    const response = await fetch(session.formAction!, { redirect: 'manual' });
    expect(response.headers.get('location')).toBe(`${RETURN_URL}?deposit=${id}&status=PENDING`);
    expect(await statusChanges(id)).toEqual([]);
  });
});

describe('the result page the shopper lands on after paying', () => {
  /** The page's way back, as a browser reads its link: the address, or null when it has none. */
  function wayBack(html: string): string | null {
    const link = /<a href="([^"]*)">Back to the cashier<\/a>/.exec(html);
    return link ? link[1]!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))) : null;
  }

  it('without a returnUrl, leads back to the example cashier, on the deposit', async () => {
    // given: a card deposit with no returnUrl (the example cashier on plain http can give none), paid at the processor
    const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
    expect(created.errors).toBeUndefined();
    const id = created.data!.createDeposit.deposit!.id;
    const { submission } = await payAtProcessor(id);

    // when: the shopper's browser follows the processor back to the gateway
    const result = await fetch(submission.location!, { redirect: 'manual' });

    // then: the result page says the payment went through and links to the cashier on this deposit
    expect(result.status).toBe(200);
    const html = await result.text();
    expect(html).toContain('<h1>Payment received</h1>');
    const back = wayBack(html);
    expect(back).toBe(`/examples/cashier#${id}`);
    const cashier = await fetch(new URL(back!, result.url));
    expect(cashier.status).toBe(200);
    expect(await cashier.text()).toContain('<title>Example cashier');
  });

  it('that cannot confirm the payment yet, leads back to the returnUrl with the deposit and its status', async () => {
    // given: a paid card deposit with a returnUrl, and a provider that does not answer the settle call
    const id = await createCardDeposit();
    const reference = await providerReferenceOf(id);
    const { submission } = await payAtProcessor(id);
    const sandbox = t.gateway.sandboxes.get('deposit-gateway')!;
    sandbox.controls.failNext({ status: 503, path: cardSettlePath(reference), count: 10 });
    try {
      // when: the shopper comes back
      const result = await fetch(submission.location!, { redirect: 'manual' });

      // then: the page asks to reload later, and its link goes to the cashier's returnUrl as the redirect would
      expect(result.status).toBe(503);
      const html = await result.text();
      expect(html).toContain('<h1>Payment not confirmed yet</h1>');
      expect(wayBack(html)).toBe(`${RETURN_URL}?deposit=${id}&status=PENDING`);
    } finally {
      sandbox.controls.clearFailures();
    }
  });

  it('for a return link that is not valid, still leads back to the cashier', async () => {
    const result = await fetch(`${t.gateway.url}/card-form/return/v1.not-a-token.at-all`, { redirect: 'manual' });
    expect(result.status).toBe(400);
    const html = await result.text();
    expect(html).toContain('Nothing was changed');
    expect(wayBack(html)).toBe('/examples/cashier');
  });
});
