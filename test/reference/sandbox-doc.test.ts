// The sandbox cheat sheet cannot rot: docs/sandbox.md is what `npm run docs:reference` generates
// from the code, every card it lists does at the sandbox's card processor what it says, and every
// minimum and maximum it states is where the gateway's validation starts refusing.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/docs/reference.js';
import { RAIL_PAGES } from '../../src/docs/rails.js';
import { sandboxPage } from '../../src/docs/sandbox.js';
import { Money } from '../../src/lib/money.js';
import { readCard } from '../../src/sandbox/deposit-gateway/card-processor.js';
import { DEFAULT_CARD_BRANDS } from '../../src/sandbox/deposit-gateway/hosted.js';

const root = path.resolve(import.meta.dirname, '../..');
const page = await readFile(path.join(root, 'docs/sandbox.md'), 'utf8');

/** The rows of the markdown table under `heading`, as cells (backticks kept). */
function table(heading: string): string[][] {
  const start = page.indexOf(`${heading}\n`);
  expect(start, `docs/sandbox.md has a section "${heading}"`).toBeGreaterThanOrEqual(0);
  // The first table after the heading: the rows after its header, up to the first line that is not one.
  const lines = page.slice(start).split('\n');
  const header = lines.findIndex((line) => line.startsWith('| '));
  const body: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('| ')) break;
    body.push(line);
  }
  expect(body.length).toBeGreaterThan(0);
  return body.map((line) => line.slice(2, -2).split(' | ').map((value) => value.trim()));
}

/** An exact decimal amount moved by `cents` hundredths, as text (no float). */
function shifted(amount: string, cents: bigint): string {
  const [whole, fraction = ''] = amount.split('.');
  const total = BigInt(whole!) * 100n + BigInt((fraction + '00').slice(0, 2)) + cents;
  return `${total / 100n}.${(total % 100n).toString().padStart(2, '0')}`;
}

describe('docs/sandbox.md', () => {
  it('is what npm run docs:reference generates from the code', () => {
    expect(page, 'docs/sandbox.md is stale: run npm run docs:reference').toBe(sandboxPage());
  });

  it('lists test cards that do what it says at the sandbox\'s card processor', () => {
    const rows = table('### Deposit gateway: test cards');
    const now = new Date();
    const brands = DEFAULT_CARD_BRANDS.split(' ');
    const card = (number: string, amount: string, expiry = '12/39') =>
      readCard(new URLSearchParams({ card_number: number, card_expiry: expiry, card_cvv: '123' }), Money.fromDecimal(amount, 'EUR'), brands, now);
    let numbers = 0;
    for (const [number, outcome, reason] of rows) {
      const digits = /^`([\d ]+)`/.exec(number!)?.[1];
      if (!digits) {
        // The one row without a number: a card past its expiry date.
        expect(number).toBe('any card with a past expiry date');
        expect(card('4242424242424242', '25.00', '01/20')).toMatchObject({ ok: true, authorization: { outcome: 'declined', declineReason: 'expired_card' } });
        continue;
      }
      numbers++;
      if (outcome!.startsWith('SUCCEEDED')) {
        expect(card(digits, '25.00'), digits).toMatchObject({ ok: true, authorization: { outcome: 'approved' } });
        // "unless the amount ends in .13"
        const suffix = /ends in `([^`]+)`/.exec(outcome!)![1]!;
        expect(card(digits, `10${suffix}`), digits).toMatchObject({ ok: true, authorization: { outcome: 'declined' } });
      } else {
        expect(outcome).toBe('DECLINED');
        expect(card(digits, '25.00'), digits).toMatchObject({ ok: true, authorization: { outcome: 'declined', declineReason: reason!.replaceAll('`', '') } });
      }
    }
    expect(numbers).toBeGreaterThanOrEqual(9);
  });

  it('states each rail\'s minimum and maximum where the gateway starts refusing', () => {
    const rows = table('## Amounts per rail');
    expect(rows.map(([rail]) => /`([A-Z_]+)`/.exec(rail!)![1])).toEqual(RAIL_PAGES.map((railPage) => railPage.rail));
    let bounds = 0;
    for (const [rail, amount] of rows) {
      const railPage = RAIL_PAGES.find((candidate) => rail!.includes(`\`${candidate.rail}\``))!;
      const example = railPage.examples[0]!;
      const codes = (value: string) => validate(railPage, { ...example.input, amount: value }).map((problem) => problem.code);
      const range = /(\d+(?:\.\d+)?) to (\d+(?:\.\d+)?)/.exec(amount!);
      const from = /^from (\d+(?:\.\d+)?)/.exec(amount!);
      const min = range?.[1] ?? from?.[1];
      const max = range?.[2];
      if (min === undefined) {
        expect(amount).toBe('no minimum or maximum in the provider\'s spec');
        expect(codes('0.01'), `${railPage.rail} 0.01`).not.toContain('AMOUNT_BELOW_MINIMUM');
        continue;
      }
      bounds++;
      expect(codes(min), `${railPage.rail} at its minimum ${min}`).toEqual([]);
      expect(codes(shifted(min, -1n)), `${railPage.rail} just below ${min}`).toContain('AMOUNT_BELOW_MINIMUM');
      if (max !== undefined) {
        expect(codes(max), `${railPage.rail} at its maximum ${max}`).toEqual([]);
        expect(codes(shifted(max, 1n)), `${railPage.rail} just above ${max}`).toContain('AMOUNT_ABOVE_MAXIMUM');
      }
    }
    expect(bounds).toBeGreaterThanOrEqual(5);
  });
});
