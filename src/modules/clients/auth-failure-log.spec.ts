import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../lib/logger.js';
import { AuthFailureLog } from './auth-failure-log.js';

function logged(): { lines: Array<Record<string, unknown>>; log: AuthFailureLog } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(...chunk.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)), done()) });
  return { lines, log: new AuthFailureLog(createLogger({ level: 'info', destination }), 60_000) };
}

describe('AuthFailureLog', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('logs the first failure at once, then one summary of the rest when the minute ends, by reason', () => {
    const { lines, log } = logged();
    log.note('invalid');
    expect(lines).toMatchObject([{ level: 40, reason: 'invalid', msg: expect.stringMatching(/^authentication failed/) }]);
    for (let i = 0; i < 10_000; i += 1) log.note(i % 10 === 0 ? 'expired' : i % 10 === 1 ? 'malformed' : 'invalid');
    expect(lines).toHaveLength(1);
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ level: 40, failures: 10_000, invalid: 8_000, expired: 1_000, malformed: 1_000 });
    // Nothing more to say: no further line.
    vi.advanceTimersByTime(600_000);
    expect(lines).toHaveLength(2);
  });

  it('writes at most two lines a minute however failures arrive, and says what is left at close', () => {
    const { lines, log } = logged();
    for (let minute = 0; minute < 5; minute += 1) {
      for (let i = 0; i < 100; i += 1) {
        log.note('invalid', Date.now());
        vi.advanceTimersByTime(500);
      }
      vi.advanceTimersByTime(10_000);
    }
    // 5 × 60 s of failures, every half second: never more than two lines in any minute.
    expect(lines.length).toBeLessThanOrEqual(12);
    const total = lines.reduce((sum, line) => sum + (typeof line.failures === 'number' ? line.failures : 1), 0);
    log.flush();
    const after = lines.reduce((sum, line) => sum + (typeof line.failures === 'number' ? line.failures : 1), 0);
    expect(total).toBeLessThanOrEqual(500);
    expect(after).toBe(500);
  });

  it('logs a failure after a quiet minute at once again', () => {
    const { lines, log } = logged();
    log.note('expired');
    vi.advanceTimersByTime(61_000);
    log.note('malformed');
    expect(lines.map((line) => line.reason)).toEqual(['expired', 'malformed']);
  });
});
