// A deposit's fields for unit specs (not built into dist/: tsconfig.build.json leaves *.fixture.ts
// out): one place for the shape a deposit row has, so a new column is added to the fakes once.

import type { Deposit } from './deposit.entity.js';
import type { TransitionProperty } from './deposit-transitions.js';

/** When the fixture deposit was made and last changed. */
export const FIXTURE_CREATED = new Date('2026-01-02T03:04:05.000Z');

/** A EUR 10.00 card deposit dep_1 of cli_1, PENDING at the provider as pi_1, nothing refunded. */
export function depositFields(overrides: Partial<Deposit> = {}): Pick<Deposit, TransitionProperty> {
  return {
    id: 'dep_1',
    clientId: 'cli_1',
    merchantAccount: 'acct-1',
    provider: 'deposit-gateway',
    rail: 'CARD',
    livemode: false,
    status: 'PENDING',
    providerStatus: 'pending',
    statusReason: null,
    amount: '10.00',
    currency: 'EUR',
    fee: null,
    net: null,
    refundedAmount: '0.00',
    refundStatus: null,
    disputed: false,
    redirectUrl: null,
    merchantReference: null,
    declineReason: null,
    qrPayload: null,
    qrExpiresAt: null,
    crypto: null,
    metadata: null,
    approvedAt: null,
    creditClaimedAt: null,
    createdAt: FIXTURE_CREATED,
    updatedAt: FIXTURE_CREATED,
    providerReference: 'pi_1',
    paymentReference: 'pi_1',
    ...overrides,
  };
}
