// What a sandbox snapshot means must not change when a currency's decimals do: money is written as
// its decimal string, and a version-1 file (counts of minor units, COP then whole) reads as it was meant.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Money } from '../lib/money.js';
import { StateFile } from './state-file.js';

const directories: string[] = [];

function stateFile(state: unknown = null): StateFile<unknown> {
  const directory = mkdtempSync(path.join(tmpdir(), 'state-file-'));
  directories.push(directory);
  return new StateFile(path.join(directory, 'sandbox.json'), () => state);
}

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('StateFile money', () => {
  const amounts = () => [Money.fromDecimal('50000', 'COP'), Money.fromDecimal('15000', 'CLP'), Money.fromDecimal('2500', 'JPY'), Money.fromDecimal('10.50', 'EUR'), Money.fromDecimal('-0.05', 'EUR')];

  it('writes money as its decimal string and reads it back exactly', () => {
    const file = stateFile({ amounts: amounts() });
    file.save();

    expect(JSON.parse(readFileSync(file.file, 'utf8'))).toEqual({
      version: 2,
      state: { amounts: amounts().map((amount) => ({ $amount: [amount.toDecimal(), amount.currency] })) },
    });
    const loaded = file.load() as { amounts: Money[] };
    expect(loaded.amounts.map((amount, index) => amount.equals(amounts()[index]!))).toEqual([true, true, true, true, true]);
  });

  it('reads a version-1 file\'s minor units with the decimals they were written with: CLP, COP and JPY whole, others in cents', () => {
    const file = stateFile();
    writeFileSync(file.file, JSON.stringify({
      version: 1,
      state: { amounts: [{ $money: ['50000', 'COP'] }, { $money: ['15000', 'CLP'] }, { $money: ['2500', 'JPY'] }, { $money: ['1050', 'EUR'] }, { $money: ['-5', 'EUR'] }] },
    }));

    const loaded = file.load() as { amounts: Money[] };
    expect(loaded.amounts.map((amount, index) => amount.equals(amounts()[index]!))).toEqual([true, true, true, true, true]);
  });
});
