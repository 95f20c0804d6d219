// Runs every case of qr-gateway.cases.ts twice: through the adapter's request validation, and as a
// real HTTP request to a QR gateway sandbox counting in the case's amount unit. Either verdict
// differing from the table's fails.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Money } from '../../src/lib/money.js';
import type { AmountUnit } from '../../src/providers/qr-gateway/assumptions.js';
import { validateQrDeposit, validateWebhookRegistration } from '../../src/providers/qr-gateway/validation.js';
import type { FieldError } from '../../src/providers/provider.js';
import { startQrGatewaySandbox, type QrGatewaySandbox } from '../../src/sandbox/qr-gateway/index.js';
import { QR_GATEWAY_CASES, QR_RULES, RECEIVER, type QrCase } from './qr-gateway.cases.js';

const TEST_KEY = 'sk_test_case_table';

const sandboxes = new Map<AmountUnit, QrGatewaySandbox>();
let receiver: Server;
let receiverUrl = '';

beforeAll(async () => {
  for (const unit of ['satang', 'baht'] as const) {
    sandboxes.set(unit, await startQrGatewaySandbox({ accounts: [{ apiKey: TEST_KEY }], amountUnit: unit, timeScale: 0.001 }));
  }
  // Registrations must name a URL that answers (Q18); deliveries to it are simply acknowledged.
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const sandbox of sandboxes.values()) await sandbox.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

/** The decimal THB text of an integer-or-not amount in `unit`, shifting the point as written (no float arithmetic). */
function bahtText(amount: number, unit: AmountUnit): string {
  const text = String(amount);
  if (unit === 'baht') return text;
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const digits = (whole + fraction).padStart(fraction.length + 3, '0');
  const point = digits.length - fraction.length - 2;
  return `${negative ? '-' : ''}${digits.slice(0, point)}.${digits.slice(point)}`;
}

function adapterErrors(testCase: QrCase): FieldError[] {
  const { body } = testCase;
  if (testCase.kind === 'webhook') {
    const url = typeof body.url === 'string' ? body.url.replace(RECEIVER, receiverUrl) : '';
    const problem = validateWebhookRegistration({ url, events: (body.events as string[]) ?? [], secret: body.secret as string | undefined }, false);
    return problem ? [{ field: [problem.field], code: problem.code, message: problem.message }] : [];
  }
  const money = Money.parse(bahtText(body.amount as number, testCase.unit), typeof body.currency === 'string' ? body.currency : '');
  if (!money.ok) return [{ field: [money.error.code === 'CURRENCY_INVALID' ? 'currency' : 'amount'], code: money.error.code, message: money.error.message }];
  const payer: { name: string; bankName?: string; bankAccount?: string } = { name: typeof body.client_name === 'string' ? body.client_name : '' };
  if (typeof body.client_bank_name === 'string') payer.bankName = body.client_bank_name;
  if (typeof body.client_bank_account === 'string') payer.bankAccount = body.client_bank_account;
  return validateQrDeposit(
    {
      amount: money.money,
      details: { rail: 'THAI_QR', payer, clientId: 'client-1', ...(body.expires_in !== undefined ? { expiresInSeconds: body.expires_in as number } : {}) },
      customer: {},
    },
    testCase.unit,
  );
}

async function sandboxAnswer(testCase: QrCase): Promise<{ status: number; body: { error?: { code?: string; message?: string } } }> {
  const sandbox = sandboxes.get(testCase.kind === 'qr-code' ? testCase.unit : 'satang')!;
  const path = testCase.kind === 'qr-code' ? '/v1/qr-codes' : '/Thai/v1/webhooks';
  const body = testCase.kind === 'webhook' && typeof testCase.body.url === 'string' ? { ...testCase.body, url: testCase.body.url.replace(RECEIVER, receiverUrl) } : testCase.body;
  const response = await fetch(`${sandbox.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { error?: { code?: string; message?: string } } };
}

describe('QR gateway: every spec rule, adapter and sandbox alike', () => {
  it('has a case for every rule, each with a unique name', () => {
    const names = QR_GATEWAY_CASES.map((testCase) => `${testCase.kind} ${testCase.name}`);
    expect(new Set(names).size).toBe(names.length);
    const covered = new Set(QR_GATEWAY_CASES.map((testCase) => testCase.expect));
    expect(Object.keys(QR_RULES).filter((rule) => !covered.has(rule as never))).toEqual([]);
  });

  it.each(QR_GATEWAY_CASES.map((testCase) => [`${testCase.kind} ${testCase.name}`, testCase] as const))('%s', async (_name, testCase) => {
    const errors = adapterErrors(testCase);
    const answer = await sandboxAnswer(testCase);
    const said = `${answer.status} ${JSON.stringify(answer.body)}`;
    if (testCase.expect === 'accepted') {
      expect(errors, 'adapter').toEqual([]);
      expect([200, 201], `sandbox: ${said}`).toContain(answer.status);
      return;
    }
    const rule = QR_RULES[testCase.expect];
    expect(errors.length, `adapter accepted a request the spec rejects (${rule.spec})`).toBeGreaterThan(0);
    expect(errors.map((error) => error.field.join('.')), `adapter: ${JSON.stringify(errors)}`).toEqual(errors.map(() => rule.field));
    expect(answer.status, `sandbox: ${said} (${rule.spec})`).toBe(rule.status);
    expect(answer.body.error?.message ?? '', `sandbox: ${said}`).toMatch(rule.message);
    if ('code' in rule) expect(answer.body.error?.code, `sandbox: ${said}`).toBe(rule.code);
  });
});
