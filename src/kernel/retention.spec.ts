// Unit spec of the retention sweep (retention.ts) with no database: the personal data erasers the
// modules register get the cut-off PERSONAL_DATA_RETENTION_MS before the gateway's clock, run in
// batches until one comes back short, after the idempotency keys are purged; the sweep's result
// and its one log line count what each erased and name nothing of it; a second eraser for one
// subject kind is refused.

import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger.js';
import type { IdempotencyLayer } from './idempotency.js';
import { Retention, type ErasePersonalDataOptions, type PersonalDataEraser, type RetentionResult, type RetentionSettings } from './retention.js';

const DAY = 24 * 3_600_000;
const NOW = new Date('2027-03-01T12:00:00.000Z');
const SETTINGS: RetentionSettings = { enabled: true, intervalMs: 3_600_000, batchSize: 3, webhookBodyMs: 30 * DAY, personalDataMs: 90 * DAY };

/** A sweep's world: keys to purge, no webhook bodies due, and every step in the order it ran. */
function setup(settings: RetentionSettings = SETTINGS, onResult?: (result: RetentionResult) => void) {
  const steps: string[] = [];
  const logs: Array<Record<string, unknown>> = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) } });
  let keysLeft = 4;
  const idempotency = {
    purgeExpired: async (_em: SqlEntityManager, limit: number) => {
      steps.push('keys');
      const purged = Math.min(limit, keysLeft);
      keysLeft -= purged;
      return purged;
    },
  } as unknown as IdempotencyLayer;
  // The webhook bodies' erasure is one statement that finds nothing due here.
  const em = { execute: async () => [] } as unknown as SqlEntityManager;
  const retention = new Retention({ idempotency, clock: { now: () => NOW }, logger, settings, ...(onResult ? { onResult } : {}) });
  /** An eraser with `due` payments waiting, which records what it was asked. */
  const eraser = (subject: string, due: number) => {
    const calls: ErasePersonalDataOptions[] = [];
    let left = due;
    const registered: PersonalDataEraser = {
      subject,
      erase: async (_em, options) => {
        steps.push(subject);
        calls.push(options);
        const erased = Math.min(options.limit, left);
        left -= erased;
        return erased;
      },
    };
    retention.register(registered);
    return calls;
  };
  return { retention, em, eraser, steps, logs };
}

describe('Retention sweep: personal data', () => {
  it('asks each registered eraser for the payments final and unchanged for the window, in batches, after the keys are purged', async () => {
    const { retention, em, eraser, steps } = setup();
    const deposits = eraser('deposit', 7);
    const payouts = eraser('payout', 0);

    const result = await retention.sweep(em);

    expect(result).toEqual({ idempotencyKeys: 4, webhookBodies: 0, providerCalls: 0, reconciliationChecks: 0, personalData: { deposit: 7, payout: 0 }, more: false });
    // Keys first, both batches; then the deposits until a batch came back short (3, 3, 1); then the payouts.
    expect(steps).toEqual(['keys', 'keys', 'deposit', 'deposit', 'deposit', 'payout']);
    const cutoff = new Date(NOW.getTime() - 90 * DAY);
    for (const call of [...deposits, ...payouts]) expect(call).toEqual({ changedBefore: cutoff, limit: 3, erasedAt: NOW });
  });

  it('says `more` when an eraser stops at the batch limit, and the next sweep goes on', async () => {
    const { retention, em, eraser, logs } = setup({ ...SETTINGS, batchSize: 1 });
    eraser('payout', 150);

    const first = await retention.sweep(em);
    expect(first.personalData).toEqual({ payout: 100 });
    expect(first.more).toBe(true);
    expect(logs.at(-1)).toMatchObject({ msg: 'retention sweep stopped at its batch limit; the next sweep goes on', more: true });

    const second = await retention.sweep(em);
    expect(second).toMatchObject({ personalData: { payout: 50 }, more: false });
  });

  it('logs one line of counts, and nothing that names a payment', async () => {
    const { retention, em, eraser, logs } = setup();
    eraser('deposit', 2);
    eraser('payout', 1);

    await retention.sweep(em);

    expect(logs).toHaveLength(1);
    const { time: _time, service: _service, ...line } = logs[0]!;
    expect(line).toEqual({
      level: 30,
      idempotencyKeysDeleted: 4,
      webhookBodiesErased: 0,
      providerCallsDeleted: 0,
      reconciliationChecksDeleted: 0,
      personalDataErased: { deposit: 2, payout: 1 },
      more: false,
      msg: 'retention sweep done',
    });
  });

  it('tells its listener every result', async () => {
    const heard: unknown[] = [];
    const { retention, em, eraser } = setup(SETTINGS, (result) => heard.push(result.personalData));
    eraser('deposit', 1);
    await retention.sweep(em);
    expect(heard).toEqual([{ deposit: 1 }]);
  });

  it('refuses a second eraser for one subject kind', () => {
    const { retention, eraser } = setup();
    eraser('deposit', 0);
    expect(() => retention.register({ subject: 'deposit', erase: async () => 0 })).toThrow('Personal data of deposit is already registered for retention');
  });
});
