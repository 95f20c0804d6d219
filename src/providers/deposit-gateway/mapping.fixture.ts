// What the deposit gateway's mapping specs share (not built into dist/: tsconfig.build.json leaves
// *.fixture.ts out): a euro amount, a provider body read as the adapter reads one, and a deposit
// request with a full billing customer.

import { Money } from '../../lib/money.js';
import type { CreateDepositRequest } from '../provider.js';
import { parseJsonExact } from './json.js';

export const eur = (amount: string) => Money.fromDecimal(amount, 'EUR');
export const json = (text: string) => parseJsonExact(text);

export const customer = {
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Silva',
  country: 'NL',
  address1: 'Damrak 1',
  city: 'Amsterdam',
  zipCode: '1012LG',
  phone: '+31201234567',
};

export function deposit(details: CreateDepositRequest['details'], amount = eur('25.00'), extra: Partial<CreateDepositRequest> = {}): CreateDepositRequest {
  return { depositId: 'dep_01', amount, details, customer, ...extra };
}
