// Deposit gateway sandbox over real HTTP: authentication, every rail's rules, response shapes,
// idempotency, paging, fees, test-mode outcomes, card session and settle, refunds, payouts, hosted pages.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDepositGatewaySandbox, type DepositGatewaySandbox } from '../../src/sandbox/deposit-gateway/index.js';
import { loadCardForm, submitCard, TEST_CARD } from '../card-form/shopper.js';

const TEST_KEY = 'svc_test_main_key';
const OTHER_KEY = 'svc_test_other_key';
const LIVE_KEY = 'svc_live_main_key';
const LIVE_ENABLED_KEY = 'svc_live_payouts_on';

let sandbox: DepositGatewaySandbox;

beforeAll(async () => {
  sandbox = await startDepositGatewaySandbox({
    accounts: [
      { apiKey: TEST_KEY, webhookSecret: 'whsec_main' },
      { apiKey: OTHER_KEY, webhookSecret: 'whsec_other' },
      { apiKey: LIVE_KEY, webhookSecret: 'whsec_live' },
      { apiKey: LIVE_ENABLED_KEY, webhookSecret: 'whsec_live2', livePayoutsEnabled: true },
    ],
    timeScale: 0.001,
  });
});

afterAll(async () => {
  await sandbox.close();
});

type Json = Record<string, any>;

async function call(method: string, path: string, body?: unknown, options: { key?: string | null; headers?: Record<string, string>; raw?: string } = {}): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? TEST_KEY : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (body !== undefined || options.raw !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${sandbox.baseUrl}${path}`, { method, headers, body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
  return { status: response.status, body: (await response.json()) as Json };
}

const person = { email: 'player@example.com', firstName: 'Ada', lastName: 'Lovelace' };
const address = { country: 'DE', address1: 'Main St 1', city: 'Berlin', zipCode: '10115' };
const card = { method: 'cards', amount: '10.00', ...person, ...address };
const sepa = { method: 'sepa', bankCountry: 'NL', amount: '25.00', ...person, ...address, country: 'NL' };
const inOneHour = (): string => new Date(Date.now() + 3600_000).toISOString();
const chile = { country: 'CHILE', method: 'bank', amount: '5000', ...person, documentType: 'RUT', documentNumber: '12345678-5' };
const peru = { country: 'PERU', method: 'bank', amount: '50.00', ...person, documentType: 'DNI', documentNumber: '12345678' };
const mexico = { country: 'MEXICO', amount: '100.00', ...person, documentType: 'CURP', documentNumber: 'GODE561231HDFRRN09' };
const colombia = { country: 'COLOMBIA', amount: '50000', ...person, documentType: 'CC', documentNumber: '1020304050', phone: '3001234567', phoneCode: '+57' };
const ecuador = (): Json => ({ country: 'ECUADOR', amount: '20.00', ...person, documentType: 'CI', documentNumber: '1710034065', expiresAt: inOneHour() });
const upi = { solution: 'upi', amount: '500.00', ...person, phone: '+919876543210', personalId: 'ada@okbank' };
const pix = { solution: 'pix', amount: '50.00', ...person, phone: '+5511987654321', personalId: '52998224725' };
const crypto = { provider: 'crypto', amount: 25, currency: 'EUR', ...person };

function without(body: Json, field: string): Json {
  const copy = { ...body };
  delete copy[field];
  return copy;
}

describe('authentication', () => {
  it.each([
    ['missing', null, undefined],
    ['unknown', 'svc_test_nobody', undefined],
    ['malformed', null, { authorization: 'Basic abc' }],
    ['not a service key', null, { authorization: 'Bearer sk_test_123' }],
  ])('answers 401 for a %s key', async (_name, key, headers) => {
    const response = await call('GET', '/payments', undefined, { key, headers });
    expect(response.status).toBe(401);
    expect(response.body.ok).toBe(false);
    expect(typeof response.body.error).toBe('string');
  });

  it('serves /healthz without auth and counts no API request for it', async () => {
    const before = sandbox.controls.requestCount();
    const response = await fetch(`${sandbox.checkoutUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(sandbox.controls.requestCount()).toBe(before);
  });

  it('answers 404 for an unknown endpoint and 400 for broken JSON', async () => {
    expect((await call('GET', '/nothing')).status).toBe(404);
    const broken = await call('POST', '/payments', undefined, { raw: '{"amount": ' });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ ok: false, error: 'Request body must be valid JSON' });
  });
});

describe('payment creation: valid requests and response shapes', () => {
  it('cards: nested payment object, redirected, on the acquirer page unless white label', async () => {
    const response = await call('POST', '/payments', { ...card, merchant_reference: 'order-1' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      ok: true,
      payment: { reference: expect.stringMatching(/^svc_pay_/), redirect_url: expect.any(String), status: 'redirected', merchant_reference: 'order-1' },
    });
    expect(response.body.payment.redirect_url.startsWith(`${sandbox.checkoutUrl}/r/`)).toBe(false);
    const white = await call('POST', '/payments', { ...card, white_label: true });
    expect(white.body.payment.redirect_url).toBe(`${sandbox.checkoutUrl}/r/${white.body.payment.reference}`);
  });

  it('open banking: nested payment object', async () => {
    const response = await call('POST', '/payments', sepa);
    expect(response.status).toBe(201);
    expect(Object.keys(response.body.payment).sort()).toEqual(['merchant_reference', 'redirect_url', 'reference', 'status']);
    expect(response.body.payment.merchant_reference).toBeNull();
  });

  it.each([
    ['CHILE', chile],
    ['CHILE cards', { ...chile, method: 'cards', phone: '912345678', phoneCode: '+56' }],
    ['CHILE RUT with K', { ...chile, documentNumber: '10000013-K' }],
    ['PERU', peru],
    ['PERU qr', { ...peru, method: 'qr' }],
    ['MEXICO', mexico],
    ['COLOMBIA', colombia],
    ['ECUADOR', ecuador()],
  ])('LATAM %s: flat { ok, reference, redirect_url }', async (_name, body) => {
    const response = await call('POST', '/payments', body);
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['ok', 'redirect_url', 'reference']);
    expect(response.body.reference).toMatch(/^svc_pay_/);
  });

  it.each([
    ['upi', upi],
    ['pix', pix],
  ])('%s: flat shape, redirect always on the checkout host', async (_name, body) => {
    const response = await call('POST', '/payments', body);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ ok: true, reference: response.body.reference, redirect_url: `${sandbox.checkoutUrl}/r/${response.body.reference}` });
  });

  it('crypto: pending with quote terms, exact amount from a JSON number', async () => {
    const response = await call('POST', '/payments', undefined, { raw: '{"provider":"crypto","amount":10.10,"currency":"USD","email":"a@b.co","firstName":"A","lastName":"B"}' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      ok: true,
      reference: expect.stringMatching(/^svc_pay_/),
      redirect_url: expect.any(String),
      status: 'pending',
      provider: 'crypto',
      crypto: { quote_ttl_minutes: expect.any(Number), underpay_tolerance_pct: expect.any(Number) },
    });
    const payment = await call('GET', `/payments/${response.body.reference}`);
    expect(payment.body.payment.amount).toBe('10.10');
    expect(payment.body.payment.currency).toBe('USD');
  });

  it('crypto: a JSON number a float would round is kept digit for digit', async () => {
    // Number('999999999999999.99') is 1000000000000000: the sandbox must read the source text.
    const response = await call('POST', '/payments', undefined, { raw: '{"provider":"crypto","amount":999999999999999.99,"currency":"EUR","email":"a@b.co","firstName":"A","lastName":"B"}' });
    expect(response.status).toBe(201);
    const payment = await call('GET', `/payments/${response.body.reference}`);
    expect(payment.body.payment.amount).toBe('999999999999999.99');
  });
});

interface RuleCase {
  name: string;
  body: Json;
  status: number;
  error: string | RegExp;
  bodyStatus?: number;
}

const ruleCases: RuleCase[] = [
  // routing
  { name: 'unknown method', body: { ...card, method: 'paypal' }, status: 422, error: /Unknown method "paypal"/ },
  { name: 'unknown solution', body: { ...upi, solution: 'alipay' }, status: 422, error: /Unknown solution "alipay"/ },
  { name: 'unknown solution with a LATAM country', body: { ...peru, solution: 'foo' }, status: 422, error: /Unknown solution "foo"/ },
  { name: 'unknown provider', body: { ...crypto, provider: 'gold' }, status: 422, error: /Unknown provider/ },
  // shared fields
  { name: 'merchant_reference over 128', body: { ...card, merchant_reference: 'x'.repeat(129) }, status: 422, error: /merchant_reference is longer than 128 characters/ },
  { name: 'return_url over http', body: { ...card, return_url: 'http://shop.example/back' }, status: 422, error: 'return_url must be an https:// URL' },
  { name: 'white_label not boolean', body: { ...card, white_label: 'yes' }, status: 422, error: 'white_label must be a boolean' },
  // cards
  { name: 'cards below minimum', body: { ...card, amount: '0.50' }, status: 422, error: 'Amount 0.50 is below the minimum of 1.00 EUR for cards' },
  { name: 'cards above maximum', body: { ...card, amount: '10000.01' }, status: 422, error: 'Amount 10000.01 is above the maximum of 10000.00 EUR for cards' },
  { name: 'cards three decimals', body: { ...card, amount: '10.001' }, status: 422, error: /up to 2 decimals/ },
  { name: 'cards amount as number', body: { ...card, amount: 10 }, status: 422, error: /amount must be a string/ },
  { name: 'cards amount missing', body: without(card, 'amount'), status: 422, error: 'amount is required' },
  { name: 'cards negative amount', body: { ...card, amount: '-5.00' }, status: 422, error: /amount/ },
  { name: 'cards unsupported currency', body: { ...card, currency: 'INR' }, status: 422, error: /currency INR/ },
  { name: 'cards country name', body: { ...card, country: 'Germany' }, status: 422, error: /ISO 3166-1 alpha-2/ },
  { name: 'cards unknown country code', body: { ...card, country: 'XQ' }, status: 422, error: /ISO 3166-1 alpha-2/ },
  { name: 'cards phone not E.164', body: { ...card, phone: '0151 123' }, status: 422, error: /E\.164/ },
  { name: 'cards bad email', body: { ...card, email: 'nope' }, status: 422, error: /not a valid email/ },
  ...['email', 'firstName', 'lastName', 'country', 'address1', 'city', 'zipCode'].map((field) => ({
    name: `cards missing ${field}`,
    body: without(card, field),
    status: 422,
    error: `${field} is required`,
  })),
  // open banking
  { name: 'sepa missing bankCountry', body: without(sepa, 'bankCountry'), status: 422, error: 'bankCountry is required' },
  { name: 'sepa bankCountry DE', body: { ...sepa, bankCountry: 'DE' }, status: 422, error: /bankCountry "DE" is not supported/ },
  { name: 'fps outside GB', body: { ...sepa, method: 'fps', bankCountry: 'NL' }, status: 422, error: 'fps is available for bankCountry GB only' },
  { name: 'sepa wrong currency', body: { ...sepa, currency: 'GBP' }, status: 422, error: /currency GBP/ },
  ...['email', 'firstName', 'lastName', 'country', 'address1', 'city', 'zipCode'].map((field) => ({
    name: `sepa missing ${field}`,
    body: without(sepa, field),
    status: 422,
    error: `${field} is required`,
  })),
  // LATAM
  { name: 'Chile without method', body: without(chile, 'method'), status: 422, error: /method is required for CHILE/ },
  { name: 'Chile method qr', body: { ...chile, method: 'qr' }, status: 422, error: /method "qr" is not available for CHILE/ },
  { name: 'Peru method cards', body: { ...peru, method: 'cards' }, status: 422, error: /method "cards" is not available for PERU/ },
  { name: 'Mexico with method', body: { ...mexico, method: 'bank' }, status: 422, error: /method is not accepted for MEXICO/ },
  { name: 'Chile decimal CLP', body: { ...chile, amount: '5000.50' }, status: 422, error: /whole number for CLP/ },
  { name: 'Colombia decimal COP', body: { ...colombia, amount: '50000.00' }, status: 422, error: /whole number for COP/ },
  { name: 'Chile currency neither Chilean nor an override (A30)', body: { ...chile, currency: 'EUR' }, status: 422, error: /currency EUR/ },
  { name: 'documentType wrong case', body: { ...chile, documentType: 'rut' }, status: 422, error: /documentType "rut" is not accepted for CHILE/ },
  { name: 'Peru documentType RUT', body: { ...peru, documentType: 'RUT' }, status: 422, error: /not accepted for PERU/ },
  { name: 'Peru DNI 7 digits', body: { ...peru, documentNumber: '1234567' }, status: 422, error: 'documentNumber must be a Peru DNI of 8 digits' },
  { name: 'Peru DNI letters', body: { ...peru, documentNumber: '1234567A' }, status: 422, error: 'documentNumber must be a Peru DNI of 8 digits' },
  { name: 'Chile RUT bad form', body: { ...chile, documentNumber: '123456785' }, status: 422, error: /NNNNNNNN-D/ },
  { name: 'Chile RUT bad check digit', body: { ...chile, documentNumber: '12345678-9' }, status: 422, error: /wrong RUT check digit/ },
  { name: 'Chile RUT lower-case k', body: { ...chile, documentNumber: '10000013-k' }, status: 422, error: /NNNNNNNN-D/ },
  { name: 'Chile RUT with dots', body: { ...chile, documentNumber: '12.345.678-5' }, status: 422, error: /NNNNNNNN-D/ },
  { name: 'LATAM successUrl over http', body: { ...peru, successUrl: 'http://shop.example/ok' }, status: 422, error: 'successUrl must be an https:// URL' },
  { name: 'Colombia redirectUrl over http', body: { ...colombia, redirectUrl: 'http://shop.example/back' }, status: 422, error: 'redirectUrl must be an https:// URL' },
  { name: 'Chile RUT K where 5 is due', body: { ...chile, documentNumber: '12345678-K' }, status: 422, error: /wrong RUT check digit/ },
  { name: 'Chile cards without phone', body: { ...chile, method: 'cards', phoneCode: '+56' }, status: 422, error: 'phone is required for CHILE cards' },
  { name: 'Chile cards without phoneCode', body: { ...chile, method: 'cards', phone: '912345678' }, status: 422, error: 'phoneCode is required for CHILE cards' },
  { name: 'Colombia without phone', body: without(colombia, 'phone'), status: 422, error: 'phone is required for COLOMBIA' },
  { name: 'Colombia without phoneCode', body: without(colombia, 'phoneCode'), status: 422, error: 'phoneCode is required for COLOMBIA' },
  { name: 'Colombia bad phoneCode', body: { ...colombia, phoneCode: '57' }, status: 422, error: /phoneCode must look like \+57/ },
  { name: 'Ecuador with phone', body: { ...ecuador(), phone: '0991234567' }, status: 422, error: /not accepted for ECUADOR/ },
  { name: 'Ecuador with phoneCode', body: { ...ecuador(), phoneCode: '+593' }, status: 422, error: /not accepted for ECUADOR/ },
  { name: 'Ecuador without expiresAt', body: without(ecuador(), 'expiresAt'), status: 422, error: 'expiresAt is required for ECUADOR' },
  { name: 'Ecuador expiresAt in 1 minute', body: { ...ecuador(), expiresAt: new Date(Date.now() + 60_000).toISOString() }, status: 422, error: /5 minutes to 72 hours in the future/ },
  { name: 'Ecuador expiresAt in 4 days', body: { ...ecuador(), expiresAt: new Date(Date.now() + 96 * 3600_000).toISOString() }, status: 422, error: /5 minutes to 72 hours in the future/ },
  { name: 'Ecuador expiresAt not ISO', body: { ...ecuador(), expiresAt: 'tomorrow' }, status: 422, error: /ISO 8601/ },
  ...['email', 'firstName', 'lastName', 'documentType', 'documentNumber'].map((field) => ({
    name: `Mexico missing ${field}`,
    body: without(mexico, field),
    status: 422,
    error: `${field} is required`,
  })),
  // UPI and PIX: the spec's own texts
  { name: 'UPI without personalId', body: without(upi, 'personalId'), status: 422, error: "personalId is required: the payer's UPI ID" },
  { name: 'PIX without personalId', body: without(pix, 'personalId'), status: 422, error: "personalId is required: the payer's CPF, matching the person paying" },
  { name: 'UPI without phone', body: without(upi, 'phone'), status: 422, error: 'phone is required for this solution' },
  { name: 'PIX without phone', body: without(pix, 'phone'), status: 422, error: 'phone is required for this solution' },
  { name: 'UPI in USD', body: { ...upi, currency: 'USD' }, status: 422, error: 'UPI settles INR only' },
  { name: 'PIX in EUR', body: { ...pix, currency: 'EUR' }, status: 422, error: 'PIX settles BRL only' },
  { name: 'UPI below band', body: { ...upi, amount: '99.99' }, status: 422, error: 'Enter an amount between 100 and 50000 INR' },
  { name: 'UPI above band', body: { ...upi, amount: '50000.01' }, status: 422, error: 'Enter an amount between 100 and 50000 INR' },
  { name: 'PIX below band', body: { ...pix, amount: '9.99' }, status: 422, error: 'Enter an amount between 10 and 15000 BRL' },
  { name: 'PIX above band', body: { ...pix, amount: '15000.01' }, status: 422, error: 'Enter an amount between 10 and 15000 BRL' },
  { name: 'UPI id without handle', body: { ...upi, personalId: 'ada' }, status: 422, error: /UPI ID such as name@bank/ },
  { name: 'PIX CPF bad check digits', body: { ...pix, personalId: '52998224724' }, status: 422, error: /CPF/ },
  { name: 'PIX CPF 10 digits', body: { ...pix, personalId: '5299822472' }, status: 422, error: /CPF/ },
  { name: 'PIX CPF all same digit', body: { ...pix, personalId: '11111111111' }, status: 422, error: /CPF/ },
  // Spec (UPI and PIX): "Brazil: the payer's CPF, 11 digits": the digits alone, not the printed form.
  { name: 'PIX CPF with dots and dash', body: { ...pix, personalId: '529.982.247-25' }, status: 422, error: /CPF: 11 digits/ },
  { name: 'INR without solution is not inferred as UPI', body: { ...card, currency: 'INR', amount: '500.00' }, status: 422, error: /currency INR/ },
  // crypto: status also in the body
  { name: 'crypto below minimum', body: { ...crypto, amount: '5.00' }, status: 422, error: 'Amount 5.00 is below the minimum of 10.00 EUR', bodyStatus: 422 },
  { name: 'crypto below minimum as number', body: { ...crypto, amount: 9.99 }, status: 422, error: 'Amount 9.99 is below the minimum of 10.00 EUR', bodyStatus: 422 },
  { name: 'crypto GBP', body: { ...crypto, currency: 'GBP' }, status: 422, error: /currency GBP: crypto supports EUR and USD/, bodyStatus: 422 },
  { name: 'crypto without currency', body: without(crypto, 'currency'), status: 422, error: /currency is required/, bodyStatus: 422 },
  { name: 'crypto exponent number', body: { ...crypto, amount: 1e21 }, status: 422, error: /amount/, bodyStatus: 422 },
  { name: 'crypto missing email', body: without(crypto, 'email'), status: 422, error: 'email is required', bodyStatus: 422 },
];

describe('payment creation: rail rules', () => {
  it.each(ruleCases)('$name → $status', async ({ body, status, error, bodyStatus }) => {
    // A refused request creates no payment, so nothing can ever be announced about it; events of
    // earlier tests' payments may still arrive meanwhile (their timers run at timeScale 0.001).
    const before = sandbox.controls.records().payments.length;
    const response = await call('POST', '/payments', body);
    expect(response.status).toBe(status);
    expect(response.body.ok).toBe(false);
    if (typeof error === 'string') expect(response.body.error).toBe(error);
    else expect(response.body.error).toMatch(error);
    if (bodyStatus !== undefined) expect(response.body.status).toBe(bodyStatus);
    else expect(response.body).not.toHaveProperty('status');
    expect(sandbox.controls.records().payments.length).toBe(before);
  });

  it('a crypto amount sent as 10.123 is rejected rather than rounded', async () => {
    const response = await call('POST', '/payments', undefined, { raw: '{"provider":"crypto","amount":10.123,"currency":"EUR","email":"a@b.co","firstName":"A","lastName":"B"}' });
    expect(response.status).toBe(422);
    expect(response.body.error).toContain('10.123');
  });

  it('a disabled rail answers 403 (crypto with status in the body)', async () => {
    sandbox.controls.setAccount(OTHER_KEY, { disabledRails: ['crypto', 'upi'] });
    const cryptoResponse = await call('POST', '/payments', crypto, { key: OTHER_KEY });
    expect(cryptoResponse.status).toBe(403);
    expect(cryptoResponse.body).toEqual({ ok: false, error: 'This payment method is currently disabled', status: 403 });
    const upiResponse = await call('POST', '/payments', upi, { key: OTHER_KEY });
    expect(upiResponse.body).toEqual({ ok: false, error: 'This payment method is not available right now' });
    expect((await call('POST', '/payments', card, { key: OTHER_KEY })).status).toBe(201);
    sandbox.controls.setAccount(OTHER_KEY, { disabledRails: [] });
    expect((await call('POST', '/payments', crypto, { key: OTHER_KEY })).status).toBe(201);
  });
});

describe('payment records', () => {
  it('GET returns every field of the payment table, with exact fee and net', async () => {
    const created = await call('POST', '/payments', { ...card, amount: '100.00', merchant_reference: 'order-fee', metadata: { cart: 7 } });
    await sandbox.controls.idle();
    const response = await call('GET', `/payments/${created.body.payment.reference}`);
    expect(response.status).toBe(200);
    expect(response.body.ok).toBe(true);
    const payment = response.body.payment;
    for (const field of [
      'reference', 'status', 'amount', 'fee', 'net', 'currency', 'method', 'settlement', 'customer_email', 'customer_name', 'merchant_reference',
      'decline_reason', 'card_bin', 'card_last4', 'card_scheme', 'mid_code', 'approved_at', 'settlement_date', 'refund_status', 'created_at', 'updated_at',
    ]) {
      expect(payment).toHaveProperty(field);
    }
    expect(payment).toMatchObject({
      status: 'approved',
      amount: '100.00',
      fee: '2.90',
      net: '97.10',
      currency: 'EUR',
      method: 'card',
      settlement: 'settled',
      customer_email: 'player@example.com',
      customer_name: 'Ada Lovelace',
      merchant_reference: 'order-fee',
      decline_reason: null,
      card_bin: '424242',
      card_last4: '4242',
      card_scheme: 'VISA',
      refund_status: null,
      metadata: { cart: 7 },
    });
    expect(payment.approved_at).toEqual(expect.any(String));
    expect(payment.settlement_date).toBe(payment.approved_at.slice(0, 10));
  });

  it.each([
    ['10.00', 'EUR', '0.29', '9.71'],
    ['10.50', 'EUR', '0.30', '10.20'], // 0.3045 rounds half-up to 0.30
    ['1.00', 'EUR', '0.03', '0.97'], // 0.029 → 0.03
    ['17.24', 'EUR', '0.50', '16.74'], // 0.49996 → 0.50
    ['5000', 'CLP', '145', '4855'],
    ['50000', 'COP', '1450', '48550'],
    ['50001', 'COP', '1450', '48551'], // 1450.029 → whole pesos, though ISO 4217 gives COP centavos
  ])('fee of %s %s is %s, net %s', async (amount, currency, fee, net) => {
    const body = currency === 'CLP' ? { ...chile, amount } : currency === 'COP' ? { ...colombia, amount } : { ...card, amount };
    const created = await call('POST', '/payments', body);
    const reference = created.body.reference ?? created.body.payment.reference;
    const payment = (await call('GET', `/payments/${reference}`)).body.payment;
    expect(payment).toMatchObject({ amount, currency, fee, net });
  });

  it('an amount ending in .13 is declined; a test payment has card details only when settled', async () => {
    const created = await call('POST', '/payments', { ...card, amount: '10.13' });
    await sandbox.controls.idle();
    const payment = (await call('GET', `/payments/${created.body.payment.reference}`)).body.payment;
    expect(payment).toMatchObject({ status: 'declined', decline_reason: 'declined', card_bin: null, card_last4: null, approved_at: null, settlement_date: null });
    const events = sandbox.controls.events(TEST_KEY).filter((event) => event.data.reference === payment.reference);
    expect(events.map((event) => event.event)).toEqual(['payment.pending', 'payment.declined']);
    expect(events.every((event) => event.livemode === false)).toBe(true);
  });

  it('crypto emits only payment.approved (no payment.pending)', async () => {
    const created = await call('POST', '/payments', crypto);
    await sandbox.controls.idle();
    const events = sandbox.controls.events(TEST_KEY).filter((event) => event.data.reference === created.body.reference);
    expect(events.map((event) => event.event)).toEqual(['payment.approved']);
  });

  it('a live key produces livemode events; another key cannot read the payment', async () => {
    const created = await call('POST', '/payments', card, { key: LIVE_KEY });
    await sandbox.controls.idle();
    const reference = created.body.payment.reference;
    expect(sandbox.controls.events(LIVE_KEY).filter((event) => event.data.reference === reference).every((event) => event.livemode)).toBe(true);
    expect((await call('GET', `/payments/${reference}`, undefined, { key: OTHER_KEY })).status).toBe(404);
    expect((await call('GET', '/payments/svc_pay_unknown')).status).toBe(404);
  });
});

describe('idempotency', () => {
  it('the same body key returns the original payment, once', async () => {
    const body = { ...card, idempotency_key: `idem-${Date.now()}` };
    const first = await call('POST', '/payments', body);
    const second = await call('POST', '/payments', body);
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    await sandbox.controls.idle();
    const events = sandbox.controls.events(TEST_KEY).filter((event) => event.data.reference === first.body.payment.reference);
    expect(events.filter((event) => event.event === 'payment.approved')).toHaveLength(1);
  });

  it('the Idempotency-Key header works the same, per rail shape, and is scoped to the key', async () => {
    const headers = { 'idempotency-key': `hdr-${Date.now()}` };
    const first = await call('POST', '/payments', pix, { headers });
    const second = await call('POST', '/payments', pix, { headers });
    expect(second.body).toEqual(first.body);
    const other = await call('POST', '/payments', pix, { headers, key: OTHER_KEY });
    expect(other.status).toBe(201);
    expect(other.body.reference).not.toBe(first.body.reference);
  });

  it('a rejected request does not burn its key', async () => {
    const key = `fix-${Date.now()}`;
    const bad = await call('POST', '/payments', { ...card, amount: '0.10', idempotency_key: key });
    expect(bad.status).toBe(422);
    const good = await call('POST', '/payments', { ...card, idempotency_key: key });
    expect(good.status).toBe(201);
  });
});

describe('paging', () => {
  it('lists newest first, only the calling key, with a before cursor', async () => {
    const key = 'svc_test_paging';
    sandbox.controls.addAccount({ apiKey: key, webhookSecret: 'x' });
    const references: string[] = [];
    for (let i = 0; i < 5; i += 1) references.push((await call('POST', '/payments', card, { key })).body.payment.reference);
    await call('POST', '/payments', card, { key: OTHER_KEY });
    const firstPage = await call('GET', '/payments?limit=2', undefined, { key });
    expect(firstPage.status).toBe(200);
    expect(firstPage.body.data.map((payment: Json) => payment.reference)).toEqual([references[4], references[3]]);
    expect(firstPage.body.paging).toEqual({ limit: 2, next_before: references[3] });
    const secondPage = await call('GET', `/payments?limit=2&before=${references[3]}`, undefined, { key });
    expect(secondPage.body.data.map((payment: Json) => payment.reference)).toEqual([references[2], references[1]]);
    const lastPage = await call('GET', `/payments?limit=2&before=${references[1]}`, undefined, { key });
    expect(lastPage.body.data.map((payment: Json) => payment.reference)).toEqual([references[0]]);
    expect(lastPage.body.paging.next_before).toBeNull();
    const all = await call('GET', '/payments', undefined, { key });
    expect(all.body.paging.limit).toBe(50);
    expect(all.body.data).toHaveLength(5);
    expect(all.body.data[0]).toHaveProperty('fee');
  });

  it.each(['0', '201', 'abc', '1.5'])('limit=%s is a 422', async (limit) => {
    const response = await call('GET', `/payments?limit=${limit}`);
    expect(response.status).toBe(422);
    expect(response.body.error).toBe('limit must be an integer from 1 to 200');
  });
});

describe('checkout sessions and hosted pages', () => {
  it('creates a session and validates its fields', async () => {
    const created = await call('POST', '/checkout-sessions', { amount: '12.50', return_url: 'https://shop.example/back', merchant_reference: 'order-cs' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ ok: true, id: expect.stringMatching(/^cs_/), url: `${sandbox.checkoutUrl}/c/${created.body.id}`, expires_in: 3600 });
    const cases: Array<[Json, RegExp]> = [
      [{ amount: '12.50', expires_in: 299 }, /expires_in must be an integer from 300 to 86400/],
      [{ amount: '12.50', expires_in: 86401 }, /expires_in/],
      [{ amount: '12.50', expires_in: 600.5 }, /expires_in/],
      [{ amount: '12.505' }, /up to 2 decimals/],
      [{}, /amount is required/],
      [{ amount: '12.50', return_url: 'http://shop.example' }, /https/],
      [{ amount: '12.50', method: 'fps', bankCountry: 'MT' }, /GB only/],
      [{ amount: '12.50', currency: 'XYZ' }, /currency XYZ/],
      [{ amount: '12.50', country: 'Spain' }, /alpha-2/],
    ];
    for (const [body, message] of cases) {
      const response = await call('POST', '/checkout-sessions', body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.error).toMatch(message);
    }
    expect((await call('POST', '/checkout-sessions', { amount: '12.50', expires_in: 300, method: 'sepa', bankCountry: 'NL', email: 'a@b.co' })).body.expires_in).toBe(300);
  });

  it('the checkout page has Pay and Decline, no external hosts, and Pay redirects with ?ref=&status=', async () => {
    const created = await call('POST', '/checkout-sessions', { amount: '12.50', return_url: 'https://shop.example/back?x=1', merchant_reference: 'order-page' });
    const page = await fetch(created.body.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('12.50 EUR');
    expect(html).toMatch(/>Pay</);
    expect(html).toMatch(/>Decline</);
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/<script/i);
    // No payment exists until the player acts, even with auto-completion on.
    await sandbox.controls.idle();
    expect(sandbox.controls.events(TEST_KEY).filter((event) => event.data.merchant_reference === 'order-page')).toHaveLength(0);

    const paid = await fetch(`${created.body.url}/pay`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'method=cards' });
    expect(paid.status).toBe(303);
    const location = new URL(paid.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe('https://shop.example/back');
    expect(location.searchParams.get('x')).toBe('1');
    expect(location.searchParams.get('status')).toBe('approved');
    const reference = location.searchParams.get('ref') ?? '';
    expect(reference).toMatch(/^svc_pay_/);
    await sandbox.controls.idle();
    // Spec: a session created with a test key carries no test flag.
    const events = sandbox.controls.events(TEST_KEY).filter((event) => event.data.reference === reference);
    expect(events.map((event) => [event.event, event.livemode])).toEqual([
      ['payment.pending', true],
      ['payment.approved', true],
    ]);
    expect(events[1]?.data).toEqual({ reference, merchant_reference: 'order-page', status: 'approved', amount: '12.50', currency: 'EUR' });
    expect(sandbox.controls.payment(reference)?.livemode).toBe(true);
    // Revisiting the used link shows the result, not a second payment.
    expect(await (await fetch(created.body.url)).text()).toContain('approved');
  });

  it('Decline on the checkout page, and complete() through the controls', async () => {
    const declined = await call('POST', '/checkout-sessions', { amount: '8.00', return_url: 'https://shop.example/r' });
    const response = await fetch(`${declined.body.url}/decline`, { method: 'POST', redirect: 'manual' });
    expect(new URL(response.headers.get('location') ?? '').searchParams.get('status')).toBe('declined');
    const viaControls = await call('POST', '/checkout-sessions', { amount: '9.00' });
    const reference = sandbox.controls.complete(viaControls.body.id, 'approved');
    expect((await call('GET', `/payments/${reference}`)).body.payment.status).toBe('approved');
  });

  it('an expired session shows an expired page and takes no payment', async () => {
    // A session expires when the wall clock passes its scaled lifetime (300 s at timeScale 0.001
    // is 300 ms): the test moves a fake Date there instead of waiting.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const opened = Date.now();
      const created = await call('POST', '/checkout-sessions', { amount: '8.00', expires_in: 300 });
      vi.setSystemTime(opened + 299);
      expect((await fetch(created.body.url)).status).toBe(200);
      vi.setSystemTime(opened + 300);
      expect((await fetch(created.body.url)).status).toBe(410);
      expect((await fetch(`${created.body.url}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(410);
      expect(() => sandbox.controls.complete(created.body.id, 'approved')).toThrow(/expired/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('with auto-completion off a direct payment waits for the player on /r/<reference>', async () => {
    sandbox.controls.setAutoComplete(false);
    try {
      const created = await call('POST', '/payments', { ...upi, return_url: 'https://shop.example/upi' });
      await sandbox.controls.idle();
      expect((await call('GET', `/payments/${created.body.reference}`)).body.payment.status).toBe('redirected');
      const page = await fetch(created.body.redirect_url);
      const html = await page.text();
      expect(html).toMatch(/>Pay</);
      expect(html).toMatch(/>Decline</);
      expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//i);
      const paid = await fetch(`${created.body.redirect_url}/pay`, { method: 'POST', redirect: 'manual' });
      expect(paid.headers.get('location')).toBe(`https://shop.example/upi?ref=${created.body.reference}&status=approved`);
      expect((await call('GET', `/payments/${created.body.reference}`)).body.payment.status).toBe('approved');
      // A second click changes nothing.
      const again = await fetch(`${created.body.redirect_url}/decline`, { method: 'POST', redirect: 'manual' });
      expect(again.headers.get('location')).toContain('status=approved');

      const acquirer = await call('POST', '/payments', { ...card, amount: '20.13' });
      const acquirerPage = await fetch(acquirer.body.payment.redirect_url);
      expect(acquirerPage.status).toBe(200);
      const declined = await fetch(`${acquirer.body.payment.redirect_url}/decline`, { method: 'POST', redirect: 'manual' });
      expect(declined.headers.get('location')).toBe(`${sandbox.checkoutUrl}/result?ref=${acquirer.body.payment.reference}&status=declined`);
      const result = await fetch(declined.headers.get('location') ?? '');
      expect(await result.text()).toContain('declined');
    } finally {
      sandbox.controls.setAutoComplete(true);
    }
  });
});

describe('card session and settle', () => {
  it('returns widget fields while open, settles once, then reports settled', async () => {
    sandbox.controls.setAutoComplete(false);
    let reference: string;
    try {
      reference = (await call('POST', '/payments', { ...card, merchant_reference: 'order-settle' })).body.payment.reference;
    } finally {
      sandbox.controls.setAutoComplete(true);
    }
    const open = await call('GET', `/payments/${reference}/card-session`);
    expect(open.status).toBe(200);
    expect(open.body).toEqual({
      ok: true,
      settled: false,
      status: 'redirected',
      amount: '10.00',
      currency: 'EUR',
      script_url: expect.stringContaining(sandbox.checkoutUrl),
      integrity: expect.stringMatching(/^sha384-/),
      brands: 'VISA MASTER',
    });
    const script = await fetch(open.body.script_url);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(await script.text()).toContain('paymentWidgets');

    // Before the shopper submits a card the processor has no outcome: the payment stays open.
    const early = await call('POST', `/payments/${reference}/settle`);
    expect(early.body).toMatchObject({ ok: true, settled: false, changed: false, payment: { status: 'redirected' } });

    // The loader frames the processor's fields; the card goes to the processor, the shopper back to the merchant.
    const merchantAction = 'https://shop.example/return/opaque-order-token';
    const form = await loadCardForm(open.body.script_url, merchantAction, ['VISA', 'MASTER']);
    expect(form.fieldsUrl.startsWith(`${sandbox.checkoutUrl}/card/`)).toBe(true);
    const submission = await submitCard(form.fieldsUrl);
    expect(submission.status).toBe(303);
    expect(submission.location).toBe(`${merchantAction}?ref=${reference}&status=approved`);

    const first = await call('POST', `/payments/${reference}/settle`);
    expect(first.body).toEqual({
      ok: true,
      settled: true,
      changed: true,
      payment: { reference, status: 'approved', amount: '10.00', currency: 'EUR', merchant_reference: 'order-settle', decline_reason: null },
    });
    const second = await call('POST', `/payments/${reference}/settle`);
    expect(second.body.changed).toBe(false);
    expect(second.body.settled).toBe(true);
    await sandbox.controls.idle();
    const events = sandbox.controls.events(TEST_KEY).filter((event) => event.data.reference === reference);
    expect(events.map((event) => event.event)).toEqual(['payment.approved']);

    const closed = await call('GET', `/payments/${reference}/card-session`);
    expect(closed.body).toEqual({ ok: true, settled: true, status: 'approved', amount: '10.00', currency: 'EUR' });
  });

  it('settles a .13 card payment as declined with a reason; rejects non-card payments', async () => {
    sandbox.controls.setAutoComplete(false);
    let reference: string;
    let upiReference: string;
    try {
      reference = (await call('POST', '/payments', { ...card, amount: '30.13' })).body.payment.reference;
      upiReference = (await call('POST', '/payments', upi)).body.reference;
    } finally {
      sandbox.controls.setAutoComplete(true);
    }
    const session = await call('GET', `/payments/${reference}/card-session`);
    await submitCard((await loadCardForm(session.body.script_url, 'https://shop.example/return', ['VISA'])).fieldsUrl, TEST_CARD);
    const settled = await call('POST', `/payments/${reference}/settle`);
    expect(settled.body.payment).toMatchObject({ status: 'declined', decline_reason: 'declined' });
    expect((await call('POST', `/payments/${upiReference}/settle`)).status).toBe(422);
    expect((await call('GET', `/payments/${upiReference}/card-session`)).status).toBe(422);
    expect((await call('POST', '/payments/svc_pay_nope/settle')).status).toBe(404);
  });
});

describe('refunds', () => {
  async function approvedPayment(amount = '100.00'): Promise<string> {
    const reference = (await call('POST', '/payments', { ...card, amount, merchant_reference: 'order-refund' })).body.payment.reference as string;
    await sandbox.controls.idle();
    return reference;
  }

  it('a full refund makes the payment refunded', async () => {
    const reference = await approvedPayment();
    const response = await call('POST', '/refunds', { reference, reason: 'customer asked', idempotency_key: `rf-${reference}` });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      ok: true,
      refund: { id: expect.stringMatching(/^rf_/), reference, amount: '100.00', currency: 'EUR', status: 'pending', reason: 'customer asked', created_at: expect.any(String) },
    });
    const replay = await call('POST', '/refunds', { reference, idempotency_key: `rf-${reference}` });
    expect(replay.body).toEqual(response.body);
    await sandbox.controls.idle();
    const payment = (await call('GET', `/payments/${reference}`)).body.payment;
    expect(payment).toMatchObject({ status: 'refunded', refund_status: 'refunded' });
    const events = sandbox.controls.events(TEST_KEY).filter((event) => event.data.payment_reference === reference);
    expect(events.map((event) => [event.event, event.data.status])).toEqual([
      ['refund.requested', 'pending'],
      ['refund.approved', 'approved'],
    ]);
    expect(events[0]?.data).toEqual({ reference: response.body.refund.id, payment_reference: reference, merchant_reference: 'order-refund', status: 'pending', amount: '100.00', currency: 'EUR' });
    const again = await call('POST', '/refunds', { reference, amount: '1.00' });
    expect(again.status).toBe(422);
    expect(again.body.error).toBe(`Refund amount 1.00 EUR exceeds the refundable amount 0.00 EUR of payment ${reference}`);
  });

  it('partial refunds never exceed the amount; a payment refunded in part still takes refunds up to the rest', async () => {
    const reference = await approvedPayment();
    expect((await call('POST', '/refunds', { reference, amount: '60.00' })).status).toBe(201);
    const over = await call('POST', '/refunds', { reference, amount: '40.01' });
    expect(over.status).toBe(422);
    expect(over.body.error).toBe(`Refund amount 40.01 EUR exceeds the refundable amount 40.00 EUR of payment ${reference}`);
    await sandbox.controls.idle();
    // Spec: `refunded` is "returned, in full or in part"; refund_status `refunded` only once reversed in full.
    expect((await call('GET', `/payments/${reference}`)).body.payment).toMatchObject({ status: 'refunded', refund_status: 'approved' });
    const beyond = await call('POST', '/refunds', { reference, amount: '40.01' });
    expect(beyond.status).toBe(422);
    expect(beyond.body.error).toBe(`Refund amount 40.01 EUR exceeds the refundable amount 40.00 EUR of payment ${reference}`);
    expect((await call('POST', '/refunds', { reference, amount: '40.00' })).status).toBe(201);
    await sandbox.controls.idle();
    expect((await call('GET', `/payments/${reference}`)).body.payment).toMatchObject({ status: 'refunded', refund_status: 'refunded' });
  });

  it('a refund whose minor amount ends in 13 is rejected', async () => {
    const reference = await approvedPayment();
    expect((await call('POST', '/refunds', { reference, amount: '5.13' })).status).toBe(201);
    await sandbox.controls.idle();
    expect((await call('GET', `/payments/${reference}`)).body.payment).toMatchObject({ status: 'approved', refund_status: 'rejected' });
    const events = sandbox.controls.events(TEST_KEY).filter((event) => event.data.payment_reference === reference);
    expect(events.map((event) => event.event)).toEqual(['refund.requested', 'refund.rejected']);
    // The rejected amount is free again.
    expect((await call('POST', '/refunds', { reference, amount: '100.00' })).status).toBe(201);
  });

  it('counts a COP refund in whole pesos: one ending in 13 pesos is rejected, and its amounts are integers', async () => {
    const reference = (await call('POST', '/payments', { ...colombia, amount: '50000' })).body.reference as string;
    sandbox.controls.complete(reference, 'approved');
    await sandbox.controls.idle();
    const refund = await call('POST', '/refunds', { reference, amount: '5013' });
    expect(refund.status).toBe(201);
    expect(refund.body.refund).toMatchObject({ amount: '5013', currency: 'COP' });
    expect((await call('POST', '/refunds', { reference, amount: '100.50' })).body.error).toMatch(/whole number for COP/);
    await sandbox.controls.idle();
    expect((await call('GET', `/payments/${reference}`)).body.payment).toMatchObject({ amount: '50000', currency: 'COP', refund_status: 'rejected' });
    const events = sandbox.controls.events(TEST_KEY).filter((event) => event.data.payment_reference === reference);
    expect(events.map((event) => [event.event, event.data.amount])).toEqual([['refund.requested', '5013'], ['refund.rejected', '5013']]);
  });

  it('rejects refunds of unknown, foreign or unapproved payments and bad amounts', async () => {
    expect((await call('POST', '/refunds', {})).body.error).toBe('reference is required');
    expect((await call('POST', '/refunds', { reference: 'svc_pay_nope' })).status).toBe(404);
    const reference = await approvedPayment();
    expect((await call('POST', '/refunds', { reference }, { key: OTHER_KEY })).status).toBe(404);
    const declined = (await call('POST', '/payments', { ...card, amount: '10.13' })).body.payment.reference;
    await sandbox.controls.idle();
    const response = await call('POST', '/refunds', { reference: declined });
    expect(response.status).toBe(422);
    expect(response.body.error).toBe(`Payment ${declined} is declined; only approved payments can be refunded`);
    expect((await call('POST', '/refunds', { reference, amount: '1.234' })).status).toBe(422);
    expect((await call('POST', '/refunds', { reference, amount: '0.00' })).status).toBe(422);
  });
});

describe('payouts', () => {
  const beneficiary = { name: 'Ana Pérez', document_type: 'RUT', document_number: '12345678-5', account_number: '000123456', bank_code: '012', account_type: 'CHECKING' };
  const payout = { country: 'CHILE', amount: '25000', beneficiary, merchant_reference: 'wd-1' };

  it('creates a pending payout, then pays it, and lists it newest first', async () => {
    const response = await call('POST', '/payouts', payout);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      ok: true,
      payout: { reference: expect.stringMatching(/^svc_po_/), status: 'pending', amount: '25000', currency: 'CLP', country: 'CHILE', merchant_reference: 'wd-1' },
    });
    await sandbox.controls.idle();
    const reference = response.body.payout.reference;
    const events = sandbox.controls.events(TEST_KEY).filter((event) => event.data.reference === reference);
    expect(events.map((event) => [event.event, event.data.status])).toEqual([['payout.paid', 'paid']]);
    expect(events[0]?.data).toEqual({ reference, merchant_reference: 'wd-1', status: 'paid', amount: '25000', currency: 'CLP' });
    const second = (await call('POST', '/payouts', { ...payout, merchant_reference: 'wd-2' })).body.payout.reference;
    const list = await call('GET', '/payouts?limit=1');
    expect(list.body.data.map((item: Json) => item.reference)).toEqual([second]);
    expect(list.body.paging).toEqual({ limit: 1, next_before: second });
    const next = await call('GET', `/payouts?limit=1&before=${second}`);
    expect(next.body.data[0]).toMatchObject({ reference, status: 'paid' });
    expect((await call('GET', '/payouts', undefined, { key: OTHER_KEY })).body.data.some((item: Json) => item.reference === reference)).toBe(false);
  });

  it.each([
    ['CHILE', {}, ['name', 'document_type', 'document_number', 'account_number', 'bank_code', 'account_type']],
    ['PERU', { ...beneficiary, document_type: 'DNI' }, ['cci']],
    ['MEXICO', { name: 'Ana', account_number: '012345678901234567' }, ['document_type', 'document_number']],
    ['COLOMBIA', { ...beneficiary, bank_code: '', account_type: undefined }, ['bank_code', 'account_type']],
  ])('%s: 422 lists the missing beneficiary fields', async (country, given, missing) => {
    const amount = country === 'COLOMBIA' || country === 'CHILE' ? '100000' : '100.00';
    const response = await call('POST', '/payouts', { country, amount, beneficiary: given });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ ok: false, error: `Missing beneficiary fields for ${country}: ${missing.join(', ')}`, missing });
  });

  it('validates country, amount, CLABE and the beneficiary object', async () => {
    const noBeneficiary = await call('POST', '/payouts', { country: 'ECUADOR', amount: '10.00' });
    expect(noBeneficiary.status).toBe(422);
    expect(noBeneficiary.body.missing).toEqual(['name', 'document_type', 'document_number', 'account_number', 'bank_code', 'account_type']);
    expect((await call('POST', '/payouts', { ...payout, country: 'BRAZIL' })).body.error).toMatch(/not supported/);
    expect((await call('POST', '/payouts', { ...payout, amount: '25000.5' })).body.error).toMatch(/whole number for CLP/);
    expect((await call('POST', '/payouts', { ...payout, currency: 'USD' })).body.error).toMatch(/currency USD/);
    expect((await call('POST', '/payouts', { ...payout, merchant_reference: 'x'.repeat(129) })).status).toBe(422);
    const clabe = await call('POST', '/payouts', { country: 'MEXICO', amount: '100.00', beneficiary: { name: 'A', document_type: 'RFC', document_number: 'X', account_number: '123' } });
    expect(clabe.body.error).toMatch(/18-digit CLABE/);
    const documentType = await call('POST', '/payouts', { ...payout, beneficiary: { ...beneficiary, document_type: 'rut' } });
    expect(documentType.status).toBe(422);
    expect(documentType.body.error).toMatch(/document_type "rut" is not accepted for CHILE/);
  });

  it('an account number ending in 13 bounces; one ending in 31 is paid then reverted', async () => {
    const bounced = (await call('POST', '/payouts', { ...payout, beneficiary: { ...beneficiary, account_number: '99913' } })).body.payout.reference;
    const reverted = (await call('POST', '/payouts', { ...payout, beneficiary: { ...beneficiary, account_number: '99931' } })).body.payout.reference;
    await sandbox.controls.idle();
    const names = (reference: string): string[] => sandbox.controls.events(TEST_KEY).filter((event) => event.data.reference === reference).map((event) => event.event);
    expect(names(bounced)).toEqual(['payout.bounced']);
    expect(names(reverted)).toEqual(['payout.paid', 'payout.reverted']);
    expect(sandbox.controls.payout(bounced)?.status).toBe('bounced');
    expect(sandbox.controls.payout(reverted)?.status).toBe('reverted');
  });

  it('idempotency: same key, same payout', async () => {
    const headers = { 'idempotency-key': `po-${Date.now()}` };
    const first = await call('POST', '/payouts', payout, { headers });
    const second = await call('POST', '/payouts', payout, { headers });
    expect(second.body).toEqual(first.body);
  });

  it('a live key without live payouts gets 503; with them, a live payout', async () => {
    const refused = await call('POST', '/payouts', payout, { key: LIVE_KEY });
    expect(refused.status).toBe(503);
    expect(refused.body.ok).toBe(false);
    const accepted = await call('POST', '/payouts', payout, { key: LIVE_ENABLED_KEY });
    expect(accepted.status).toBe(201);
    await sandbox.controls.idle();
    const event = sandbox.controls.events(LIVE_ENABLED_KEY).find((item) => item.data.reference === accepted.body.payout.reference);
    expect(event?.livemode).toBe(true);
    const testList = await call('GET', '/payouts');
    expect(testList.body.data.some((item: Json) => item.reference === accepted.body.payout.reference)).toBe(false);
    const liveList = await call('GET', '/payouts', undefined, { key: LIVE_ENABLED_KEY });
    expect(liveList.body.data.map((item: Json) => item.reference)).toEqual([accepted.body.payout.reference]);
  });
});

describe('chargebacks and request counting', () => {
  it('openChargeback emits chargeback.opened; UPI payments cannot be disputed', async () => {
    const reference = (await call('POST', '/payments', { ...card, merchant_reference: 'order-cb' })).body.payment.reference;
    await sandbox.controls.idle();
    sandbox.controls.openChargeback(reference);
    const event = sandbox.controls.events(TEST_KEY).find((item) => item.event === 'chargeback.opened' && item.data.reference === reference);
    expect(event?.data).toEqual({ reference, merchant_reference: 'order-cb', status: 'opened', amount: '10.00', currency: 'EUR' });
    const upiReference = (await call('POST', '/payments', upi)).body.reference;
    await sandbox.controls.idle();
    expect(() => sandbox.controls.openChargeback(upiReference)).toThrow(/no chargebacks/);
  });

  it('requestCount counts API requests by path prefix', async () => {
    const before = sandbox.controls.requestCount('/refunds');
    await call('POST', '/refunds', {});
    expect(sandbox.controls.requestCount('/refunds')).toBe(before + 1);
    expect(sandbox.controls.requestCount('/v1/refunds')).toBe(before + 1);
  });
});
