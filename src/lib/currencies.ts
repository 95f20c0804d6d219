// How many decimals an amount has in each currency: the minor units of ISO 4217 list one ("current
// currency & funds"), the list its maintenance agency (SIX, for ISO) publishes as list-one.xml.
//
// Source: list one as published on 2025-03-31, which is the list of 2024-06-25 with the Caribbean
// guilder XCG added (Curaçao and Sint Maarten) and ANG and CUC withdrawn. Codes whose minor unit ISO
// gives as "N.A." are left out: precious metals (XAU, XAG, XPD, XPT), bond-market units (XBA to
// XBD), XDR, XSU, XUA, the testing code XTS and XXX ("no currency"); nothing is paid in them.
// src/lib/currencies.spec.ts checks this table against ISO's own XML as the `currency-codes`
// package ships it. When ISO amends the list: update these lists, the date and that spec together.
//
// A provider may take fewer decimals than ISO gives (the deposit gateway wants whole CLP and COP):
// that is its adapter's rule, never this table's.

/** Decimals of a currency's minor unit in ISO 4217: 0 (JPY), 2 (EUR), 3 (KWD) or 4 (CLF). */
export type MinorUnits = 0 | 2 | 3 | 4;

/** Publication date of the ISO 4217 list one this table follows. */
export const ISO_4217_LIST_ONE_PUBLISHED = '2025-03-31';

const NO_MINOR_UNIT = ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'];

const THREE_DECIMALS = ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'];

const FOUR_DECIMALS = ['CLF', 'UYW'];

const TWO_DECIMALS = [
  'AED', 'AFN', 'ALL', 'AMD', 'AOA', 'ARS', 'AUD', 'AWG', 'AZN', 'BAM', 'BBD', 'BDT', 'BGN', 'BMD', 'BND', 'BOB',
  'BOV', 'BRL', 'BSD', 'BTN', 'BWP', 'BYN', 'BZD', 'CAD', 'CDF', 'CHE', 'CHF', 'CHW', 'CNY', 'COP', 'COU', 'CRC',
  'CUP', 'CVE', 'CZK', 'DKK', 'DOP', 'DZD', 'EGP', 'ERN', 'ETB', 'EUR', 'FJD', 'FKP', 'GBP', 'GEL', 'GHS', 'GIP',
  'GMD', 'GTQ', 'GYD', 'HKD', 'HNL', 'HTG', 'HUF', 'IDR', 'ILS', 'INR', 'IRR', 'JMD', 'KES', 'KGS', 'KHR', 'KPW',
  'KYD', 'KZT', 'LAK', 'LBP', 'LKR', 'LRD', 'LSL', 'MAD', 'MDL', 'MGA', 'MKD', 'MMK', 'MNT', 'MOP', 'MRU', 'MUR',
  'MVR', 'MWK', 'MXN', 'MXV', 'MYR', 'MZN', 'NAD', 'NGN', 'NIO', 'NOK', 'NPR', 'NZD', 'PAB', 'PEN', 'PGK', 'PHP',
  'PKR', 'PLN', 'QAR', 'RON', 'RSD', 'RUB', 'SAR', 'SBD', 'SCR', 'SDG', 'SEK', 'SGD', 'SHP', 'SLE', 'SOS', 'SRD',
  'SSP', 'STN', 'SVC', 'SYP', 'SZL', 'THB', 'TJS', 'TMT', 'TOP', 'TRY', 'TTD', 'TWD', 'TZS', 'UAH', 'USD', 'USN',
  'UYU', 'UZS', 'VED', 'VES', 'WST', 'XCD', 'XCG', 'YER', 'ZAR', 'ZMW', 'ZWG',
];

/** Every ISO 4217 code with a minor unit, to its number of decimals. */
export const ISO_4217_MINOR_UNITS: ReadonlyMap<string, MinorUnits> = new Map<string, MinorUnits>([
  ...NO_MINOR_UNIT.map((code) => [code, 0] as const),
  ...TWO_DECIMALS.map((code) => [code, 2] as const),
  ...THREE_DECIMALS.map((code) => [code, 3] as const),
  ...FOUR_DECIMALS.map((code) => [code, 4] as const),
]);

/**
 * ISO 4217's minor units of `code`, or undefined for a code ISO does not list with one (unknown,
 * withdrawn, or "N.A." such as XAU).
 *
 * @example isoMinorUnits('KWD') // 3
 * @example isoMinorUnits('XYZ') // undefined
 */
export function isoMinorUnits(code: string): MinorUnits | undefined {
  return ISO_4217_MINOR_UNITS.get(code);
}
