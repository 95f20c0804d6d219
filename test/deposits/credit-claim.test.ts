// The exactly-once credit hand-off through the public API: the first claim of a SUCCEEDED deposit's
// credit, from any caller, instance or transport, is the only one answered firstClaim: true; later
// claims get the original time. The claim is an event in the log and reaches subscribers, and every
// later event of the deposit (a chargeback, a refund) carries creditClaimedAt, so a ledger knows to
// debit. Real gateway instances on a real database; webhooks signed as the provider signs them.

import { request as httpRequest } from 'node:http';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, startTestGateway, type TestGateway } from '../support/gateway.js';
import type { TestDatabase } from '../support/database.js';
import { statementsIssued } from '../support/statements.js';
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

/**
 * The deposit's events in the web cashier's events(first:) page. The log lists an event once it is
 * final (no earlier position can still commit), so a test waits for one as a reader would: polling.
 */
async function eventsOf(depositId: string) {
  const page = await execute(t.gateway.graphqlUrl, CreditEventsQuery, { first: 100 }, { key: t.keys.webCashier });
  expect(page.errors).toBeUndefined();
  return page.data!.events.edges.map((edge) => edge.node).filter((node) => node.subjectId === depositId);
}

const claim = (depositId: string, key = t.keys.webCashier, gateway: TestGateway = t) =>
  execute(gateway.gateway.graphqlUrl, ClaimDepositCreditMutation, { input: { depositId } }, { key });

describe('claimDepositCredit', () => {
  it('answers the first claim firstClaim: true, and every later one firstClaim: false with the original time', async () => {
    const deposit = await succeededDeposit();

    const first = await claim(deposit.id);
    const again = await claim(deposit.id);

    expect(first.errors).toBeUndefined();
    const made = first.data!.claimDepositCredit;
    expect(made).toMatchObject({ claim: { firstClaim: true }, deposit: { id: deposit.id, status: 'SUCCEEDED' }, userErrors: [] });
    expect(made.deposit!.creditClaimedAt).toBe(made.claim!.claimedAt);
    expect(again.data!.claimDepositCredit).toMatchObject({ claim: { firstClaim: false, claimedAt: made.claim!.claimedAt }, userErrors: [] });
  });

  it('writes the claim and its event in one statement, on the transition path', async () => {
    const deposit = await succeededDeposit();
    // Every statement the request issues, those with an append's fan-out job among them.
    const issued = await statementsIssued(t, async () => {
      expect((await claim(deposit.id)).data!.claimDepositCredit.claim).toMatchObject({ firstClaim: true });
    }, /\/\* (event-bus|relay|client-limits|call-records) \*\//);
    const writes = issued.filter((sql) => /\b(update|insert into)\s+"?(deposit|payment_event)"?\s/i.test(sql));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/update "?deposit"? set credit_claimed_at[^]*insert into payment_event/);
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

  it('is the owning client\'s alone: another cashier learns nothing, an admin is refused, and neither claims it', async () => {
    const deposit = await succeededDeposit();
    const other = (await claim(deposit.id, t.keys.mobileCashier)).data!.claimDepositCredit;
    expect(other).toEqual({ claim: null, deposit: null, userErrors: [{ field: ['depositId'], code: 'NOT_FOUND', message: `No deposit ${deposit.id}` }] });
    // An admin sees the deposit, but a claim of its own would take the credit while no one credits the player.
    const byAdmin = (await claim(deposit.id, t.keys.admin)).data!.claimDepositCredit;
    expect(byAdmin).toEqual({
      claim: null,
      deposit: { id: deposit.id, status: 'SUCCEEDED', creditClaimedAt: null },
      userErrors: [{ field: ['depositId'], code: 'CREDIT_CLAIM_OWNER_ONLY', message: expect.stringContaining('own client') }],
    });
    // The cashier still makes the claim, and credits the player.
    expect((await claim(deposit.id)).data!.claimDepositCredit.claim).toMatchObject({ firstClaim: true });
    expect((await claim(deposit.id, t.keys.admin)).data!.claimDepositCredit.userErrors.map((error) => error.code)).toEqual(['CREDIT_CLAIM_OWNER_ONLY']);
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

    let mine = await eventsOf(deposit.id);
    await expect.poll(async () => (mine = await eventsOf(deposit.id)).map((node) => node.type).slice(-2)).toEqual(['deposit.credit_claimed', 'deposit.disputed']);
    const [claimed, disputed] = mine.slice(-2);
    expect(claimed).toMatchObject({ fromStatus: 'SUCCEEDED', toStatus: 'SUCCEEDED', deposit: { creditClaimedAt: expect.any(String), disputed: false } });
    expect(disputed!.deposit).toMatchObject({ disputed: true, creditClaimedAt: claimed!.deposit!.creditClaimedAt });
  });
});

/** A claim under its own key, as a cashier retrying it would send it. */
const claimWithKey = (depositId: string, claimKey: string, key = t.keys.webCashier, gateway: TestGateway = t) =>
  execute(gateway.gateway.graphqlUrl, ClaimDepositCreditMutation, { input: { depositId, claimKey } }, { key });

/** Sends a claim and hangs up as soon as it is written: the gateway works on, the caller never reads the answer. */
function claimAndHangUp(depositId: string, claimKey: string): Promise<void> {
  const body = JSON.stringify({ query: print(ClaimDepositCreditMutation), variables: { input: { depositId, claimKey } } });
  return new Promise((resolve) => {
    const request = httpRequest(t.gateway.graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${t.keys.webCashier}` } });
    request.on('error', () => resolve());
    request.on('finish', () => {
      request.destroy();
      resolve();
    });
    request.end(body);
  });
}

/** When the deposit's credit was claimed, as the gateway stored it (epoch ms), or null while unclaimed. */
async function claimedRow(depositId: string): Promise<number | null> {
  const [row] = await t.gateway.db.fork().execute<Array<{ claimed_ms: string | null }>>('select (extract(epoch from credit_claimed_at) * 1000)::bigint::text as claimed_ms from deposit where id = ?', [depositId]);
  return row?.claimed_ms == null ? null : Number(row.claimed_ms);
}

describe('a claim key', () => {
  it('tells the winning claim, retried after its answer was lost, that it won; any other key or client that it did not', async () => {
    // given: a cashier claims the credit under its key and loses the answer (it hangs up)
    const deposit = await succeededDeposit();
    await claimAndHangUp(deposit.id, 'credit-dep-1/attempt');
    await expect.poll(() => claimedRow(deposit.id)).not.toBeNull();

    // when: it retries under the same key, as on a time-out it must
    const retried = (await claimWithKey(deposit.id, 'credit-dep-1/attempt')).data!.claimDepositCredit;

    // then: it won, at the time the lost claim was made; so it credits the player, once
    expect(retried).toMatchObject({ claim: { firstClaim: true }, deposit: { creditClaimedAt: retried.claim!.claimedAt }, userErrors: [] });
    expect(Date.parse(retried.claim!.claimedAt)).toBe(await claimedRow(deposit.id));
    // The same key again (or as the Idempotency-Key header) is still the same claim.
    expect((await claimWithKey(deposit.id, 'credit-dep-1/attempt')).data!.claimDepositCredit.claim).toEqual(retried.claim);
    const byHeader = await execute(t.gateway.graphqlUrl, ClaimDepositCreditMutation, { input: { depositId: deposit.id } }, { key: t.keys.webCashier, headers: { 'idempotency-key': 'credit-dep-1/attempt' } });
    expect(byHeader.data!.claimDepositCredit.claim).toEqual(retried.claim);
    // Another key, or no key, is another claim: it did not win.
    for (const other of [await claimWithKey(deposit.id, 'credit-dep-1/other'), await claim(deposit.id)]) {
      expect(other.data!.claimDepositCredit).toMatchObject({ claim: { firstClaim: false, claimedAt: retried.claim!.claimedAt }, userErrors: [] });
    }
    // One claim, one event.
    await expect.poll(async () => (await eventsOf(deposit.id)).filter((node) => node.type === 'deposit.credit_claimed').length).toBeGreaterThan(0);
    expect((await eventsOf(deposit.id)).filter((node) => node.type === 'deposit.credit_claimed')).toHaveLength(1);
  });

  it('follows the rules of idempotency keys: a malformed one is refused on its field, and nothing is claimed', async () => {
    const deposit = await succeededDeposit();
    for (const bad of ['', 'has space', 'k'.repeat(256), 'clé']) {
      expect((await claimWithKey(deposit.id, bad)).data!.claimDepositCredit).toEqual({
        claim: null,
        deposit: null,
        userErrors: [{ field: ['claimKey'], code: 'INVALID_FORMAT', message: 'claimKey must be 1 to 255 printable ASCII characters without spaces' }],
      });
    }
    expect(await claimedRow(deposit.id)).toBeNull();
    expect((await claimWithKey(deposit.id, 'credit-dep-2')).data!.claimDepositCredit.claim).toMatchObject({ firstClaim: true });
  });
});

describe.runIf(process.env.DATABASE_URL)('raced from two gateway instances', () => {
  it('20 concurrent claims across both, each under its own key, make exactly one first claim, and one event; the winner\'s key wins again', async () => {
    const second = await startTestGateway({ database: t.database });
    try {
      const deposit = await succeededDeposit();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => claimWithKey(deposit.id, `race-${i}`, t.keys.webCashier, i % 2 === 0 ? t : second)),
      );
      const claims = answers.map((answer) => answer.data!.claimDepositCredit.claim!);
      expect(claims.filter((one) => one.firstClaim)).toHaveLength(1);
      expect(new Set(claims.map((one) => one.claimedAt)).size).toBe(1);
      const winner = claims.findIndex((one) => one.firstClaim);
      expect((await claimWithKey(deposit.id, `race-${winner}`, t.keys.webCashier, second)).data!.claimDepositCredit.claim).toEqual(claims[winner]);
      expect((await claimWithKey(deposit.id, `race-${(winner + 1) % 20}`)).data!.claimDepositCredit.claim).toMatchObject({ firstClaim: false });
      const claimedEvents = async () => (await eventsOf(deposit.id)).filter((node) => node.type === 'deposit.credit_claimed').length;
      await expect.poll(claimedEvents).toBeGreaterThan(0);
      expect(await claimedEvents()).toBe(1);
    } finally {
      await second.close();
    }
  });
});
