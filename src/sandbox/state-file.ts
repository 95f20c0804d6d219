// Where a sandbox keeps its state between runs: one JSON snapshot per sandbox under the gateway's
// data directory, replaced atomically (write a temporary file, fsync, rename), so a restart finds
// every pending payment, redirect address, QR code and webhook registration it had, and a crash
// mid-write leaves the previous snapshot whole. Exact values survive the trip: money, bigints and
// dates are written tagged and read back as what they were.

import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../lib/logger.js';
import { Money } from '../lib/money.js';
import { FractionalNumber } from './fractional-number.js';

/**
 * Format of the snapshot; a file of another version is set aside, not misread. Version 2 writes
 * money as its decimal string; version 1 wrote a count of minor units, whose meaning depends on the
 * decimals a currency had then (COP had none), and is still read as it was meant.
 */
const VERSION = 2;
const READABLE_VERSIONS: readonly unknown[] = [1, VERSION];

/** Decimals of version 1's minor units: whole CLP, COP and JPY, two decimals for every other currency. */
function version1Money(minor: string, currency: string): Money {
  const exponent = ['CLP', 'COP', 'JPY'].includes(currency) ? 0 : 2;
  const negative = minor.startsWith('-');
  const digits = (negative ? minor.slice(1) : minor).padStart(exponent + 1, '0');
  const decimal = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
  return Money.fromDecimal(`${negative ? '-' : ''}${decimal}`, currency);
}

function encode(value: unknown): string {
  return JSON.stringify({ version: VERSION, state: value }, function replacer(this: Record<string, unknown>, key: string, item: unknown) {
    // `this[key]` is the value before toJSON: a Date is still a Date here.
    const raw = key === '' ? item : this[key];
    if (raw instanceof Money) return { $amount: [raw.toDecimal(), raw.currency] };
    if (raw instanceof Date) return { $date: Number.isNaN(raw.getTime()) ? null : raw.toISOString() };
    if (typeof raw === 'bigint') return { $bigint: raw.toString() };
    if (raw instanceof FractionalNumber) return { $number: raw.source };
    if (raw instanceof Map) return { $map: [...raw.entries()] };
    return item;
  });
}

function decode(text: string): { version: unknown; state: unknown } {
  return JSON.parse(text, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const tagged = item as Record<string, unknown>;
    const keys = Object.keys(tagged);
    if (keys.length !== 1) return item;
    if ('$amount' in tagged) {
      const [decimal, currency] = tagged.$amount as [string, string];
      return Money.fromDecimal(decimal, currency);
    }
    if ('$money' in tagged) {
      const [minor, currency] = tagged.$money as [string, string];
      return version1Money(minor, currency);
    }
    // encode's form: the ISO text, or null for an invalid date.
    if ('$date' in tagged) return new Date((tagged.$date as string | null) ?? Number.NaN);
    if ('$bigint' in tagged) return BigInt(String(tagged.$bigint));
    if ('$number' in tagged) return new FractionalNumber(String(tagged.$number));
    if ('$map' in tagged) return new Map(tagged.$map as Array<[unknown, unknown]>);
    return item;
  }) as { version: unknown; state: unknown };
}

export class StateFile<T> {
  private scheduled = false;
  private closed = false;

  /**
   * @param file the snapshot's path; its directory is created when missing.
   * @param snapshot returns the state to write, as plain data (Money, Date, bigint and Map allowed).
   */
  constructor(
    readonly file: string,
    private readonly snapshot: () => T,
    private readonly logger?: Logger,
  ) {
    mkdirSync(path.dirname(file), { recursive: true });
  }

  /** The state last saved, or undefined on a first start. An unreadable file is kept aside and reported. */
  load(): T | undefined {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const decoded = decode(text);
      if (!READABLE_VERSIONS.includes(decoded.version)) throw new Error(`snapshot version ${String(decoded.version)}, expected ${READABLE_VERSIONS.join(' or ')}`);
      return decoded.state as T;
    } catch (error) {
      const aside = `${this.file}.unreadable-${Date.now()}`;
      renameSync(this.file, aside);
      this.logger?.warn({ err: error, file: this.file, keptAs: aside }, 'sandbox state unreadable; starting empty');
      return undefined;
    }
  }

  /** Writes the snapshot now: temporary file, fsync, rename over the previous one. */
  save(): void {
    if (this.closed) return;
    this.scheduled = false;
    const temporary = `${this.file}.${process.pid}.tmp`;
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeSync(fd, encode(this.snapshot()));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.file);
  }

  /** Saves once the current turn's changes are all made: many changes in one turn, one write. */
  saveSoon(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      if (!this.scheduled) return;
      try {
        this.save();
      } catch (error) {
        this.logger?.error({ err: error, file: this.file }, 'sandbox state not saved');
      }
    });
  }

  /** Writes what is pending and stops writing. */
  close(): void {
    if (this.closed) return;
    this.save();
    this.closed = true;
  }
}
