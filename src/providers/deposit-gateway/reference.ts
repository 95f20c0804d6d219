// The deposit gateway's pages of the API reference: one per rail, rules read from its tables.
// The examples are checked by validation when the pages are generated, and sent to a gateway by
// test/reference/rail-examples.test.ts.

import {
  ECUADOR_EXPIRY_WINDOW_SECONDS,
  HOSTED_CHECKOUT_DEFAULT_CURRENCY,
  HOSTED_CHECKOUT_PRESELECT_METHODS,
  LATAM_COUNTRIES,
  LATAM_CURRENCY,
  latamDepositCurrencies,
  LATAM_DOCUMENT_TYPES,
  LATAM_EXPIRES_AT,
  LATAM_PROVIDER_LINK_LIFETIME_SECONDS,
  OPEN_BANKING_CURRENCY,
  type LatamCountry,
} from './assumptions.js';
import {
  AMOUNT_BANDS,
  CARD_CURRENCIES,
  CHECKOUT_EXPIRES_IN,
  CRYPTO_CURRENCIES,
  LATAM_METHODS,
  OPEN_BANKING_COUNTRIES,
  OPEN_BANKING_METHODS,
  PIX_CURRENCY,
  UPI_CURRENCY,
} from './rules.js';
import { IN_ONE_HOUR, type ProviderReference, type RailExample } from '../reference.js';

/** Code of the live-mode merchant account the hosted checkout example names (hosted checkout is live only). */
export const LIVE_ACCOUNT_EXAMPLE = 'dg-live';

const named = { email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva' };
const billing = { ...named, country: 'NL', address1: 'Damrak 1', city: 'Amsterdam', zipCode: '1012LG' };

const list = (values: readonly string[]): string => values.map((value) => `\`${value}\``).join(', ');
/** A rail's amount band; without a currency, in the deposit's own currency. */
const band = (rail: keyof typeof AMOUNT_BANDS, currency?: string): string => {
  const limits = AMOUNT_BANDS[rail];
  if (!limits) return 'no gateway limit';
  const range = limits.max ? `${limits.min} to ${limits.max}` : `from ${limits.min}`;
  return currency ? `${currency} ${range}` : `${range} in the deposit's currency`;
};
const title = (country: string): string => country.charAt(0) + country.slice(1).toLowerCase();

/** How long a country's payment link lasts (A33); an unpaid link that expires makes the deposit EXPIRED. */
const linkLifetime = (country: LatamCountry): string => {
  const window = `${ECUADOR_EXPIRY_WINDOW_SECONDS.min / 60} minutes to ${ECUADOR_EXPIRY_WINDOW_SECONDS.max / 3600} hours ahead`;
  const provider = `${LATAM_PROVIDER_LINK_LIFETIME_SECONDS / 60} minutes`;
  switch (LATAM_EXPIRES_AT[country]) {
    case 'required':
      return `link expires at \`latam.expiresAt\` (required, ${window})`;
    case 'honoured':
      return `link expires at \`latam.expiresAt\` (${window}), else after ${provider}`;
    case 'ignored':
      return `link lasts ${provider} (\`latam.expiresAt\` ignored)`;
  }
};

const LATAM_EXAMPLES: Record<LatamCountry, RailExample> = {
  CHILE: { title: 'Chile', input: { amount: '15000', customer: { ...named, documentType: 'RUT', documentNumber: '12345678-5' }, latam: { country: 'CHILE', method: 'bank' } } },
  PERU: { title: 'Peru', input: { amount: '50.50', customer: { ...named, documentType: 'DNI', documentNumber: '12345678' }, latam: { country: 'PERU', method: 'qr' } } },
  MEXICO: { title: 'Mexico', input: { amount: '500', customer: { ...named, documentType: 'CURP', documentNumber: 'GODE561231HDFRRN04' }, latam: { country: 'MEXICO' } } },
  COLOMBIA: {
    title: 'Colombia',
    input: { amount: '50000', customer: { ...named, documentType: 'CC', documentNumber: '1020304050', phone: '3001234567', phoneCode: '+57' }, latam: { country: 'COLOMBIA' } },
  },
  ECUADOR: {
    title: 'Ecuador',
    input: { amount: '25.00', customer: { ...named, documentType: 'CI', documentNumber: '1710034065' }, latam: { country: 'ECUADOR', expiresAt: IN_ONE_HOUR } },
    note: `Replace \`${IN_ONE_HOUR}\` with an ISO 8601 date-time between ${ECUADOR_EXPIRY_WINDOW_SECONDS.min / 60} minutes and ${ECUADOR_EXPIRY_WINDOW_SECONDS.max / 3600} hours from now, e.g. \`new Date(Date.now() + 3_600_000).toISOString()\`.`,
  },
};

export const DEPOSIT_GATEWAY_REFERENCE: ProviderReference = {
  liveAccountExample: LIVE_ACCOUNT_EXAMPLE,
  pages: [
    {
      rail: 'CARD',
      slug: 'card',
      title: 'Card',
      mutation: 'createDeposit',
      intro: 'A card payment with 3-D Secure on the provider\'s page: send the player to `redirectUrl`, or use the embedded card form (`cardSession`, `settleCardDeposit`).',
      rules: [
        ['Currencies', `${list(CARD_CURRENCIES)}; \`EUR\` when \`currency\` is omitted`],
        ['Amount', band('CARD')],
      ],
      examples: [{ title: 'Card', input: { amount: '25.00', customer: billing, card: {} } }],
    },
    {
      rail: 'HOSTED_CHECKOUT',
      slug: 'hosted-checkout',
      title: 'Hosted checkout',
      mutation: 'createDeposit',
      intro: `The provider's hosted page lets the player choose how to pay. Live merchant accounts only: on a test account a session would still make a real charge, so it is refused (\`HOSTED_CHECKOUT_REQUIRES_LIVE_ACCOUNT\`). The example names \`${LIVE_ACCOUNT_EXAMPLE}\`, the live-mode account the local sandbox serves when no \`MERCHANT_ACCOUNTS\` are configured: a sandbox account, so no real money moves ([sandbox cheat sheet](../sandbox.md)). With accounts of your own, name a live one (\`merchantAccounts\` lists them).`,
      rules: [
        ['Currencies', `${list(CARD_CURRENCIES)}; \`${HOSTED_CHECKOUT_DEFAULT_CURRENCY}\` when \`currency\` is omitted`],
        ['Pre-selected method', `${list(HOSTED_CHECKOUT_PRESELECT_METHODS)} (\`fps\` needs \`bankCountry\` \`GB\`)`],
        ['Session lifetime', `${CHECKOUT_EXPIRES_IN.min} to ${CHECKOUT_EXPIRES_IN.max} seconds`],
      ],
      examples: [{ title: 'Hosted checkout', input: { amount: '30.00', merchantAccount: LIVE_ACCOUNT_EXAMPLE, returnUrl: 'https://shop.example/back', customer: { email: 'ana@example.com' }, hostedCheckout: { expiresInSeconds: 900 } } }],
    },
    {
      rail: 'OPEN_BANKING',
      slug: 'open-banking',
      title: 'Open banking (SEPA, instant, Faster Payments)',
      mutation: 'createDeposit',
      intro: 'European open banking: the player pays from their bank account. `fps` is the UK\'s Faster Payments.',
      rules: [
        ['Methods', list(OPEN_BANKING_METHODS)],
        ['Bank countries and currency', OPEN_BANKING_COUNTRIES.map((country) => `\`${country}\` ${OPEN_BANKING_CURRENCY[country] ?? '?'}`).join(', ') + ' (`fps` is `GB` only)'],
      ],
      examples: [
        { title: 'SEPA from the Netherlands', input: { amount: '40.00', customer: billing, openBanking: { method: 'sepa', bankCountry: 'NL' } } },
        { title: 'Faster Payments from the UK', input: { amount: '40.00', customer: { ...billing, country: 'GB', address1: '1 High Street', city: 'London', zipCode: 'SW1A 1AA' }, openBanking: { method: 'fps', bankCountry: 'GB' } } },
      ],
    },
    {
      rail: 'LATAM',
      slug: 'latam',
      title: 'LATAM',
      mutation: 'createDeposit',
      intro: 'Local methods in five Latin American countries. The country selects the rail and, unless `currency` names another one it takes, the currency; each country needs an identity document of its own. The player pays on a link that expires: one not paid in time makes the deposit `EXPIRED`.',
      rules: LATAM_COUNTRIES.map((country): [string, string] => {
        const others = latamDepositCurrencies(country).filter((code) => code !== LATAM_CURRENCY[country]);
        return [
        title(country),
        `currency \`${LATAM_CURRENCY[country]}\`${others.length ? ` (or ${list(others)})` : ''}; documents ${list(LATAM_DOCUMENT_TYPES[country])}; method ${LATAM_METHODS[country] ? list(LATAM_METHODS[country]) : 'omitted'}; ${linkLifetime(country)}`,
        ];
      }),
      examples: LATAM_COUNTRIES.map((country) => LATAM_EXAMPLES[country]),
    },
    {
      rail: 'UPI',
      slug: 'upi',
      title: 'UPI',
      mutation: 'createDeposit',
      intro: 'India\'s Unified Payments Interface. The payer\'s UPI ID (`handle@bank`) goes in `customer.personalId`.',
      rules: [
        ['Currency', `\`${UPI_CURRENCY}\``],
        ['Amount', band('UPI', UPI_CURRENCY)],
      ],
      examples: [{ title: 'UPI', input: { amount: '500.00', customer: { ...named, phone: '+919812345678', personalId: 'ana@okhdfc' }, upi: {} } }],
    },
    {
      rail: 'PIX',
      slug: 'pix',
      title: 'PIX',
      mutation: 'createDeposit',
      intro: 'Brazil\'s instant payments. The payer\'s CPF (11 digits, no dots or dashes) goes in `customer.personalId`.',
      rules: [
        ['Currency', `\`${PIX_CURRENCY}\``],
        ['Amount', band('PIX', PIX_CURRENCY)],
      ],
      examples: [{ title: 'PIX', input: { amount: '50.00', customer: { ...named, phone: '+5511912345678', personalId: '52998224725' }, pix: {} } }],
    },
    {
      rail: 'CRYPTO',
      slug: 'crypto',
      title: 'Crypto',
      mutation: 'createDeposit',
      intro: 'The player pays in cryptocurrency at a quoted rate; the deposit is in the fiat currency named. `currency` is required.',
      rules: [
        ['Currencies', list(CRYPTO_CURRENCIES)],
        ['Amount', band('CRYPTO')],
      ],
      examples: [{ title: 'Crypto', input: { amount: '20.00', currency: 'USD', customer: named, crypto: {} } }],
    },
  ],
};
