// The deposit gateway's published limits and allowed values, each from the spec section named.

import type { Rail } from '../provider.js';

/** Cards: "Currencies" list (spec: Cards). */
export const CARD_CURRENCIES: readonly string[] = [
  'EUR', 'GBP', 'USD', 'CAD', 'AUD', 'TRY', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'NZD', 'JPY',
];

/** Open banking methods and bank countries (spec: European open banking). */
export const OPEN_BANKING_METHODS: readonly string[] = ['sepa', 'instant', 'fps'];
export const OPEN_BANKING_COUNTRIES: readonly string[] = ['NL', 'MT', 'GB'];

/** LATAM method per country; countries absent here must omit it (spec: LATAM). */
export const LATAM_METHODS: Readonly<Partial<Record<string, readonly string[]>>> = {
  CHILE: ['cards', 'bank'],
  PERU: ['bank', 'qr'],
};

export const CRYPTO_CURRENCIES: readonly string[] = ['EUR', 'USD'];

/** Per-transaction amount bands in major units, as exact decimal strings (spec: Limits). */
export interface AmountBand {
  min: string;
  max?: string;
}

export const AMOUNT_BANDS: Readonly<Partial<Record<Rail, AmountBand>>> = {
  CARD: { min: '1.00', max: '10000.00' },
  UPI: { min: '100', max: '50000' },
  PIX: { min: '10', max: '15000' },
  CRYPTO: { min: '10.00' },
};

/**
 * Amount decimals (spec: Payment create request): "Up to 2 decimals. CLP and COP are zero-decimal:
 * send integers"; the LATAM and payout tables say the same ("integer string for CLP and COP").
 */
export const MAX_AMOUNT_DECIMALS = 2;
export const WHOLE_NUMBER_CURRENCIES: readonly string[] = ['CLP', 'COP'];

/** Fixed rail currencies (spec: UPI and PIX). */
export const UPI_CURRENCY = 'INR';
export const PIX_CURRENCY = 'BRL';

/** Checkout session lifetime in seconds (spec: Checkout session request, Limits). */
export const CHECKOUT_EXPIRES_IN = { min: 300, max: 86400 } as const;

/** merchant_reference length (spec: Limits). */
export const MERCHANT_REFERENCE_MAX_LENGTH = 128;

/** GET /payments page size (spec: GET /payments). */
export const PAGE_LIMIT = { min: 1, max: 200 } as const;

/**
 * ISO 3166-1 alpha-2 officially assigned codes. Cards need a real code: "a wrong code fails 3-D
 * Secure v2 authentication and the payment" (spec: Cards), so format alone is not enough.
 */
export const ISO_COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET ' +
    'FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ' +
    'ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY ' +
    'MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM ' +
    'PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ ' +
    'TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);
