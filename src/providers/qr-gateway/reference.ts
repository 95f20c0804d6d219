// The QR gateway's page of the API reference, its rules read from its tables.

import { MAX_AMOUNT, MIN_AMOUNT } from './amount.js';
import { EXPIRY_BOUNDS_SECONDS, NAME_MAX_LENGTH, QR_CURRENCY } from './assumptions.js';
import type { ProviderReference } from '../reference.js';

export const QR_GATEWAY_REFERENCE: ProviderReference = {
  pages: [
    {
      rail: 'THAI_QR',
      slug: 'thai-qr',
      title: 'Thai QR',
      mutation: 'createQrCode',
      intro: 'A Thai QR code the payer scans with a banking app, through the QR gateway. It is a deposit on the `THAI_QR` rail; `createQrCode` creates it.',
      rules: [
        ['Currency', `\`${QR_CURRENCY}\``],
        ['Amount', `${QR_CURRENCY} ${MIN_AMOUNT.toDecimal()} to ${MAX_AMOUNT.toDecimal()}`],
        ['Code lifetime', `${EXPIRY_BOUNDS_SECONDS.min} to ${EXPIRY_BOUNDS_SECONDS.max} seconds`],
        ['Payer and bank names', `at most ${NAME_MAX_LENGTH} characters`],
      ],
      examples: [{ title: 'Thai QR', input: { amount: '150.00', payer: { name: 'Somchai Jaidee', bankName: 'Kasikornbank', bankAccount: '1234567890' } } }],
    },
  ],
};
