import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from './logger.js';
import { SummarisedLog } from './summarised-log.js';

function logged(): { lines: Array<Record<string, unknown>>; log: SummarisedLog } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(...chunk.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)), done()) });
  return { lines, log: new SummarisedLog(createLogger({ level: 'info', destination }), 'authentication failed', 60_000) };
}

describe('SummarisedLog', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('logs the first of each reason at once with its fields, then one count of the rest when the minute ends', () => {
    const { lines, log } = logged();
    log.note('invalid', { transport: 'http' });
    log.note('expired');
    expect(lines).toMatchObject([
      { level: 40, reason: 'invalid', transport: 'http', msg: 'authentication failed' },
      { level: 40, reason: 'expired', msg: 'authentication failed' },
    ]);
    for (let i = 0; i < 10_000; i += 1) log.note(i % 10 === 0 ? 'expired' : 'invalid');
    expect(lines).toHaveLength(2);
    vi.advanceTimersByTime(60_000);
    expect(lines.slice(2).sort((a, b) => String(a.reason).localeCompare(String(b.reason)))).toMatchObject([
      { level: 40, reason: 'expired', repeated: 1_000, msg: 'authentication failed (repeated)' },
      { level: 40, reason: 'invalid', repeated: 9_000, msg: 'authentication failed (repeated)' },
    ]);
    // Nothing more to say: no further line.
    vi.advanceTimersByTime(600_000);
    expect(lines).toHaveLength(4);
  });

  it('writes at most two lines a minute for a reason however often it comes, and counts every one', () => {
    const { lines, log } = logged();
    for (let i = 0; i < 600; i += 1) {
      log.note('invalid');
      vi.advanceTimersByTime(500);
    }
    log.flush();
    // Five minutes of a failure every half second.
    expect(lines.length).toBeLessThanOrEqual(10);
    expect(lines.reduce((sum, line) => sum + (typeof line.repeated === 'number' ? line.repeated : 1), 0)).toBe(600);
  });

  it('logs a reason again at once after a quiet minute', () => {
    const { lines, log } = logged();
    log.note('expired');
    vi.advanceTimersByTime(61_000);
    log.note('expired');
    expect(lines.map((line) => line.msg)).toEqual(['authentication failed', 'authentication failed']);
  });
});
