// Retention of payments' personal data (docs/operations.md "Retention"), through the API on a clock the test
// moves forward: deposits on every rail and payouts to every country, each with a payer or
// beneficiary of its own, are finished; once PERSONAL_DATA_RETENTION_MS (90 days) has passed since
// their last change, the retention job erases every e-mail, name, address, phone, document, UPI ID,
// CPF and full account number from every table (scanned column by column), while the deposits and
// payouts still answer with their amounts, statuses, references, events and masked identifiers.
// Inside the window, or while a payment is not final, nothing is erased, and a deposit whose
// submission's outcome was unknown is still resubmitted with its payer's details. The settings'
// validation: src/config.spec.ts; what each module keeps: the specs beside deposit-personal-data.ts
// and retention.ts.

import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidClabe, isValidCpf, rutCheckDigit } from '../../src/providers/deposit-gateway/check-digits.js';
import type { CreateDepositInput, CreatePayoutInput } from '../__generated__/graphql.js';
import { VALID_DEPOSITS } from '../deposits/fixtures.js';
import { CreateDepositMutation, DepositQuery } from '../deposits/operations.js';
import { VALID_PAYOUTS, payoutsClient } from '../payouts/fixtures.js';
import { CreatePayoutMutation, PayoutQuery } from '../payouts/operations.js';
import { CreateQrCodeMutation, SimulateQrPaymentMutation } from '../qr/operations.js';
import { ReconcileDepositMutation } from '../reconciliation/operations.js';
import { ManualClock } from '../support/clock.js';
import type { TestDatabase } from '../support/database.js';
import { execute, metric, startTestGateway, type TestGateway } from '../support/gateway.js';

const DAY = 24 * 3_600_000;
const WINDOW = 90 * DAY;
const FINAL_DEPOSIT = ['SUCCEEDED', 'DECLINED', 'EXPIRED', 'CANCELLED', 'FAILED', 'REFUNDED'];

let clock: ManualClock;
let t: TestGateway & { database: TestDatabase };
let payoutsKey: string;

/**
 * A gateway of its own for each group, on a clock of its own: payments are stamped with the system
 * clock as they change, so a clock moved far ahead for one group would find the next group's
 * payments old at once.
 */
function ownGateway(): void {
  beforeAll(async () => {
    clock = new ManualClock();
    // One attempt per provider call, so one injected 500 leaves an outcome unknown; no background
    // reconciler, so such a payment stays PENDING until the test reconciles it.
    t = await startTestGateway({ clock, env: { PROVIDER_MAX_RETRIES: '0', RECONCILER_ENABLED: 'false' } });
    payoutsKey = await payoutsClient(t, 'retention-payouts');
  });
  afterAll(async () => {
    await t?.close();
  });
}

const sandbox = () => t.gateway.sandboxes.get('deposit-gateway')!.controls;

/** Lower-case letters no other test value shares. */
const letters = (length = 8) => Array.from(randomBytes(length), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
const digits = (length: number) => Array.from(randomBytes(length), (byte) => String(byte % 10)).join('');
/** Random digits until `valid` takes them: identifiers with check digits of their own. */
const drawn = (length: number, valid: (value: string) => boolean) => {
  for (;;) {
    const value = digits(length);
    if (valid(value)) return value;
  }
};
/** None of the sandbox's payout triggers (A11: an account ending 13 bounces, 31 is reverted, 41 fails). */
const noTrigger = (account: string) => !['13', '31', '41'].some((suffix) => account.endsWith(suffix));

/** A document number of its own of `type`, valid where the gateway checks it (RUT, DNI). */
function documentNumber(type: string): string {
  if (type === 'RUT') {
    const body = `1${digits(7)}`;
    return `${body}-${rutCheckDigit(body)}`;
  }
  if (type === 'DNI') return digits(8);
  if (type === 'CURP') return `GODE${digits(6)}HDFRRN${digits(2)}`;
  return `1${digits(9)}`;
}

/** A phone number of its own, shaped like `like` (E.164, or a national number beside a phoneCode). */
const phoneLike = (like: string) => (like.startsWith('+') ? `${like.slice(0, 5)}${digits(like.length - 5)}` : `${like[0]}${digits(like.length - 1)}`);

/**
 * A deposit input from the fixtures whose payer is its own: every personal field the rail's
 * fixture gives gets a value no other payment of this file has. With the values it carries.
 */
function depositWithOwnPayer(label: string): { input: CreateDepositInput; personal: string[] } {
  const input = structuredClone(VALID_DEPOSITS.find(([name]) => name === label)![1]);
  const tag = letters();
  const customer = { ...input.customer! };
  customer.email = `payer.${tag}@example.com`;
  customer.firstName = `Ana${tag}`;
  customer.lastName = `Silva${tag}`;
  if (customer.address1) customer.address1 = `Damrak ${tag}`;
  if (customer.city) customer.city = `Amsterdam${tag}`;
  if (customer.zipCode) customer.zipCode = `ZIP${tag.toUpperCase()}`;
  if (customer.phone) customer.phone = phoneLike(customer.phone);
  if (input.upi) customer.personalId = `${letters()}@okhdfc`;
  if (input.pix) customer.personalId = drawn(11, isValidCpf);
  if (customer.documentType) customer.documentNumber = documentNumber(customer.documentType);
  const personal = (['email', 'firstName', 'lastName', 'address1', 'city', 'zipCode', 'phone', 'personalId', 'documentNumber'] as const)
    .map((field) => customer[field])
    .filter((value): value is string => typeof value === 'string');
  return { input: { ...input, customer, idempotencyKey: randomUUID() }, personal };
}

/** A payout input from the fixtures whose beneficiary is its own (name, account, CCI and document numbers). With the values it carries. */
function payoutWithOwnBeneficiary(country: string, account?: string): { input: CreatePayoutInput; personal: string[] } {
  const input = structuredClone(VALID_PAYOUTS.find(([name]) => name === country)![1]);
  const beneficiary = { ...input.beneficiary, name: `Ana ${letters()}` };
  beneficiary.accountNumber = account ?? (country === 'MEXICO' ? drawn(18, (clabe) => isValidClabe(clabe) && noTrigger(clabe)) : `${digits(8)}90`);
  if (beneficiary.documentType) beneficiary.documentNumber = documentNumber(beneficiary.documentType);
  if (beneficiary.cci) beneficiary.cci = `${digits(18)}90`;
  const personal = [beneficiary.name, beneficiary.accountNumber, beneficiary.documentNumber, beneficiary.cci].filter((value): value is string => typeof value === 'string');
  return { input: { ...input, beneficiary, idempotencyKey: randomUUID() }, personal };
}

async function createDeposit(input: CreateDepositInput) {
  const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input }, { key: t.keys.webCashier });
  expect(created.errors).toBeUndefined();
  return created.data!.createDeposit;
}

async function createPayout(input: CreatePayoutInput) {
  const created = await execute(t.gateway.graphqlUrl, CreatePayoutMutation, { input }, { key: payoutsKey });
  expect(created.errors).toBeUndefined();
  return created.data!.createPayout;
}

/** The deposit as an admin reads it. */
async function adminDeposit(id: string) {
  const read = await execute(t.gateway.graphqlUrl, DepositQuery, { id }, { key: t.keys.admin });
  expect(read.errors).toBeUndefined();
  return read.data!.deposit!;
}

/** The payout as an admin reads it: full account and CCI numbers while they are kept. */
async function adminPayout(id: string) {
  const read = await execute(t.gateway.graphqlUrl, PayoutQuery, { id }, { key: t.keys.admin });
  expect(read.errors).toBeUndefined();
  return read.data!.payout!;
}

/** Waits until the sandbox, the webhooks it sends and the follow-up jobs they schedule are done: nothing more changes these payments. */
async function settled(): Promise<void> {
  await sandbox().idle();
  await t.gateway.services.jobs.runUntilIdle(['deposit.fetch_details']);
}

async function finalDeposit(id: string): Promise<void> {
  await expect.poll(async () => (await adminDeposit(id)).status, { interval: 25 }).toSatisfy((status: string) => FINAL_DEPOSIT.includes(status));
}

async function finalPayout(id: string): Promise<void> {
  await expect.poll(async () => (await adminPayout(id)).status, { interval: 25 }).not.toBe('PENDING');
}

/**
 * Where each of `values` is stored: `table.column: value` for every text, character, json, jsonb
 * and array column of every table of the gateway's schema that holds it anywhere in its text.
 */
async function storedAnywhere(values: readonly string[]): Promise<string[]> {
  const em = t.gateway.db.fork();
  const columns = await em.execute<Array<{ table_name: string; column_name: string }>>(
    `select c.table_name, c.column_name from information_schema.columns c
     join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name and tb.table_type = 'BASE TABLE'
     where c.table_schema = current_schema() and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY')
     order by c.table_name, c.column_name`,
  );
  expect(columns.map((column) => `${column.table_name}.${column.column_name}`)).toEqual(expect.arrayContaining(['deposit.request', 'payout.beneficiary', 'payout.beneficiary_account_number', 'payment_event.data', 'idempotency_key.response', 'webhook_delivery.raw_body']));
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const rows = await em.execute<Array<{ value: string }>>(
      `select distinct v.value from "${table}" t cross join jsonb_array_elements_text(cast(? as jsonb)) as v(value)
       where strpos(t."${column}"::text, v.value) > 0`,
      [JSON.stringify(values)],
    );
    found.push(...rows.map((row) => `${table}.${column}: ${row.value}`));
  }
  return found.sort();
}

/**
 * Reads one at a time: a burst of parallel requests to a gateway left idle during a long scan races
 * the HTTP client's kept-alive sockets against the server closing them (ECONNRESET), which is not
 * what this file tests.
 */
async function each<T>(ids: readonly string[], read: (id: string) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (const id of ids) results.push(await read(id));
  return results;
}

const storedRequest = async (id: string) => (await t.gateway.db.fork().execute<Array<{ request: unknown }>>('select request from deposit where id = ?', [id]))[0]!.request;
const mask = (value: string) => `****${value.slice(-4)}`;

describe('a payment keeps its personal data', () => {
  ownGateway();

  it('inside the window, and while it is not final; a deposit resubmitted by reconciliation still carries its payer', async () => {
    // Given a card deposit and a payout, both final
    const kept = depositWithOwnPayer('CARD');
    const deposit = (await createDeposit(kept.input)).deposit!;
    const paid = payoutWithOwnBeneficiary('CHILE');
    const payout = (await createPayout(paid.input)).payout!;
    // ... and a deposit and a payout whose provider call answered 500: PENDING, their outcome unknown
    const doubtful = depositWithOwnPayer('PIX');
    sandbox().failNext({ status: 500, method: 'POST' });
    const pending = await createDeposit(doubtful.input);
    expect(pending.userErrors).toEqual([expect.objectContaining({ code: 'PROVIDER_UNAVAILABLE' })]);
    const unsent = payoutWithOwnBeneficiary('PERU');
    sandbox().failNext({ status: 500, method: 'POST' });
    const pendingPayout = await createPayout(unsent.input);
    expect(pendingPayout.userErrors).toEqual([expect.objectContaining({ code: 'PROVIDER_UNAVAILABLE' })]);
    await finalDeposit(deposit.id);
    await finalPayout(payout.id);
    await settled();
    const everything = [...kept.personal, ...paid.personal, ...doubtful.personal, ...unsent.personal];
    const before = await storedAnywhere(everything);
    expect(new Set(before.map((row) => row.split(': ')[1]))).toEqual(new Set(everything));

    // When 89 days have passed and the sweep runs, then nothing of the payments is erased (webhook
    // bodies and idempotency keys have windows of their own: 30 days at most)
    clock.advance(WINDOW - DAY);
    await t.gateway.retention.runOnce();
    const ofPayments = (rows: string[]) => rows.filter((row) => !row.startsWith('webhook_delivery.') && !row.startsWith('idempotency_key.'));
    expect(ofPayments(await storedAnywhere(everything))).toEqual(ofPayments(before));

    // When 91 days have passed and the sweep runs
    clock.advance(2 * DAY);
    await t.gateway.retention.runOnce();

    // Then the final deposit's and payout's personal data are gone, everywhere
    expect(await storedAnywhere([...kept.personal, ...paid.personal])).toEqual([]);
    // ... while the PENDING ones keep all of theirs: the deposit's request, the payout's full numbers (an admin reads them)
    expect(new Set((await storedAnywhere([...doubtful.personal, ...unsent.personal])).map((row) => row.split(': ')[1]))).toEqual(new Set([...doubtful.personal, ...unsent.personal]));
    expect(await storedRequest(pending.deposit!.id)).toMatchObject({ customer: { email: doubtful.input.customer!.email, personalId: doubtful.input.customer!.personalId } });
    const unsentNow = await adminPayout(pendingPayout.payout!.id);
    expect(unsentNow).toMatchObject({ status: 'PENDING', beneficiary: { name: unsent.input.beneficiary.name, accountNumber: unsent.input.beneficiary.accountNumber, cci: unsent.input.beneficiary.cci } });

    // When reconciliation resubmits the pending deposit, then it goes through with its payer's details
    const reconciled = await execute(t.gateway.graphqlUrl, ReconcileDepositMutation, { id: pending.deposit!.id }, { key: t.keys.admin });
    expect(reconciled.errors).toBeUndefined();
    expect(reconciled.data!.reconcileDeposit.userErrors).toEqual([]);
    await finalDeposit(pending.deposit!.id);
    expect((await adminDeposit(pending.deposit!.id)).status).toBe('SUCCEEDED');
    await settled();
  });
});

describe('a final payment loses its personal data after the window', () => {
  ownGateway();

  it('on every rail and to every country: no table holds any of it, and deposits and payouts answer with what audits need', async () => {
    // Given deposits on every rail the sandbox settles (one declined), a Thai QR code paid, and
    // payouts to every country (one bounced), each with a payer or beneficiary of its own and an
    // idempotency key whose stored answer repeats the payout's beneficiary
    const depositLabels = ['CARD', 'OPEN_BANKING sepa NL', 'LATAM Chile cards', 'LATAM Peru qr', 'LATAM Mexico', 'LATAM Colombia', 'UPI', 'PIX', 'CRYPTO'];
    const deposits = depositLabels.map(depositWithOwnPayer);
    const declined = depositWithOwnPayer('CARD');
    declined.input.amount = '10.13';
    deposits.push(declined);
    const depositIds: string[] = [];
    for (const { input } of deposits) {
      const created = await createDeposit(input);
      expect(created.userErrors).toEqual([]);
      depositIds.push(created.deposit!.id);
    }
    const qrPayer = { name: `Somchai ${letters()}`, bankName: `Kasikorn${letters()}`, bankAccount: digits(12) };
    const qr = await execute(t.gateway.graphqlUrl, CreateQrCodeMutation, { input: { amount: '150.00', payer: qrPayer, idempotencyKey: randomUUID() } }, { key: t.keys.webCashier });
    expect(qr.data!.createQrCode.userErrors).toEqual([]);
    const qrId = qr.data!.createQrCode.deposit!.id;
    const simulated = await execute(t.gateway.graphqlUrl, SimulateQrPaymentMutation, { input: { depositId: qrId, outcome: 'SUCCEEDED' } }, { key: t.keys.admin });
    expect(simulated.data!.simulateQrPayment.userErrors).toEqual([]);
    depositIds.push(qrId);
    const payouts = VALID_PAYOUTS.map(([country]) => payoutWithOwnBeneficiary(country));
    payouts.push(payoutWithOwnBeneficiary('COLOMBIA', `${digits(8)}13`));
    const payoutIds: string[] = [];
    for (const { input } of payouts) {
      const created = await createPayout(input);
      expect(created.userErrors).toEqual([]);
      payoutIds.push(created.payout!.id);
    }
    for (const id of depositIds) await finalDeposit(id);
    for (const id of payoutIds) await finalPayout(id);
    await settled();
    expect((await adminDeposit(depositIds[deposits.length - 1]!)).status).toBe('DECLINED');
    expect((await adminPayout(payoutIds.at(-1)!)).status).toBe('BOUNCED');
    const personal = [...deposits.flatMap((deposit) => deposit.personal), qrPayer.name, qrPayer.bankName, ...payouts.flatMap((payout) => payout.personal)];
    // Every one of them is stored somewhere now (the deposits' requests, the payouts' rows, events and stored answers)
    const before = await storedAnywhere(personal);
    expect(new Set(before.map((row) => row.split(': ')[1]))).toEqual(new Set(personal));
    expect(before).toEqual(expect.arrayContaining([expect.stringMatching(/^payment_event\.data: /), expect.stringMatching(/^idempotency_key\.response: /)]));
    const depositsBefore = await each(depositIds, adminDeposit);
    const payoutsBefore = await each(payoutIds, adminPayout);
    const counted = await metric(t, /gateway_retention_removed_total\{data="deposit_personal_data"\} (\d+)/);
    const countedPayouts = await metric(t, /gateway_retention_removed_total\{data="payout_personal_data"\} (\d+)/);
    const logged = t.logs.length;

    // When 91 days have passed since their last change and the retention sweep runs
    clock.advance(WINDOW + DAY);
    await t.gateway.retention.runOnce();

    // Then no column of any table holds any of it, the Thai QR payer's bank account included (never kept)
    expect(await storedAnywhere([...personal, qrPayer.bankAccount])).toEqual([]);
    // ... the deposits read exactly as before: amounts, statuses, references, fee and net, events
    expect(await each(depositIds, adminDeposit)).toEqual(depositsBefore);
    // ... and what a deposit's request keeps is its rail, the payer's country and document type, and masked identifiers
    const chile = deposits[depositLabels.indexOf('LATAM Chile cards')]!.input;
    expect(await storedRequest(depositIds[depositLabels.indexOf('LATAM Chile cards')]!)).toEqual({
      details: { rail: 'LATAM', country: 'CHILE', method: 'cards' },
      customer: { documentType: 'RUT', documentNumber: mask(chile.customer!.documentNumber!) },
    });
    expect(await storedRequest(depositIds[0]!)).toEqual({ details: { rail: 'CARD' }, customer: { country: 'NL' } });
    expect(await storedRequest(qrId)).toMatchObject({ details: { rail: 'THAI_QR' }, customer: {} });
    expect(await storedRequest(qrId)).not.toHaveProperty('details.payer');
    // ... the payouts keep everything but the beneficiary's name and full numbers: an admin now reads them masked like anyone
    const payoutsAfter = await each(payoutIds, adminPayout);
    payoutsAfter.forEach((after, index) => {
      const { beneficiary } = payouts[index]!.input;
      const was = payoutsBefore[index]!;
      expect(was.beneficiary).toMatchObject({ name: beneficiary.name, accountNumber: beneficiary.accountNumber });
      expect(after).toEqual({
        ...was,
        beneficiary: {
          ...was.beneficiary,
          name: null,
          accountNumber: mask(beneficiary.accountNumber!),
          cci: beneficiary.cci ? mask(beneficiary.cci) : null,
          documentNumber: mask(beneficiary.documentNumber!),
        },
      });
    });
    // ... counted, and logged as counts alone
    expect(await metric(t, /gateway_retention_removed_total\{data="deposit_personal_data"\} (\d+)/)).toBe(counted + depositIds.length);
    expect(await metric(t, /gateway_retention_removed_total\{data="payout_personal_data"\} (\d+)/)).toBe(countedPayouts + payoutIds.length);
    const lines = t.logs.slice(logged);
    const done = lines.map((text) => JSON.parse(text) as Record<string, unknown>).findLast((entry) => entry.msg === 'retention sweep done');
    expect(done).toMatchObject({ component: 'retention', personalDataErased: { deposit: depositIds.length, payout: payoutIds.length }, more: false });
    expect(lines.filter((line) => personal.some((value) => line.includes(value)))).toEqual([]);
    // (nor did any line of the whole run, payments made and settled included)
    expect(t.logs.filter((line) => personal.some((value) => line.includes(value)))).toEqual([]);
    expect(lines.filter((line) => payoutIds.some((id) => line.includes(id)) && line.includes('"component":"retention"'))).toEqual([]);

    // When the sweep runs again, then it finds nothing more to erase and changes nothing
    const erasedAt = await t.gateway.db.fork().execute<Array<{ id: string; at: unknown }>>('select id, personal_data_erased_at as at from payout order by id');
    await t.gateway.retention.runOnce();
    const again = t.logs.map((text) => JSON.parse(text) as Record<string, unknown>).findLast((entry) => entry.msg === 'retention sweep done');
    expect(again).toMatchObject({ personalDataErased: { deposit: 0, payout: 0 } });
    expect(await t.gateway.db.fork().execute('select id, personal_data_erased_at as at from payout order by id')).toEqual(erasedAt);
    expect(await each(payoutIds, adminPayout)).toEqual(payoutsAfter);
  });
});
