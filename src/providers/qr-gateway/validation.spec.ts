import { describe, expect, it } from 'vitest';
import { Money } from '../../lib/money.js';
import type { CreateDepositRequest, RailDetails } from '../provider.js';
import type { AmountUnit } from './assumptions.js';
import { validateQrDeposit } from './validation.js';

type QrDetails = Extract<RailDetails, { rail: 'THAI_QR' }>;

function request(overrides: { amount?: string; currency?: string; details?: Partial<QrDetails> } = {}): Omit<CreateDepositRequest, 'depositId'> {
  return {
    amount: Money.fromDecimal(overrides.amount ?? '250.00', overrides.currency ?? 'THB'),
    details: { rail: 'THAI_QR', payer: { name: 'Somchai Jaidee' }, clientId: 'cli_1', ...overrides.details },
    customer: {},
  };
}

const codes = (req: Omit<CreateDepositRequest, 'depositId'>, unit: AmountUnit = 'satang') =>
  validateQrDeposit(req, unit).map((error) => [error.field.join('.'), error.code]);

describe('QR deposit validation', () => {
  it.each<[string, Omit<CreateDepositRequest, 'depositId'>, AmountUnit, string[][]]>([
    ['a valid request', request(), 'satang', []],
    ['a valid request with every optional field', request({ details: { payer: { name: 'A', bankName: 'KBank', bankAccount: '123-4-56789-0' }, expiresInSeconds: 600 } }), 'satang', []],
    ['satang precision in satang unit', request({ amount: '250.75' }), 'satang', []],
    ['whole baht in baht unit', request({ amount: '250.00' }), 'baht', []],
    ['fractional baht in baht unit', request({ amount: '250.75' }), 'baht', [['amount', 'AMOUNT_TOO_PRECISE']]],
    ['another currency', request({ currency: 'USD' }), 'satang', [['currency', 'CURRENCY_NOT_SUPPORTED']]],
    ['below THB 1.00', request({ amount: '0.99' }), 'satang', [['amount', 'AMOUNT_BELOW_MINIMUM']]],
    ['exactly THB 1.00', request({ amount: '1.00' }), 'satang', []],
    ['exactly THB 2,000,000.00', request({ amount: '2000000.00' }), 'baht', []],
    ['above THB 2,000,000.00', request({ amount: '2000000.01' }), 'satang', [['amount', 'AMOUNT_ABOVE_MAXIMUM']]],
    ['no payer name', request({ details: { payer: { name: '  ' } } }), 'satang', [['payer.name', 'FIELD_REQUIRED']]],
    ['a payer name too long', request({ details: { payer: { name: 'x'.repeat(101) } } }), 'satang', [['payer.name', 'FIELD_INVALID']]],
    ['a bank account with letters', request({ details: { payer: { name: 'A', bankAccount: '12345abcde' } } }), 'satang', [['payer.bankAccount', 'FIELD_INVALID']]],
    ['a bank account too short', request({ details: { payer: { name: 'A', bankAccount: '123456789' } } }), 'satang', [['payer.bankAccount', 'FIELD_INVALID']]],
    ['expiry below 60 s', request({ details: { expiresInSeconds: 59 } }), 'satang', [['expiresInSeconds', 'EXPIRY_OUT_OF_RANGE']]],
    ['expiry at 60 s', request({ details: { expiresInSeconds: 60 } }), 'satang', []],
    ['expiry at 86400 s', request({ details: { expiresInSeconds: 86_400 } }), 'satang', []],
    ['expiry above a day', request({ details: { expiresInSeconds: 86_401 } }), 'satang', [['expiresInSeconds', 'EXPIRY_OUT_OF_RANGE']]],
    ['a fractional expiry', request({ details: { expiresInSeconds: 90.5 } }), 'satang', [['expiresInSeconds', 'EXPIRY_OUT_OF_RANGE']]],
    [
      'several problems at once',
      request({ amount: '0.50', details: { payer: { name: '' }, expiresInSeconds: 10 } }),
      'satang',
      [['amount', 'AMOUNT_BELOW_MINIMUM'], ['payer.name', 'FIELD_REQUIRED'], ['expiresInSeconds', 'EXPIRY_OUT_OF_RANGE']],
    ],
  ])('%s', (_label, req, unit, expected) => {
    expect(codes(req, unit)).toEqual(expected);
  });

  it('says why a fractional amount is refused in baht unit', () => {
    const [error] = validateQrDeposit(request({ amount: '10.50' }), 'baht');
    expect(error?.message).toMatch(/whole baht/);
  });

  it('refuses other rails', () => {
    expect(validateQrDeposit({ amount: Money.fromDecimal('10.00', 'THB'), details: { rail: 'PIX' }, customer: {} }, 'satang')).toEqual([
      expect.objectContaining({ field: ['rail'], code: 'RAIL_NOT_SUPPORTED' }),
    ]);
  });
});
