// The Rail enum of the API: named by deposits (their rail, the rail filter) and by merchant accounts
// (the rails their provider serves), so it belongs to neither module.

import { registerEnumType } from 'type-graphql';
import type { Rail } from '../providers/provider.js';

export const RailEnum = {
  HOSTED_CHECKOUT: 'HOSTED_CHECKOUT',
  CARD: 'CARD',
  OPEN_BANKING: 'OPEN_BANKING',
  LATAM: 'LATAM',
  UPI: 'UPI',
  PIX: 'PIX',
  CRYPTO: 'CRYPTO',
  THAI_QR: 'THAI_QR',
} as const satisfies Record<Rail, Rail>;

registerEnumType(RailEnum, {
  name: 'Rail',
  description: 'How the money moves.',
  valuesConfig: {
    HOSTED_CHECKOUT: { description: 'The deposit gateway\'s hosted page, where the player chooses how to pay (live accounts only).' },
    CARD: { description: 'Card payment with 3-D Secure.' },
    OPEN_BANKING: { description: 'European open banking: SEPA, instant or Faster Payments.' },
    LATAM: { description: 'Local methods in Ecuador, Chile, Peru, Mexico and Colombia.' },
    UPI: { description: 'India\'s Unified Payments Interface, in INR.' },
    PIX: { description: 'Brazil\'s instant payments, in BRL.' },
    CRYPTO: { description: 'Cryptocurrency at a quoted rate, for an amount in EUR or USD.' },
    THAI_QR: { description: 'A Thai QR code in THB, through the QR gateway.' },
  },
});
