// The deposit, event log and webhook inbox mappings round-trip exactly through the real database,
// and its unique constraints refuse what the domain relies on them to refuse.

import { CheckConstraintViolationException, ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { entities } from '../../src/entities.js';
import { newId } from '../../src/lib/ids.js';
import { createLogger } from '../../src/lib/logger.js';
import { ApiClient } from '../../src/modules/clients/api-client.entity.js';
import { Deposit, type DepositRequest } from '../../src/modules/deposits/deposit.entity.js';
import { PaymentEvent } from '../../src/kernel/events/payment-event.entity.js';
import { WebhookDelivery } from '../../src/kernel/inbox/webhook-delivery.entity.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let testDb: TestDatabase;
let db: Database;
let clientId: string;
let otherClientId: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = await openDatabase({
    databaseUrl: testDb.env.DATABASE_URL,
    dataDir: testDb.env.DATA_DIR!,
    logger: createLogger({ level: 'silent' }),
    entities,
  });
  clientId = await insertClient('schema-cashier');
  otherClientId = await insertClient('schema-other-cashier');
});

afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

async function insertClient(name: string): Promise<string> {
  const em = db.fork();
  const client = em.create(ApiClient, {
    id: newId('cli'),
    name,
    roles: ['CASHIER'],
  });
  await em.flush();
  return client.id;
}

const request: DepositRequest = {
  details: { rail: 'LATAM', country: 'CHILE', method: 'card', expiresAt: '2026-11-21T12:00:00.000Z' },
  customer: { email: 'player@example.com', firstName: 'Ana', personalId: '12345678-5', phone: '912345678', phoneCode: '56' },
  returnUrl: 'https://cashier.example/return',
};

async function persistDeposit(values: Record<string, unknown>): Promise<string> {
  const em = db.fork();
  const deposit = em.create(Deposit, {
    id: newId('dep'),
    clientId,
    merchantAccount: 'dg-test',
    provider: 'deposit-gateway',
    rail: 'LATAM',
    livemode: false,
    status: 'PENDING',
    amount: '10.50',
    currency: 'EUR',
    request,
    ...values,
  });
  await em.flush();
  return deposit.id;
}

it('runs on the database this test run selected', () => {
  expect(db.kind).toBe(testDb.kind);
});

describe('deposit mapping', () => {
  it('round-trips every field exactly', async () => {
    const id = await persistDeposit({
      amount: '123456789012345.67',
      fee: '0.35',
      net: '123456789012345.32',
      providerStatus: 'approved',
      statusReason: '05',
      status: 'SUCCEEDED',
      providerReference: 'pay_ref_1',
      redirectUrl: 'https://provider.example/r/pay_ref_1',
      merchantReference: 'order-1',
      crypto: { quoteTtlMinutes: 15, underpayTolerancePct: '0.5' },
      approvedAt: new Date('2026-11-21T10:00:00.000Z'),
    });

    const loaded = await db.fork().findOneOrFail(Deposit, id);
    expect(loaded).toBeInstanceOf(Deposit);
    expect(loaded.amount).toBe('123456789012345.67');
    expect(loaded.amountMoney().toDecimal()).toBe('123456789012345.67');
    expect(loaded.amountMoney().minor).toBe(12345678901234567n);
    expect(loaded.feeMoney()?.toDecimal()).toBe('0.35');
    expect(loaded.netMoney()?.toDecimal()).toBe('123456789012345.32');
    expect(loaded.refundedMoney().toDecimal()).toBe('0.00');
    expect(loaded.disputed).toBe(false);
    expect(loaded.refundStatus).toBeNull();
    expect(loaded.request).toEqual(request);
    expect(loaded.crypto).toEqual({ quoteTtlMinutes: 15, underpayTolerancePct: '0.5' });
    expect(loaded.approvedAt?.toISOString()).toBe('2026-11-21T10:00:00.000Z');
    expect(loaded.createdAt).toBeInstanceOf(Date);
    expect(loaded.updatedAt).toBeInstanceOf(Date);
    expect(loaded).toMatchObject({
      clientId,
      merchantAccount: 'dg-test',
      provider: 'deposit-gateway',
      rail: 'LATAM',
      livemode: false,
      status: 'SUCCEEDED',
      providerStatus: 'approved',
      statusReason: '05',
      providerReference: 'pay_ref_1',
      merchantReference: 'order-1',
    });
  });

  it('reads zero-decimal currencies as whole amounts', async () => {
    const id = await persistDeposit({ amount: '1000', currency: 'CLP' });
    const loaded = await db.fork().findOneOrFail(Deposit, id);
    expect(loaded.amountMoney().toDecimal()).toBe('1000');
    expect(loaded.amountMoney().minor).toBe(1000n);
  });

  it('keeps three- and four-decimal amounts exactly, where a two-decimal column would have rounded them', async () => {
    const kwd = await persistDeposit({ amount: '1.234', fee: '0.037', net: '1.197', currency: 'KWD' });
    const loadedKwd = await db.fork().findOneOrFail(Deposit, kwd);
    expect([loadedKwd.amountMoney(), loadedKwd.feeMoney(), loadedKwd.netMoney()].map(String)).toEqual(['KWD 1.234', 'KWD 0.037', 'KWD 1.197']);
    const clf = await persistDeposit({ amount: '1.2345', currency: 'CLF' });
    expect((await db.fork().findOneOrFail(Deposit, clf)).amountMoney().toString()).toBe('CLF 1.2345');
  });

  it('reads a COP amount stored with two decimals as the same pesos (ISO 4217 gives COP two decimals)', async () => {
    const id = await persistDeposit({ amount: '50000.00', currency: 'COP' });
    const loaded = await db.fork().findOneOrFail(Deposit, id);
    expect(loaded.amountMoney().toString()).toBe('COP 50000.00');
    expect(loaded.amountMoney().toDecimalPlaces(0)).toBe('50000');
  });

  it('keeps the Thai QR fields', async () => {
    const expiresAt = new Date('2026-11-21T11:15:00.000Z');
    const id = await persistDeposit({
      provider: 'qr-gateway',
      rail: 'THAI_QR',
      amount: '250.00',
      currency: 'THB',
      qrPayload: '00020101021229370016A000000677010111',
      qrExpiresAt: expiresAt,
      request: { details: { rail: 'THAI_QR', payer: { name: 'Somchai' }, clientId }, customer: {} },
    });
    const loaded = await db.fork().findOneOrFail(Deposit, id);
    expect(loaded.qrPayload).toBe('00020101021229370016A000000677010111');
    expect(loaded.qrExpiresAt?.toISOString()).toBe(expiresAt.toISOString());
  });

  it('scopes idempotency keys to the client (the idempotency layer\'s table, whatever the operation)', async () => {
    const key = (client: string, operation: string, fingerprint: string) =>
      db
        .fork()
        .execute("insert into idempotency_key (client_id, key, operation, fingerprint, created_at, updated_at) values (?, 'same-key', ?, ?, now(), now())", [client, operation, fingerprint]);
    await key(clientId, 'deposit', 'b'.repeat(64));
    await expect(key(clientId, 'deposit', 'c'.repeat(64))).rejects.toBeInstanceOf(UniqueConstraintViolationException);
    await expect(key(clientId, 'refund', 'b'.repeat(64))).rejects.toBeInstanceOf(UniqueConstraintViolationException);
    await key(otherClientId, 'deposit', 'b'.repeat(64));
    // Deposits carry no key of their own: any number of them, with or without a key.
    await persistDeposit({});
    await persistDeposit({});
  });

  it('keeps provider references unique per provider', async () => {
    await persistDeposit({ providerReference: 'shared_ref' });
    await expect(persistDeposit({ providerReference: 'shared_ref' })).rejects.toBeInstanceOf(UniqueConstraintViolationException);
    await expect(
      persistDeposit({ provider: 'qr-gateway', rail: 'THAI_QR', currency: 'THB', providerReference: 'shared_ref' }),
    ).resolves.toMatch(/^dep_/);
  });

  it.each([
    ['a zero amount', { amount: '0' }],
    ['a negative amount', { amount: '-5.00' }],
    ['an unknown status', { status: 'SETTLED' }],
    ['an unknown rail', { rail: 'CHEQUE' }],
    ['a refund above the amount', { refundedAmount: '10.51' }],
  ])('refuses %s', async (_label, values) => {
    await expect(persistDeposit(values)).rejects.toBeInstanceOf(CheckConstraintViolationException);
  });

  it('refuses a deposit for an unknown client', async () => {
    await expect(persistDeposit({ clientId: newId('cli') })).rejects.toBeInstanceOf(ForeignKeyConstraintViolationException);
  });
});

describe('payment event mapping', () => {
  it('assigns increasing positions and round-trips its snapshot', async () => {
    const em = db.fork();
    const subjectId = newId('dep');
    const data = { id: subjectId, status: 'SUCCEEDED', amount: { amount: '10.50', currency: 'EUR' }, nested: [1, 'two', null] };
    const first = em.create(PaymentEvent, {
      id: newId('evt'),
      subjectType: 'deposit',
      subjectId,
      clientId,
      merchantAccount: 'dg-test',
      type: 'deposit.status_changed',
      fromStatus: 'PENDING',
      toStatus: 'AUTHORIZED',
      data: { ...data, status: 'AUTHORIZED' },
    });
    await em.flush();
    const second = em.create(PaymentEvent, {
      id: newId('evt'),
      subjectType: 'deposit',
      subjectId,
      clientId,
      merchantAccount: 'dg-test',
      type: 'deposit.status_changed',
      fromStatus: 'AUTHORIZED',
      toStatus: 'SUCCEEDED',
      data,
    });
    await em.flush();
    expect(typeof first.position).toBe('string');
    expect(BigInt(second.position)).toBeGreaterThan(BigInt(first.position));

    const loaded = await db.fork().find(PaymentEvent, { clientId, subjectId }, { orderBy: { position: 'asc' } });
    expect(loaded.map((event) => event.id)).toEqual([first.id, second.id]);
    expect(loaded[1]!.data).toEqual(data);
    expect(loaded[1]).toMatchObject({ subjectType: 'deposit', type: 'deposit.status_changed', fromStatus: 'AUTHORIZED', toStatus: 'SUCCEEDED' });

    const after = await db.fork().find(PaymentEvent, { clientId, position: { $gt: first.position } });
    expect(after.map((event) => event.id)).toEqual([second.id]);
  });

  it('refuses a second event with the same id', async () => {
    const id = newId('evt');
    const insert = async () => {
      const em = db.fork();
      em.create(PaymentEvent, { id, subjectType: 'deposit', subjectId: newId('dep'), clientId, merchantAccount: 'dg-test', type: 'deposit.created', data: {} });
      await em.flush();
    };
    await insert();
    await expect(insert()).rejects.toBeInstanceOf(UniqueConstraintViolationException);
  });
});

describe('webhook inbox mapping', () => {
  const rawBody = '{"id":"evt_1","type":"payment.approved","data":{"reference":"pay_1","amount":10.50,"note":"café ✓"}}\n';

  async function record(values: Record<string, unknown> = {}): Promise<string> {
    const em = db.fork();
    const delivery = em.create(WebhookDelivery, {
      id: newId('whd'),
      provider: 'deposit-gateway',
      merchantAccount: 'dg-test',
      eventId: 'evt_1',
      eventName: 'payment.approved',
      outcome: 'applied',
      subjectType: 'deposit',
      subjectId: newId('dep'),
      rawBody,
      ...values,
    });
    await em.flush();
    return delivery.id;
  }

  it('keeps the body byte for byte', async () => {
    const id = await record();
    const loaded = await db.fork().findOneOrFail(WebhookDelivery, id);
    expect(loaded.rawBody).toBe(rawBody);
    expect(Buffer.from(loaded.rawBody, 'utf8').equals(Buffer.from(rawBody, 'utf8'))).toBe(true);
    expect(loaded).toMatchObject({ provider: 'deposit-gateway', merchantAccount: 'dg-test', eventId: 'evt_1', outcome: 'applied', reason: null });
    expect(loaded.receivedAt).toBeInstanceOf(Date);
  });

  it('refuses the same event twice for one account, not across accounts or providers', async () => {
    await record({ eventId: 'evt_dup' });
    await expect(record({ eventId: 'evt_dup', outcome: 'duplicate' })).rejects.toBeInstanceOf(UniqueConstraintViolationException);
    await expect(record({ eventId: 'evt_dup', merchantAccount: 'dg-other' })).resolves.toMatch(/^whd_/);
    await expect(record({ eventId: 'evt_dup', provider: 'qr-gateway', merchantAccount: 'dg-test' })).resolves.toMatch(/^whd_/);
  });

  it('keeps unmatched and anomalous events with their reason', async () => {
    const id = await record({ eventId: 'pay_9:declined', outcome: 'anomaly', reason: 'deposit SUCCEEDED cannot move to DECLINED' });
    const unmatched = await record({ eventId: 'pay_unknown:approved', outcome: 'unmatched', subjectType: null, subjectId: null });
    const em = db.fork();
    expect((await em.findOneOrFail(WebhookDelivery, id)).reason).toBe('deposit SUCCEEDED cannot move to DECLINED');
    expect(await em.findOneOrFail(WebhookDelivery, unmatched)).toMatchObject({ outcome: 'unmatched', subjectType: null, subjectId: null });
  });

  it('refuses an unknown outcome', async () => {
    await expect(record({ eventId: 'evt_odd', outcome: 'processed' })).rejects.toBeInstanceOf(CheckConstraintViolationException);
  });
});
