// The table of minor units against ISO 4217 itself: the list-one XML its maintenance agency
// publishes, as the `currency-codes` package ships it (iso-4217-list-one.xml, ISO's file unchanged).
// The package may carry an older publication than the table follows: the changes ISO published in
// between are named here, so a newer package shows at once what the table has to catch up with.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ISO_4217_LIST_ONE_PUBLISHED, ISO_4217_MINOR_UNITS, isoMinorUnits } from './currencies.js';

const require = createRequire(import.meta.url);

/** ISO's list one as the package ships it: its publication date, and each code with its minor units. */
function packagedListOne(): { published: string; minorUnits: Map<string, string> } {
  const xml = readFileSync(require.resolve('currency-codes/iso-4217-list-one.xml'), 'utf8');
  const published = /<ISO_4217 Pblshd="([0-9-]+)">/.exec(xml)?.[1] ?? '';
  const minorUnits = new Map<string, string>();
  for (const [, entry] of xml.matchAll(/<CcyNtry>([\s\S]*?)<\/CcyNtry>/g)) {
    const code = /<Ccy>([A-Z]{3})<\/Ccy>/.exec(entry!)?.[1];
    const units = /<CcyMnrUnts>([^<]*)<\/CcyMnrUnts>/.exec(entry!)?.[1];
    // Entries such as ANTARCTICA "No universal currency" have no code at all.
    if (code === undefined) continue;
    if (units === undefined) throw new Error(`ISO 4217 entry ${code} has no minor units`);
    // A code is listed once per country that uses it: every listing must agree.
    if (minorUnits.has(code) && minorUnits.get(code) !== units) throw new Error(`ISO 4217 lists ${code} with ${minorUnits.get(code)} and ${units} minor units`);
    minorUnits.set(code, units);
  }
  return { published, minorUnits };
}

/** What ISO published between the package's list and the table's (list one of 2025-03-31). */
const AMENDMENTS_SINCE_PACKAGED_LIST = {
  packaged: '2024-06-25',
  added: { XCG: '2' },
  withdrawn: ['ANG', 'CUC'],
};

describe('ISO 4217 minor units', () => {
  const packaged = packagedListOne();

  it('follows a list at least as new as the one the package carries, and names every change in between', () => {
    expect(packaged.published, 'the currency-codes package carries another ISO list: update src/lib/currencies.ts and this spec').toBe(AMENDMENTS_SINCE_PACKAGED_LIST.packaged);
    expect(ISO_4217_LIST_ONE_PUBLISHED >= packaged.published).toBe(true);
  });

  it('gives every currency of ISO list one its minor units, and "N.A." codes none', () => {
    const expected = new Map(packaged.minorUnits);
    for (const code of AMENDMENTS_SINCE_PACKAGED_LIST.withdrawn) expected.delete(code);
    for (const [code, units] of Object.entries(AMENDMENTS_SINCE_PACKAGED_LIST.added)) expected.set(code, units);
    const withMinorUnits = [...expected].filter(([, units]) => units !== 'N.A.');
    expect(withMinorUnits.every(([, units]) => /^[0-4]$/.test(units))).toBe(true);

    expect(Object.fromEntries([...ISO_4217_MINOR_UNITS].map(([code, units]) => [code, String(units)]).sort())).toEqual(Object.fromEntries(withMinorUnits.sort()));
    for (const [code] of [...expected].filter(([, units]) => units === 'N.A.')) expect(isoMinorUnits(code), code).toBeUndefined();
  });

  it.each([
    ['JPY', 0], ['KRW', 0], ['VND', 0], ['ISK', 0], ['CLP', 0], ['XOF', 0],
    ['EUR', 2], ['USD', 2], ['THB', 2], ['COP', 2], ['XCG', 2],
    ['BHD', 3], ['KWD', 3], ['JOD', 3], ['OMR', 3], ['TND', 3], ['IQD', 3], ['LYD', 3],
    ['CLF', 4], ['UYW', 4],
  ] as const)('%s has %i decimals', (code, units) => {
    expect(isoMinorUnits(code)).toBe(units);
  });

  it.each(['XAU', 'XTS', 'XXX', 'XDR', 'ANG', 'CUC', 'XYZ', 'eur', 'EURO', '', 'constructor'])('knows no minor units for %j', (code) => {
    expect(isoMinorUnits(code)).toBeUndefined();
  });
});
