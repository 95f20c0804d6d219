// Unit spec of the webhook inbox (inbox.ts), with no database, on the fakes of inbox.fixture.ts. It
// covers what becomes of a delivery (`accept`: not_found, refused, unprocessable, received,
// retry_later, failed), what `receive` stores and decides (a duplicate, an event no module
// handles, the handler's answer recorded by the inbox or by the handler's own statement, the
// subject the lookup found), the records of refused deliveries and their pruning, and how a stored
// delivery is decided again (`replay`, `releaseDeferred`).

import { describe, expect, it } from 'vitest';
import { renderLookup, renderUpdate, type RowWrite } from '../sql-intents.js';
import { livemodeMismatch, WebhookRetryLater, type ReceiveWebhookInput } from './webhook-handler.js';
import { WebhookInbox } from './inbox.js';
import { acceptInput, ACCOUNT, byReference, depositEvent, fakeAdapter, FakeEm, fakeHandler, inbox, inserting, NOW, sha256, type Respond } from './inbox.fixture.js';

describe('WebhookInbox.accept: what becomes of a delivery', () => {
  it.each([
    ['an unknown provider', acceptInput(undefined, 'acct-1', 'acme-pay')],
    ['an unknown account', acceptInput(undefined, 'acct-9')],
    ['an account of another provider', acceptInput(undefined, 'acct-qr')],
  ])('is not_found for %s: nothing is verified or stored', async (_case, input) => {
    const { adapter, seen } = fakeAdapter({ ok: true, event: depositEvent() });
    const em = new FakeEm();
    await expect(inbox(adapter).accept(em.asEm(), input)).resolves.toEqual({ kind: 'not_found' });
    expect(seen).toEqual([]);
    expect(em.log).toEqual([]);
  });

  it('is refused for a failed signature: kept as rejected with the bytes\' SHA-256 only, and the account\'s oldest unauthentic rows beyond the cap deleted', async () => {
    const { adapter } = fakeAdapter({ ok: false, reason: 'SIGNATURE_MISMATCH' });
    const em = new FakeEm((sql) => (sql.startsWith('with kept') ? [{ pruned: 2 }] : []));
    const outcome = await inbox(adapter).accept(em.asEm(), { ...acceptInput('forged'), keepRejectedPerAccount: 100 });

    expect(outcome).toEqual({ kind: 'refused', provider: 'deposit-gateway', account: ACCOUNT, reason: 'SIGNATURE_MISMATCH', record: { ok: true, pruned: 2 } });
    // One statement: the record, and the account's unauthentic rows beyond the cap deleted.
    const [statement] = em.statements('with kept as (insert into webhook_delivery');
    expect(statement?.sql).toContain("values (?, ?, ?, ?, '', 'rejected', ?, null, null, '', ?, ?)");
    expect(statement?.sql).toContain('delete from webhook_delivery');
    const id = statement?.params[0];
    // The delete keeps one fewer than the cap: it does not see the row inserted beside it.
    expect(statement?.params).toEqual([id, 'deposit-gateway', 'acct-1', `rejected:${String(id)}`, 'SIGNATURE_MISMATCH', sha256('forged'), NOW, 'acct-1', 'SIGNATURE_MISSING', 'SIGNATURE_MALFORMED', 'SIGNATURE_MISMATCH', 'TIMESTAMP_OUT_OF_WINDOW', 99]);
    // Outside any transaction: nothing else is stored.
    expect(em.log).toEqual(['execute with kept']);
  });

  it('still answers refused when its record cannot be kept: the answer does not depend on it', async () => {
    const { adapter } = fakeAdapter({ ok: false, reason: 'TIMESTAMP_OUT_OF_WINDOW' });
    const failure = new Error('database down');
    const outcome = await inbox(adapter).accept(new FakeEm(() => failure).asEm(), acceptInput());
    expect(outcome).toMatchObject({ kind: 'refused', reason: 'TIMESTAMP_OUT_OF_WINDOW', record: { ok: false, error: failure } });
  });

  it('is unprocessable for authentic bytes that are no event: kept, acknowledged, and never pruned', async () => {
    const { adapter } = fakeAdapter({ ok: false, reason: 'PAYLOAD_INVALID' });
    const em = new FakeEm();
    const outcome = await inbox(adapter).accept(em.asEm(), { ...acceptInput('not json'), keepRejectedPerAccount: 1 });
    expect(outcome).toEqual({ kind: 'unprocessable', provider: 'deposit-gateway', account: ACCOUNT, reason: 'PAYLOAD_INVALID', record: { ok: true, pruned: 0 } });
    expect(em.statements('delete')).toEqual([]);
  });

  it.each([
    ['NUL in the raw body', acceptInput('{"a":"\u0000"}'), depositEvent(), { problem: 'NUL', path: ['body'] }],
    ['an event name longer than its column', acceptInput(), depositEvent({ name: 'x'.repeat(129) }), { problem: 'TOO_LONG', path: ['event', 'name'] }],
    [
      'a provider status longer than its column',
      acceptInput(),
      depositEvent({ subject: { kind: 'deposit', reference: 'pi_1', status: 'SUCCEEDED', providerStatus: 's'.repeat(65) } }),
      { problem: 'TOO_LONG', path: ['event', 'subject', 'providerStatus'] },
    ],
    ['a lone surrogate the parser made', acceptInput(), depositEvent({ eventId: 'evt_\ud800' }), { problem: 'LONE_SURROGATE', path: ['event', 'eventId'] }],
  ])('is unprocessable for %s: the database would refuse it on every retry', async (_case, input, event, unstorable) => {
    const { adapter } = fakeAdapter({ ok: true, event });
    const em = new FakeEm();
    const outcome = await inbox(adapter).accept(em.asEm(), input);
    expect(outcome).toMatchObject({ kind: 'unprocessable', reason: 'TEXT_NOT_STORABLE', unstorable, record: { ok: true, pruned: 0 } });
    expect(em.statements('insert into webhook_delivery')[0]?.params[4]).toBe('TEXT_NOT_STORABLE');
  });

  it('is received once stored and decided, committed', async () => {
    const { adapter } = fakeAdapter({ ok: true, event: depositEvent() });
    const webhooks = inbox(adapter);
    webhooks.register('deposit', fakeHandler(() => ({ outcome: 'applied', subject: { type: 'deposit', id: 'dep_1' } })).handler);
    const em = new FakeEm(inserting());
    const outcome = await webhooks.accept(em.asEm(), acceptInput());
    expect(outcome).toMatchObject({ kind: 'received', event: depositEvent(), result: { outcome: 'applied', subjectType: 'deposit', subjectId: 'dep_1' } });
    expect(em.log.at(-1)).toBe('commit');
  });

  it('is retry_later when the handler cannot decide yet: rolled back, nothing stored', async () => {
    const { adapter } = fakeAdapter({ ok: true, event: depositEvent() });
    const webhooks = inbox(adapter);
    webhooks.register('deposit', fakeHandler(() => new WebhookRetryLater('refund rf_1 matches 2 in-flight refunds')).handler);
    const em = new FakeEm(inserting());
    await expect(webhooks.accept(em.asEm(), acceptInput())).resolves.toMatchObject({ kind: 'retry_later', message: 'refund rf_1 matches 2 in-flight refunds' });
    expect(em.log).toEqual(['begin', 'execute insert into', 'rollback']);
  });

  it('is failed when the database fails: rolled back, the error kept for the log', async () => {
    const { adapter } = fakeAdapter({ ok: true, event: depositEvent() });
    const failure = new Error('connection terminated');
    const em = new FakeEm(() => failure);
    await expect(inbox(adapter).accept(em.asEm(), acceptInput())).resolves.toMatchObject({ kind: 'failed', error: failure });
    expect(em.log).toEqual(['begin', 'execute insert into', 'rollback']);
  });
});

describe('WebhookInbox.receive: one transaction per delivery', () => {
  const input = (event = depositEvent()): ReceiveWebhookInput => ({ provider: 'deposit-gateway', account: ACCOUNT, event, rawBody: Buffer.from('{"id":"evt_1"}') });

  it('stores the exact bytes, their SHA-256 and the clock\'s time, keyed by the provider\'s event id', async () => {
    const em = new FakeEm(inserting());
    await inbox(fakeAdapter({ ok: false, reason: 'PAYLOAD_INVALID' }).adapter).receive(em.asEm(), input());
    const [insert] = em.statements('insert into webhook_delivery');
    expect(insert?.sql).toContain('on conflict (provider, merchant_account, event_id) do nothing');
    expect(insert?.params.slice(1)).toEqual(['deposit-gateway', 'acct-1', 'evt_1', 'payment.approved', '{"id":"evt_1"}', sha256('{"id":"evt_1"}'), NOW]);
  });

  it('is a duplicate, with no delivery id, when the event is stored already: nothing is decided', async () => {
    const { handler, contexts } = fakeHandler(() => ({ outcome: 'applied' }));
    const webhooks = inbox(fakeAdapter({ ok: false, reason: 'PAYLOAD_INVALID' }).adapter);
    webhooks.register('deposit', handler);
    const em = new FakeEm(inserting(false));
    await expect(webhooks.receive(em.asEm(), input())).resolves.toEqual({ outcome: 'duplicate', reason: 'EVENT_ALREADY_RECEIVED' });
    expect(contexts).toEqual([]);
    expect(em.log).toEqual(['begin', 'execute insert into', 'commit']);
  });

  it('is a duplicate when the insert with the lookup inserts nothing: the subject is not even locked', async () => {
    const { handler, contexts } = fakeHandler(() => ({ outcome: 'applied' }), byReference(['id'], true));
    const webhooks = inbox(fakeAdapter({ ok: false, reason: 'PAYLOAD_INVALID' }).adapter);
    webhooks.register('deposit', handler);
    const em = new FakeEm(inserting(false));
    await expect(webhooks.receive(em.asEm(), input())).resolves.toEqual({ outcome: 'duplicate', reason: 'EVENT_ALREADY_RECEIVED' });
    expect(contexts).toEqual([]);
  });

  it.each([
    ['a kind no module registered', depositEvent(), 'EVENT_NOT_HANDLED: deposit events are not applied'],
    ['an event type the adapter does not know', depositEvent({ name: 'payment.teleported', subject: { kind: 'other' } }), 'EVENT_NOT_HANDLED: unknown event type payment.teleported'],
  ])('keeps %s as ignored, acknowledged', async (_case, event, reason) => {
    const em = new FakeEm(inserting());
    const result = await inbox(fakeAdapter({ ok: false, reason: 'PAYLOAD_INVALID' }).adapter).receive(em.asEm(), input(event));
    expect(result).toEqual({ outcome: 'ignored', reason, deliveryId: expect.stringMatching(/^whd_/) });
    expect(em.statements('update webhook_delivery')).toEqual([
      { sql: 'update webhook_delivery set outcome = ?, reason = ?, subject_type = ?, subject_id = ? where id = ?', params: ['ignored', reason, null, null, result.deliveryId] },
    ]);
  });

  it('records the handler\'s decision on the delivery\'s row', async () => {
    const { handler, contexts } = fakeHandler(() => ({ outcome: 'anomaly', reason: 'AMOUNT_MISMATCH: x', subject: { type: 'deposit', id: 'dep_1' } }));
    const webhooks = inbox(fakeAdapter({ ok: false, reason: 'PAYLOAD_INVALID' }).adapter);
    webhooks.register('deposit', handler);
    const em = new FakeEm(inserting());
    const result = await webhooks.receive(em.asEm(), input());
    expect(result).toEqual({ outcome: 'anomaly', reason: 'AMOUNT_MISMATCH: x', subjectType: 'deposit', subjectId: 'dep_1', deliveryId: expect.stringMatching(/^whd_/) });
    expect(contexts[0]).toMatchObject({ lookedUp: false });
    expect(em.statements('update webhook_delivery')[0]?.params).toEqual(['anomaly', 'AMOUNT_MISMATCH: x', 'deposit', 'dep_1', result.deliveryId]);
    expect(em.log).toEqual(['begin', 'execute insert into', 'execute update webhook_delivery', 'commit']);
  });

  it('writes nothing more when the handler recorded the outcome by its own statement, which the inbox gave it', async () => {
    let given: RowWrite | undefined;
    const { handler } = fakeHandler((context) => {
      given = context.outcome?.({ outcome: 'applied', subject: { type: 'deposit', id: 'dep_1' } });
      return { outcome: 'applied', subject: { type: 'deposit', id: 'dep_1' }, recorded: true };
    });
    const webhooks = inbox(fakeAdapter({ ok: false, reason: 'PAYLOAD_INVALID' }).adapter);
    webhooks.register('deposit', handler);
    const em = new FakeEm(inserting());
    const result = await webhooks.receive(em.asEm(), input());
    expect(result).toEqual({ outcome: 'applied', subjectType: 'deposit', subjectId: 'dep_1', deliveryId: expect.stringMatching(/^whd_/) });
    expect(given && renderUpdate(given.table, given.id, { set: given.set })).toEqual({ sql: 'update webhook_delivery set outcome = ?, reason = ?, subject_type = ?, subject_id = ? where id = ?', params: ['applied', null, 'deposit', 'dep_1', result.deliveryId] });
    expect(em.statements('update')).toEqual([]);
  });

  it('finds and locks the subject in the statement that inserts the delivery, and hands the handler its row', async () => {
    const { handler, contexts } = fakeHandler(() => ({ outcome: 'applied' }), byReference(['id', 'status'], true));
    const webhooks = inbox(fakeAdapter({ ok: false, reason: 'PAYLOAD_INVALID' }).adapter);
    webhooks.register('deposit', handler);
    const em = new FakeEm((sql, params) => (sql.startsWith('with inserted') ? [{ inbox_delivery_id: params[0], id: 'dep_1', status: 'PENDING' }] : []));
    await webhooks.receive(em.asEm(), input());
    const [first] = em.executed;
    expect(first?.sql).toMatch(/^with inserted as \(insert into webhook_delivery .* returning id\) select inserted\.id as inbox_delivery_id, d\.\* from inserted left join lateral \(select id, status from deposit\s+where \(provider_reference = \?\) limit 1 for update\) d on true$/s);
    expect(first?.params.slice(-1)).toEqual(['pi_1']);
    expect(contexts[0]).toMatchObject({ lookedUp: true, found: { id: 'dep_1', status: 'PENDING' } });
    expect(contexts[0]?.found).not.toHaveProperty('inbox_delivery_id');
  });

  it('hands no row when the lookup found none', async () => {
    const { handler, contexts } = fakeHandler(() => ({ outcome: 'not_found' }), byReference(['id'], false));
    const webhooks = inbox(fakeAdapter({ ok: false, reason: 'PAYLOAD_INVALID' }).adapter);
    webhooks.register('deposit', handler);
    const em = new FakeEm((sql, params) => (sql.startsWith('with inserted') ? [{ inbox_delivery_id: params[0], id: null }] : []));
    await webhooks.receive(em.asEm(), input());
    expect(contexts[0]?.lookedUp).toBe(true);
    expect(contexts[0]).not.toHaveProperty('found');
  });

  it('runs in a savepoint of a transaction the caller already holds', async () => {
    const em = new FakeEm(inserting());
    await em.transactional((tx) => inbox(fakeAdapter({ ok: false, reason: 'PAYLOAD_INVALID' }).adapter).receive(tx, input()));
    expect(em.log.filter((entry) => entry === 'begin')).toHaveLength(2);
  });

  it('refuses a second handler for one kind', () => {
    const webhooks = inbox(fakeAdapter({ ok: false, reason: 'PAYLOAD_INVALID' }).adapter);
    webhooks.register('deposit', fakeHandler(() => ({ outcome: 'applied' })).handler);
    expect(() => webhooks.register('deposit', fakeHandler(() => ({ outcome: 'applied' })).handler)).toThrow('Webhook events about deposit have a handler already');
  });
});

describe('WebhookInbox.replay: a stored delivery decided again', () => {
  const stored = (outcome: string, rawBody = '{"id":"evt_1"}', account = 'acct-1') => ({ id: 'whd_1', provider: 'deposit-gateway', merchant_account: account, outcome, raw_body: rawBody });
  const answering = (row: Record<string, unknown> | undefined): Respond => (sql) => (sql.startsWith('select') ? (row ? [row] : []) : []);

  it.each([
    ['no such delivery', undefined, { ok: false, code: 'DELIVERY_NOT_FOUND', message: 'No webhook delivery whd_1' }],
    ['a rejected one: it kept no body', stored('rejected', ''), { ok: false, code: 'DELIVERY_REJECTED', message: 'A rejected delivery kept no body: it cannot be replayed' }],
    ['one whose body retention erased', stored('unmatched', ''), { ok: false, code: 'DELIVERY_BODY_ERASED', message: 'The body of this delivery was erased after its retention window: it cannot be replayed' }],
    ['one of an account no longer configured', stored('unmatched', '{}', 'acct-gone'), { ok: false, code: 'ACCOUNT_NOT_CONFIGURED', message: 'Merchant account acct-gone is not configured on this gateway' }],
  ])('refuses %s', async (_case, row, result) => {
    const em = new FakeEm(answering(row));
    await expect(inbox(fakeAdapter({ ok: true, event: depositEvent() }).adapter).replay(em.asEm(), 'whd_1')).resolves.toEqual(result);
    expect(em.statements('update')).toEqual([]);
  });

  it('refuses a stored body the adapter no longer reads', async () => {
    const em = new FakeEm(answering(stored('unmatched')));
    await expect(inbox(fakeAdapter({ ok: false, reason: 'PAYLOAD_INVALID' }).adapter).replay(em.asEm(), 'whd_1')).resolves.toEqual({ ok: false, code: 'PAYLOAD_INVALID', message: 'The stored body is not a usable event' });
  });

  it('parses the stored body (never verifies it again: its signature is long stale) and records the new decision', async () => {
    const { adapter, seen } = fakeAdapter({ ok: false, reason: 'SIGNATURE_MISMATCH' }, { ok: true, event: depositEvent() });
    const webhooks = inbox(adapter);
    const { handler, contexts } = fakeHandler(() => ({ outcome: 'applied', subject: { type: 'deposit', id: 'dep_1' }, recorded: true }));
    webhooks.register('deposit', handler);
    const em = new FakeEm(answering(stored('unmatched')));
    await expect(webhooks.replay(em.asEm(), 'whd_1')).resolves.toEqual({ ok: true, deliveryId: 'whd_1', outcome: 'applied', subjectType: 'deposit', subjectId: 'dep_1' });
    expect(seen.map((body) => body.toString())).toEqual(['{"id":"evt_1"}']);
    // A stored delivery gets no outcome statement: the inbox records the decision itself.
    expect(contexts[0]).toEqual({ lookedUp: false });
    const [update] = em.statements('update webhook_delivery');
    expect(update?.sql).toBe('update webhook_delivery set outcome = ?, reason = ?, subject_type = ?, subject_id = ?, replayed_at = ? where id = ?');
    expect(update?.params).toEqual(['applied', null, 'deposit', 'dep_1', expect.any(Date), 'whd_1']);
    expect(em.log[0]).toBe('begin');
    expect(em.executed[0]?.sql).toMatch(/for update$/);
  });

  it('keeps an applied delivery\'s outcome on record: only the replay time is written', async () => {
    const webhooks = inbox(fakeAdapter({ ok: true, event: depositEvent() }).adapter);
    webhooks.register('deposit', fakeHandler(() => ({ outcome: 'noop', reason: 'STATUS_UNCHANGED: deposit is already SUCCEEDED' })).handler);
    const em = new FakeEm(answering(stored('applied')));
    await expect(webhooks.replay(em.asEm(), 'whd_1')).resolves.toMatchObject({ ok: true, outcome: 'duplicate' });
    expect(em.statements('update webhook_delivery')).toEqual([{ sql: 'update webhook_delivery set replayed_at = ? where id = ?', params: [expect.any(Date), 'whd_1'] }]);
  });

  it('runs the handler\'s lookup itself, and decides an event no module handles as ignored', async () => {
    const lookup = byReference(['id'], false);
    const webhooks = inbox(fakeAdapter({ ok: true, event: depositEvent() }).adapter);
    const { handler, contexts } = fakeHandler(() => ({ outcome: 'applied' }), lookup);
    webhooks.register('deposit', handler);
    const em = new FakeEm((sql) => (sql.startsWith('select id, provider') ? [stored('unmatched')] : sql === renderLookup(lookup).sql ? [{ id: 'dep_1' }] : []));
    await webhooks.replay(em.asEm(), 'whd_1');
    expect(contexts[0]).toEqual({ lookedUp: true, found: { id: 'dep_1' } });

    const unhandled = inbox(fakeAdapter({ ok: true, event: depositEvent() }).adapter);
    await expect(unhandled.replay(new FakeEm(answering(stored('unmatched'))).asEm(), 'whd_1')).resolves.toMatchObject({ ok: true, outcome: 'ignored', reason: 'EVENT_NOT_HANDLED: deposit events are not applied' });
  });
});

describe('WebhookInbox.releaseDeferred', () => {
  it('decides again, in the caller\'s transaction, each delivery deferred until the subject changed, oldest first', async () => {
    const webhooks = inbox(fakeAdapter({ ok: true, event: depositEvent() }).adapter);
    const { handler, contexts } = fakeHandler(() => ({ outcome: 'applied', subject: { type: 'refund', id: 'rfd_1' } }));
    webhooks.register('deposit', handler);
    const deferred = ['whd_1', 'whd_2'].map((id) => ({ id, provider: 'deposit-gateway', merchant_account: 'acct-1', outcome: 'deferred', raw_body: '{}' }));
    const em = new FakeEm((sql) => (sql.trim().startsWith('select') ? deferred : []));
    const released = await em.transactional((tx) => webhooks.releaseDeferred(tx, 'deposit', 'dep_1'));
    expect(released).toBe(2);
    expect(contexts).toHaveLength(2);
    expect(em.executed[0]?.sql).toMatch(/where subject_type = \? and subject_id = \? and outcome = 'deferred'\s+order by received_at, id for update$/);
    expect(em.executed[0]?.params).toEqual(['deposit', 'dep_1']);
    expect(em.statements('update webhook_delivery').map((update) => update.params.at(-1))).toEqual(['whd_1', 'whd_2']);
  });

  it('refuses to run outside a transaction: the deliveries stay locked until commit', async () => {
    await expect(inbox(fakeAdapter({ ok: true, event: depositEvent() }).adapter).releaseDeferred(new FakeEm().asEm(), 'deposit', 'dep_1')).rejects.toThrow(
      'WebhookInbox.releaseDeferred must run inside a transaction: the deliveries are locked until commit',
    );
  });
});

describe('WebhookInbox: targets and modes', () => {
  it('knows only registered providers, and a target only for an account of that provider', () => {
    const webhooks = inbox(fakeAdapter({ ok: true, event: depositEvent() }).adapter);
    expect(webhooks.knowsProvider('deposit-gateway')).toBe(true);
    expect(webhooks.knowsProvider('acme-pay')).toBe(false);
    expect(webhooks.target('deposit-gateway', 'acct-1')).toEqual({ provider: 'deposit-gateway', account: ACCOUNT });
    expect(webhooks.target('deposit-gateway', 'acct-qr')).toBeUndefined();
    expect(new WebhookInbox().target('deposit-gateway', 'acct-1')).toBeUndefined();
  });

  it.each([
    ['an event that says no mode', undefined, false, undefined],
    ['a test event for a test account', false, false, undefined],
    ['a live event for a live account', true, true, undefined],
    ['a live event for a test account', true, false, 'LIVEMODE_MISMATCH: event livemode=true, account livemode=false'],
    ['a test event for a live account', false, true, 'LIVEMODE_MISMATCH: event livemode=false, account livemode=true'],
  ])('livemodeMismatch: %s', (_case, eventMode, accountMode, reason) => {
    const event = depositEvent();
    delete event.livemode;
    const input: ReceiveWebhookInput = {
      provider: 'deposit-gateway',
      account: { ...ACCOUNT, livemode: accountMode },
      event: { ...event, ...(eventMode !== undefined ? { livemode: eventMode } : {}) },
      rawBody: Buffer.from('{}'),
    };
    expect(livemodeMismatch(input)).toBe(reason);
  });
});
