// The exactly-once credit hand-off through the public API: the first claim of a SUCCEEDED deposit's
// credit, from any caller, instance or transport, is the only one answered firstClaim: true; later
// claims get the original time. The claim is an event in the log and reaches subscribers, and every
// later event of the deposit (a chargeback, a refund) carries creditClaimedAt, so a ledger knows to
// debit. Real gateway instances on a real database; webhooks signed as the provider signs them.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import type { TestDatabase } from '../support/database.js';
import { wsClient } from '../support/ws.js';
import { collect, subscribed } from './support.js';
import { insertDeposit, paymentEnvelope, sendWebhook } from '../webhooks/support.js';
import { ClaimDepositCreditMutation, CreditEventsQuery, DepositCreditSubscription } from './operations.js';

let t: TestGateway & { database: TestDatabase };
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

/** A card deposit of the web cashier, approved by the provider's signed webhook. */
async function succeededDeposit(gateway: TestGateway = t) {
  const deposit = await insertDeposit(gateway);
  expect((await sendWebhook(gateway, paymentEnvelope(deposit, 'approved'))).body).toMatchObject({ received: true, outcome: 'applied' });
  return deposit;
}

const claim = (depositId: string, key = t.keys.webCashier, gateway: TestGateway = t) =>
  execute(gateway.gateway.graphqlUrl, ClaimDepositCreditMutation, { input: { depositId } }, { key });

describe('claimDepositCredit', () => {
  it('answers the first claim firstClaim: true, and every later one firstClaim: false with the original time', async () => {
    const deposit = await succeededDeposit();

    const first = await claim(deposit.id);
    const again = await claim(deposit.id);
    const byAdmin = await claim(deposit.id, t.keys.admin);

    expect(first.errors).toBeUndefined();
    const made = first.data!.claimDepositCredit;
    expect(made).toMatchObject({ claim: { firstClaim: true }, deposit: { id: deposit.id, status: 'SUCCEEDED' }, userErrors: [] });
    expect(made.deposit!.creditClaimedAt).toBe(made.claim!.claimedAt);
    for (const later of [again, byAdmin]) {
      expect(later.data!.claimDepositCredit).toMatchObject({ claim: { firstClaim: false, claimedAt: made.claim!.claimedAt }, userErrors: [] });
    }
  });

  it('refuses a deposit that has not SUCCEEDED with its current status, and claims nothing', async () => {
    const pending = await insertDeposit(t);
    const declined = await insertDeposit(t);
    await sendWebhook(t, paymentEnvelope(declined, 'declined'));

    for (const [deposit, status] of [[pending, 'PENDING'], [declined, 'DECLINED']] as const) {
      const answer = (await claim(deposit.id)).data!.claimDepositCredit;
      expect(answer).toMatchObject({ claim: null, deposit: { id: deposit.id, status, creditClaimedAt: null } });
      expect(answer.userErrors).toEqual([{ field: ['depositId'], code: 'DEPOSIT_NOT_SUCCEEDED', message: expect.stringContaining(status) }]);
    }
    // Once it succeeds, the first claim is still to be made.
    await sendWebhook(t, paymentEnvelope(pending, 'approved'));
    expect((await claim(pending.id)).data!.claimDepositCredit.claim).toMatchObject({ firstClaim: true });
  });

  it('is the owning client\'s (or an admin\'s): another cashier learns nothing, and cannot claim it', async () => {
    const deposit = await succeededDeposit();
    const other = (await claim(deposit.id, t.keys.mobileCashier)).data!.claimDepositCredit;
    expect(other).toEqual({ claim: null, deposit: null, userErrors: [{ field: ['depositId'], code: 'NOT_FOUND', message: `No deposit ${deposit.id}` }] });
    expect((await claim(deposit.id)).data!.claimDepositCredit.claim).toMatchObject({ firstClaim: true });
  });

  it('is an event in the log and reaches subscribers; a later chargeback of the credited deposit says it was claimed', async () => {
    const deposit = await succeededDeposit();
    const ws = wsClient(t.gateway.wsUrl, { authorization: `Bearer ${t.keys.webCashier}` });
    try {
      // Claimed once the gateway has registered the subscription, so the claim cannot come before it.
      const live = await subscribed(t, () => collect(ws, DepositCreditSubscription, { id: deposit.id }));
      const made = (await claim(deposit.id)).data!.claimDepositCredit.claim!;

      const first = await live.until(() => true);
      live.stop();
      expect(live.errors).toEqual([]);
      expect(first).toEqual({ id: deposit.id, status: 'SUCCEEDED', creditClaimedAt: made.claimedAt });
    } finally {
      await ws.dispose();
    }
    const chargeback = { id: `evt_cb_${deposit.id}`, event: 'chargeback.opened', livemode: false, created_at: new Date().toISOString(), data: { reference: deposit.providerReference, merchant_reference: deposit.id, amount: deposit.amount, currency: deposit.currency } };
    expect((await sendWebhook(t, chargeback)).body).toMatchObject({ outcome: 'applied' });

    const page = await execute(t.gateway.graphqlUrl, CreditEventsQuery, { first: 100 }, { key: t.keys.webCashier });
    const mine = page.data!.events.edges.map((edge) => edge.node).filter((node) => node.subjectId === deposit.id);
    expect(mine.map((node) => node.type).slice(-2)).toEqual(['deposit.credit_claimed', 'deposit.disputed']);
    const [claimed, disputed] = mine.slice(-2);
    expect(claimed).toMatchObject({ fromStatus: 'SUCCEEDED', toStatus: 'SUCCEEDED', deposit: { creditClaimedAt: expect.any(String), disputed: false } });
    expect(disputed!.deposit).toMatchObject({ disputed: true, creditClaimedAt: claimed!.deposit!.creditClaimedAt });
  });
});

describe.runIf(process.env.DATABASE_URL)('raced from two gateway instances', () => {
  it('20 concurrent claims across both make exactly one first claim, and one event', async () => {
    const second = await startTestGateway({ database: t.database });
    try {
      const deposit = await succeededDeposit();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => claim(deposit.id, t.keys.webCashier, i % 2 === 0 ? t : second)),
      );
      const claims = answers.map((answer) => answer.data!.claimDepositCredit.claim!);
      expect(claims.filter((one) => one.firstClaim)).toHaveLength(1);
      expect(new Set(claims.map((one) => one.claimedAt)).size).toBe(1);
      const page = await execute(t.gateway.graphqlUrl, CreditEventsQuery, { first: 100 }, { key: t.keys.webCashier });
      expect(page.data!.events.edges.filter((edge) => edge.node.subjectId === deposit.id && edge.node.type === 'deposit.credit_claimed')).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
