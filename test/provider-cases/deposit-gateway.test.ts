// Runs every case of deposit-gateway.cases.ts twice: through the adapter's request validation, and
// as a real HTTP request to the deposit gateway sandbox. Either verdict differing from the table's
// fails, so the adapter and the sandbox cannot drift from the spec, or from each other.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Money } from '../../src/lib/money.js';
import { BENEFICIARY_FIELD_NAMES, defaultCurrency, validateDepositRequest, validatePayoutRequest, type DepositToValidate, type PayoutToValidate } from '../../src/providers/deposit-gateway/validation.js';
import { JsonNumber, stringifyJsonExact } from '../../src/providers/deposit-gateway/json.js';
import { checkoutSessionBody, paymentBody, payoutBody } from '../../src/providers/deposit-gateway/request-bodies.js';
import type { BeneficiaryField } from '../../src/providers/deposit-gateway/assumptions.js';
import type { Customer, FieldError, MerchantAccount, PayoutBeneficiary, RailDetails } from '../../src/providers/provider.js';
import { startDepositGatewaySandbox, type DepositGatewaySandbox } from '../../src/sandbox/deposit-gateway/index.js';
import { DEPOSIT_GATEWAY_CASES, RULES, type DepositCase } from './deposit-gateway.cases.js';

const TEST_KEY = 'svc_test_case_table';
const LIVE_KEY = 'svc_live_case_table';

let sandbox: DepositGatewaySandbox;

beforeAll(async () => {
  sandbox = await startDepositGatewaySandbox({
    accounts: [
      { apiKey: TEST_KEY, webhookSecret: 'whsec_case_table_test' },
      { apiKey: LIVE_KEY, webhookSecret: 'whsec_case_table_live', livePayoutsEnabled: true },
    ],
    timeScale: 0.001,
    autoComplete: false,
  });
});

afterAll(async () => {
  await sandbox?.close();
});

function account(livemode: boolean): MerchantAccount {
  return { code: 'case-table', provider: 'deposit-gateway', livemode, baseUrl: 'http://unused.invalid/v1', apiKey: livemode ? LIVE_KEY : TEST_KEY, webhookSecrets: ['unused'] };
}

type Verdict = { accepted: true } | { accepted: false; rule: string; detail: string };

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** An amount as the case holds it: a decimal string, or a crypto JSON number's exact token. */
const amountText = (value: unknown): string | undefined => (value instanceof JsonNumber ? value.source : str(value));

/** The gateway request a case's provider body stands for (the inverse of the adapter's mapping). */
function gatewayRequest(testCase: DepositCase): { request?: DepositToValidate | PayoutToValidate; amountError?: FieldError } {
  const { body, rail } = testCase;
  if (rail === 'PAYOUT') {
    const money = Money.parse(amountText(body.amount) ?? '', str(body.currency) ?? latamCurrency(str(body.country)));
    if (!money.ok) return { amountError: moneyError(money.error.code, money.error.message) };
    const given = (body.beneficiary ?? {}) as Record<string, unknown>;
    const beneficiary: PayoutBeneficiary = {};
    for (const [wire, name] of Object.entries(BENEFICIARY_FIELD_NAMES)) {
      const value = str(given[wire as BeneficiaryField]);
      if (value !== undefined) (beneficiary as unknown as Record<string, string>)[name] = value;
    }
    return { request: { country: str(body.country) ?? '', amount: money.money, beneficiary, payoutId: str(body.merchant_reference) } };
  }
  const details = railDetails(testCase);
  const money = Money.parse(amountText(body.amount) ?? '', str(body.currency) ?? defaultCurrency(details));
  if (!money.ok) return { amountError: moneyError(money.error.code, money.error.message) };
  const customer: Customer = {};
  for (const field of ['email', 'firstName', 'lastName', 'address1', 'city', 'zipCode', 'phone', 'phoneCode', 'personalId', 'documentType', 'documentNumber'] as const) {
    const value = str(body[field]);
    if (value !== undefined) customer[field] = value;
  }
  if (rail !== 'LATAM' && str(body.country) !== undefined) customer.country = str(body.country);
  return { request: { amount: money.money, details, customer, returnUrl: str(body.return_url), depositId: str(body.merchant_reference) } };
}

function latamCurrency(country: string | undefined): string {
  return defaultCurrency({ rail: 'LATAM', country: country ?? '' }) || 'XXX';
}

/** The gateway reads a caller's amount with Money.parse before any rail rule: its refusal is the adapter's verdict. */
function moneyError(code: FieldError['code'], message: string): FieldError {
  return { field: [code === 'CURRENCY_INVALID' ? 'currency' : 'amount'], code, message };
}

function railDetails(testCase: DepositCase): RailDetails {
  const { body } = testCase;
  switch (testCase.rail) {
    case 'HOSTED_CHECKOUT': {
      const method = str(body.method);
      const details: RailDetails = { rail: 'HOSTED_CHECKOUT' };
      if (method !== undefined) details.preselect = { method, ...(str(body.bankCountry) !== undefined ? { bankCountry: str(body.bankCountry) } : {}) };
      if (body.expires_in !== undefined) details.expiresInSeconds = body.expires_in as number;
      return details;
    }
    case 'CARD':
      return { rail: 'CARD' };
    case 'OPEN_BANKING':
      return { rail: 'OPEN_BANKING', method: str(body.method) ?? '', bankCountry: str(body.bankCountry) ?? '' };
    case 'LATAM': {
      const details: RailDetails = { rail: 'LATAM', country: str(body.country) ?? '' };
      for (const field of ['method', 'successUrl', 'errorUrl', 'redirectUrl'] as const) {
        const value = str(body[field]);
        if (value !== undefined) details[field] = value;
      }
      if (str(body.expiresAt) !== undefined) details.expiresAt = new Date(str(body.expiresAt)!);
      return details;
    }
    case 'UPI':
    case 'PIX':
    case 'CRYPTO':
      return { rail: testCase.rail };
    case 'PAYOUT':
      throw new Error('payouts have no rail details');
  }
}

function adapterVerdict(testCase: DepositCase): { verdict: Verdict; errors: FieldError[] } {
  const { request, amountError } = gatewayRequest(testCase);
  const errors = amountError
    ? [amountError]
    : testCase.rail === 'PAYOUT'
      ? validatePayoutRequest(request as PayoutToValidate)
      : validateDepositRequest(account(testCase.rail === 'HOSTED_CHECKOUT'), request as DepositToValidate);
  if (errors.length === 0) return { verdict: { accepted: true }, errors };
  const fields = [...new Set(errors.map((error) => error.field.join('.')))];
  const rule = Object.entries(RULES).find(([, rule]) => fields.length === 1 && rule.field === fields[0])?.[0] ?? `fields ${fields.join(', ')}`;
  return { verdict: { accepted: false, rule, detail: errors.map((error) => `${error.field.join('.')} ${error.code}: ${error.message}`).join(' | ') }, errors };
}

/** What the adapter would send for an accepted case, so the table's bodies are the adapter's own. */
function adapterBody(testCase: DepositCase): Record<string, unknown> {
  const { request } = gatewayRequest(testCase);
  if (testCase.rail === 'PAYOUT') {
    const payout = request as PayoutToValidate;
    return payoutBody({ ...payout, payoutId: payout.payoutId ?? 'case' });
  }
  const deposit = request as DepositToValidate;
  const full = { ...deposit, depositId: deposit.depositId ?? 'case' };
  return testCase.rail === 'HOSTED_CHECKOUT' ? checkoutSessionBody(full, full.details as Extract<RailDetails, { rail: 'HOSTED_CHECKOUT' }>) : paymentBody(full);
}

function sameValue(field: string, sent: unknown, given: unknown, currency: string): boolean {
  if (field === 'amount') {
    // A crypto case's JSON number must go out as a JSON number too (A21), of the same value.
    if (given instanceof JsonNumber && !(sent instanceof JsonNumber)) return false;
    // Spec: "CLP and COP are zero-decimal: send integers", though ISO 4217 gives COP two decimals.
    if (['CLP', 'COP'].includes(currency) && !/^[0-9]+$/.test(amountText(sent) ?? String(sent))) return false;
    return Money.fromDecimal(amountText(sent) ?? String(sent), currency).compare(Money.fromDecimal(amountText(given) ?? String(given), currency)) === 0;
  }
  if (field === 'expiresAt') return new Date(String(sent)).getTime() === new Date(String(given)).getTime();
  if (field === 'beneficiary') {
    const sentBeneficiary = sent as Record<string, unknown>;
    return Object.entries(given as Record<string, unknown>).every(([key, value]) => sentBeneficiary[key] === value);
  }
  return JSON.stringify(sent) === JSON.stringify(given);
}

async function sandboxVerdict(testCase: DepositCase): Promise<{ verdict: Verdict; status: number; body: Record<string, unknown> }> {
  const path = testCase.rail === 'HOSTED_CHECKOUT' ? '/checkout-sessions' : testCase.rail === 'PAYOUT' ? '/payouts' : '/payments';
  const key = testCase.rail === 'HOSTED_CHECKOUT' ? LIVE_KEY : TEST_KEY;
  const response = await fetch(`${sandbox.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: testCase.raw ?? stringifyJsonExact(testCase.body),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status === 201) return { verdict: { accepted: true }, status: response.status, body };
  const message = (body.error as string | undefined) ?? '';
  const rule = Object.entries(RULES).find(([, rule]) => rule.message.test(message))?.[0] ?? 'unrecognised';
  return { verdict: { accepted: false, rule, detail: `${response.status} ${message}` }, status: response.status, body };
}

describe('deposit gateway: every spec rule, adapter and sandbox alike', () => {
  it('has a few hundred cases, each with a unique name', () => {
    expect(DEPOSIT_GATEWAY_CASES.length).toBeGreaterThan(300);
    // Crypto bodies carry the spec's JSON number (A21), and some bodies test the sandbox alone.
    expect(DEPOSIT_GATEWAY_CASES.filter((testCase) => testCase.rail === 'CRYPTO' && testCase.body.amount instanceof JsonNumber).length).toBeGreaterThan(10);
    expect(DEPOSIT_GATEWAY_CASES.filter((testCase) => testCase.sandboxOnly).length).toBeGreaterThan(20);
    const names = DEPOSIT_GATEWAY_CASES.map((testCase) => `${testCase.rail} ${testCase.name}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(DEPOSIT_GATEWAY_CASES.map((testCase) => [`${testCase.rail} ${testCase.name}`, testCase] as const))('%s', async (_name, testCase) => {
    const provider = await sandboxVerdict(testCase);
    const expected = testCase.expect;
    if (testCase.sandboxOnly) {
      // The adapter could not have written this body: the sandbox alone must hold the spec's line.
      if (expected === 'accepted') expect(provider.verdict, `sandbox: ${JSON.stringify(provider.verdict)}`).toEqual({ accepted: true });
      else {
        expect(provider.status, `sandbox answered ${provider.status} ${JSON.stringify(provider.body)} (${RULES[expected].spec})`).toBeGreaterThanOrEqual(400);
        expect(provider.status).toBeLessThan(500);
        expect(String(provider.body.error), `sandbox message for ${expected}`).toMatch(RULES[expected].message);
      }
      return;
    }
    const adapter = adapterVerdict(testCase);

    if (expected === 'accepted') {
      expect(adapter.verdict, `adapter: ${JSON.stringify(adapter.verdict)}`).toEqual({ accepted: true });
      expect(provider.verdict, `sandbox: ${JSON.stringify(provider.verdict)}`).toEqual({ accepted: true });
      // The adapter sends exactly what the case holds (amounts and times by value).
      const sent = adapterBody(testCase);
      const currency = (sent.currency as string | undefined) ?? 'EUR';
      for (const [field, value] of Object.entries(testCase.body)) {
        expect(sameValue(field, sent[field], value, currency), `adapter sends ${field}=${JSON.stringify(sent[field])}, the case ${JSON.stringify(value)}`).toBe(true);
      }
      return;
    }
    const rule = RULES[expected];
    // The adapter names the rule's field and no other.
    expect(adapter.errors.length, `adapter accepted a request the spec rejects (${rule.spec})`).toBeGreaterThan(0);
    expect(adapter.errors.map((error) => error.field.join('.')), `adapter: ${adapter.verdict.accepted ? '' : adapter.verdict.detail}`).toEqual(adapter.errors.map(() => rule.field));
    // The sandbox refuses with a 4xx that names the same rule.
    expect(provider.status, `sandbox answered ${provider.status} ${JSON.stringify(provider.body)} (${rule.spec})`).toBeGreaterThanOrEqual(400);
    expect(provider.status).toBeLessThan(500);
    expect(String(provider.body.error), `sandbox message for ${expected}`).toMatch(rule.message);
  });
});
