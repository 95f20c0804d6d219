import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../lib/logger.js';
import { CallRecords, DEFAULT_WINDOW_MS } from './call-records.js';
import type { ProviderCallReport } from './provider-transport.js';

/** An attempt made for deposit `subjectId`, as the provider transport reports it. */
function call(subjectId: string): ProviderCallReport {
  return {
    provider: 'deposit-gateway',
    operation: 'createDeposit',
    outcome: 'success',
    attempt: 1,
    willRetry: false,
    durationMs: 12,
    account: 'dg-test',
    startedAt: new Date('2026-12-07T10:00:00Z'),
    httpStatus: 201,
    error: null,
    subject: { subjectType: 'deposit', subjectId },
    traceId: null,
    summaries: () => ({ request: '{"amount":"25.00"}', response: '{"ok":true}' }),
  };
}

/** The statements a CallRecords sends, and the deposit ids each carries. */
function recorder(options: { windowMs?: number } = {}) {
  const inserts: string[][] = [];
  const execute = vi.fn(async (_sql: string, params: unknown[]) => {
    inserts.push(params.filter((value): value is string => typeof value === 'string' && value.startsWith('dep_')));
    return [];
  });
  const logger = createLogger({ level: 'silent', destination: { write: () => {} } });
  const records = new CallRecords({ logger, fork: () => ({ execute }) as unknown as SqlEntityManager, ...options });
  return { records, inserts };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('CallRecords', () => {
  it('writes the calls recorded within one window in one insert, once the window has passed', async () => {
    vi.useFakeTimers();
    const { records, inserts } = recorder();
    for (const id of ['dep_1', 'dep_2', 'dep_3']) records.recordCall(call(id));
    await vi.advanceTimersByTimeAsync(DEFAULT_WINDOW_MS - 1);
    expect(inserts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(inserts).toEqual([['dep_1', 'dep_2', 'dep_3']]);
  });

  it('writes at once when asked to flush, and leaves no window behind', async () => {
    vi.useFakeTimers();
    const { records, inserts } = recorder();
    records.recordCall(call('dep_1'));
    await records.flush();
    expect(inserts).toEqual([['dep_1']]);
    await vi.advanceTimersByTimeAsync(DEFAULT_WINDOW_MS * 2);
    expect(inserts).toEqual([['dep_1']]);
  });

  it('writes the calls recorded while an insert runs in the next one, after its own window', async () => {
    vi.useFakeTimers();
    const { records, inserts } = recorder();
    records.recordCall(call('dep_1'));
    await vi.advanceTimersByTimeAsync(DEFAULT_WINDOW_MS);
    records.recordCall(call('dep_2'));
    records.recordCall(call('dep_3'));
    await vi.advanceTimersByTimeAsync(DEFAULT_WINDOW_MS);
    expect(inserts).toEqual([['dep_1'], ['dep_2', 'dep_3']]);
  });

  it('with no window, starts each insert at once', async () => {
    const { records, inserts } = recorder({ windowMs: 0 });
    records.recordCall(call('dep_1'));
    await records.flush();
    expect(inserts).toEqual([['dep_1']]);
  });

  it('keeps no call made outside a payment, and writes nothing once closed', async () => {
    const { records, inserts } = recorder();
    records.recordCall({ ...call('dep_1'), subject: undefined });
    await records.close();
    records.recordCall(call('dep_2'));
    await records.flush();
    expect(inserts).toEqual([]);
  });
});
