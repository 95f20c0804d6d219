// Valid createDeposit inputs for every rail of the deposit gateway, as a cashier would send them.

import type { CreateDepositInput } from '../__generated__/graphql.js';

const named = { email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva' };
const billing = { ...named, country: 'NL', address1: 'Damrak 1', city: 'Amsterdam', zipCode: '1012LG', phone: '+31201234567' };

/** Rail label, input, and the currency the deposit should end up in. */
export const VALID_DEPOSITS: Array<[string, CreateDepositInput, string]> = [
  ['CARD', { amount: '25.00', customer: billing, card: {} }, 'EUR'],
  ['CARD in GBP', { amount: '25.00', currency: 'GBP', customer: billing, card: {} }, 'GBP'],
  ['OPEN_BANKING sepa NL', { amount: '40.00', customer: billing, openBanking: { method: 'sepa', bankCountry: 'NL' } }, 'EUR'],
  ['OPEN_BANKING instant MT', { amount: '40.00', customer: { ...billing, country: 'MT' }, openBanking: { method: 'instant', bankCountry: 'MT' } }, 'EUR'],
  ['OPEN_BANKING fps GB', { amount: '40.00', customer: { ...billing, country: 'GB' }, openBanking: { method: 'fps', bankCountry: 'GB' } }, 'GBP'],
  ['LATAM Chile bank', { amount: '15000', customer: { ...named, documentType: 'RUT', documentNumber: '12345678-5' }, latam: { country: 'CHILE', method: 'bank' } }, 'CLP'],
  ['LATAM Chile cards', { amount: '15000', customer: { ...named, documentType: 'RUT', documentNumber: '12345678-5', phone: '912345678', phoneCode: '+56' }, latam: { country: 'CHILE', method: 'cards' } }, 'CLP'],
  ['LATAM Peru qr', { amount: '50.50', customer: { ...named, documentType: 'DNI', documentNumber: '12345678' }, latam: { country: 'PERU', method: 'qr' } }, 'PEN'],
  ['LATAM Mexico', { amount: '500', customer: { ...named, documentType: 'CURP', documentNumber: 'GODE561231HDFRRN04' }, latam: { country: 'MEXICO' } }, 'MXN'],
  ['LATAM Colombia', { amount: '50000', customer: { ...named, documentType: 'CC', documentNumber: '1020304050', phone: '3001234567', phoneCode: '+57' }, latam: { country: 'COLOMBIA' } }, 'COP'],
  ['LATAM Ecuador', { amount: '25.00', customer: { ...named, documentType: 'CI', documentNumber: '1710034065' }, latam: { country: 'ECUADOR', expiresAt: new Date(Date.now() + 30 * 60_000).toISOString() } }, 'USD'],
  // The currency override (A30): US dollars in a country whose own currency is not.
  ['LATAM Peru bank in USD', { amount: '50.25', currency: 'USD', customer: { ...named, documentType: 'DNI', documentNumber: '12345678' }, latam: { country: 'PERU', method: 'bank' } }, 'USD'],
  ['LATAM Mexico in USD', { amount: '75.10', currency: 'USD', customer: { ...named, documentType: 'CURP', documentNumber: 'GODE561231HDFRRN04' }, latam: { country: 'MEXICO' } }, 'USD'],
  ['UPI', { amount: '500.00', customer: { ...named, phone: '+919812345678', personalId: 'ana@okhdfc' }, upi: {} }, 'INR'],
  ['PIX', { amount: '50.00', customer: { ...named, phone: '+5511912345678', personalId: '52998224725' }, pix: {} }, 'BRL'],
  ['CRYPTO', { amount: '20.00', currency: 'USD', customer: named, crypto: {} }, 'USD'],
];

export const CARD_INPUT: CreateDepositInput = VALID_DEPOSITS[0]![1];
