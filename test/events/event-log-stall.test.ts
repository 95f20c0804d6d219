// A transaction of the gateway's own database left open holds committed events back from live
// updates and `events(after:)` (they may not skip its possible late commit): the stall shows in
// /metrics and as a detail of /readyz, which stays ready, and clears once the transaction ends.
// PostgreSQL only: a second session on the gateway's database is PostgreSQL's.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_INPUT } from '../deposits/fixtures.js';
import { CreateDepositMutation } from '../deposits/operations.js';
import type { TestDatabase } from '../support/database.js';
import { execute, metric, startTestGateway, type TestGateway } from '../support/gateway.js';

const UNFINAL_SECONDS = /^gateway_event_log_unfinal_seconds (\S+)$/m;
const UNFINAL_POSITIONS = /^gateway_event_log_unfinal_positions (\S+)$/m;

interface Readiness {
  status: string;
  eventLog: { status: string; unfinalSeconds?: number; unfinalPositions?: number };
}

describe.skipIf(!process.env.DATABASE_URL)("a transaction left open in the gateway's own database", () => {
  let t: TestGateway & { database: TestDatabase };
  beforeAll(async () => {
    t = await startTestGateway({ env: { EVENT_LOG_STALLED_AFTER_MS: '100' } });
  });
  afterAll(() => t?.close());

  async function readiness(): Promise<{ httpStatus: number; body: Readiness }> {
    const response = await fetch(`${t.gateway.url}/readyz`);
    return { httpStatus: response.status, body: (await response.json()) as Readiness };
  }

  it('shows as a stalled event log in /metrics and /readyz, which stays ready, until it ends', async () => {
    // given: the log is final, and a session of the gateway's database opens a transaction that takes an id
    await expect.poll(async () => (await readiness()).body.eventLog.status).toBe('current');
    const session = new pg.Client({ connectionString: t.database.env.DATABASE_URL });
    await session.connect();
    try {
      await session.query('begin');
      await session.query('select pg_current_xact_id()');

      // when: a deposit commits its events after it
      const created = await execute(t.gateway.graphqlUrl, CreateDepositMutation, { input: CARD_INPUT }, { key: t.keys.webCashier });
      expect(created.errors).toBeUndefined();
      expect(created.data!.createDeposit.userErrors).toEqual([]);

      // then: readiness reports the stall past EVENT_LOG_STALLED_AFTER_MS, and stays ready
      await expect.poll(async () => (await readiness()).body.eventLog.status).toBe('stalled');
      const stalled = await readiness();
      expect(stalled.httpStatus).toBe(200);
      expect(stalled.body.status).toBe('ready');
      expect(stalled.body.eventLog.unfinalSeconds).toBeGreaterThan(0);
      expect(stalled.body.eventLog.unfinalPositions).toBeGreaterThanOrEqual(1);
      // ... and the gauges show how far and how long
      expect(await metric(t, UNFINAL_SECONDS)).toBeGreaterThan(0);
      expect(await metric(t, UNFINAL_POSITIONS)).toBeGreaterThanOrEqual(1);

      // when: the transaction ends
      await session.query('commit');

      // then: every committed event becomes final, and both say so
      // (read together: the deposit's later changes, its fee and net, may still be committing)
      await expect
        .poll(async () => ({ readiness: (await readiness()).body.eventLog, seconds: await metric(t, UNFINAL_SECONDS), positions: await metric(t, UNFINAL_POSITIONS) }))
        .toEqual({ readiness: { status: 'current', unfinalSeconds: 0, unfinalPositions: 0 }, seconds: 0, positions: 0 });
    } finally {
      await session.query('rollback').catch(() => undefined);
      await session.end();
    }
  });
});
