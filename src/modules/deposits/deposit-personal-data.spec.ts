// Unit spec of what a deposit's stored request keeps once retention erases its payer's personal data
// (deposit-personal-data.ts): an allow-list of the customer's fields, identifiers masked to their
// last four characters, a Thai QR payer removed, the rail block and the client's addresses kept.

import { describe, expect, it } from 'vitest';
import type { DepositRequest } from './deposit.entity.js';
import { erasedDepositRequest } from './deposit-personal-data.js';

const named = { email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva' };

describe('erasedDepositRequest', () => {
  it('keeps a card payer\'s country alone: e-mail, names, address and phone go', () => {
    const request: DepositRequest = {
      details: { rail: 'CARD' },
      customer: { ...named, country: 'NL', address1: 'Damrak 1', city: 'Amsterdam', zipCode: '1012LG', phone: '+31201234567', phoneCode: '+31' },
      returnUrl: 'https://cashier.example/return',
    };
    expect(erasedDepositRequest(request)).toEqual({ details: { rail: 'CARD' }, customer: { country: 'NL' }, returnUrl: 'https://cashier.example/return' });
  });

  it('keeps a document\'s type and the last four characters of its number, and of a UPI ID or CPF', () => {
    const latam: DepositRequest = {
      details: { rail: 'LATAM', country: 'CHILE', method: 'bank', expiresAt: '2026-11-21T12:00:00.000Z' },
      customer: { ...named, documentType: 'RUT', documentNumber: '12345678-5', phone: '912345678', phoneCode: '+56' },
    };
    expect(erasedDepositRequest(latam)).toEqual({
      details: { rail: 'LATAM', country: 'CHILE', method: 'bank', expiresAt: '2026-11-21T12:00:00.000Z' },
      customer: { documentType: 'RUT', documentNumber: '****78-5' },
    });
    expect(erasedDepositRequest({ details: { rail: 'PIX' }, customer: { ...named, phone: '+5511912345678', personalId: '52998224725' } }).customer).toEqual({ personalId: '****4725' });
    expect(erasedDepositRequest({ details: { rail: 'UPI' }, customer: { ...named, personalId: 'ana@okhdfc' } }).customer).toEqual({ personalId: '****hdfc' });
  });

  it('removes a Thai QR payer and keeps the rest of its block', () => {
    const request: DepositRequest = {
      details: { rail: 'THAI_QR', payer: { name: 'Somchai Jaidee', bankName: 'Kasikornbank' }, expiresInSeconds: 900, clientId: 'cli_01' },
      customer: {},
    };
    expect(erasedDepositRequest(request)).toEqual({ details: { rail: 'THAI_QR', expiresInSeconds: 900, clientId: 'cli_01' }, customer: {} });
  });

  it('keeps a hosted checkout\'s own settings and the client\'s addresses', () => {
    const details = { rail: 'HOSTED_CHECKOUT', preselect: { method: 'card', bankCountry: 'NL' }, expiresInSeconds: 1800, successUrl: 'https://cashier.example/ok', cancelUrl: 'https://cashier.example/cancel' } as const;
    expect(erasedDepositRequest({ details, customer: { ...named, country: 'NL' } })).toEqual({ details, customer: { country: 'NL' } });
  });

  it('erases a field it does not name, and changes nothing when run again', () => {
    const request = { details: { rail: 'CARD' }, customer: { ...named, country: 'BR', personalId: '52998224725', birthDate: '1990-01-01' } } as DepositRequest;
    const once = erasedDepositRequest(request);
    expect(once).toEqual({ details: { rail: 'CARD' }, customer: { country: 'BR', personalId: '****4725' } });
    expect(erasedDepositRequest(once)).toEqual(once);
  });

  it('hides a short identifier entirely, and leaves out empty values', () => {
    expect(erasedDepositRequest({ details: { rail: 'PIX' }, customer: { personalId: '1234', documentNumber: '', country: '' } }).customer).toEqual({ personalId: '****' });
  });
});
