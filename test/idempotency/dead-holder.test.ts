// A key whose holder died is taken over at once: a request re-sent after its gateway was killed is
// answered as soon as another instance (or the restarted one) gets it, not after the dead holder's
// lease. A holder that still runs keeps its key however long it works. On PostgreSQL an instance's
// liveness is its session lock (src/db/instance-lock.ts), and "killing" one here ends its session
// as a dead process's would end; on PGlite any holder but this process is an earlier process.

import { describe, expect, it } from 'vitest';
import { InstanceLock, type InstanceIdentity } from '../../src/db/instance-lock.js';
import { IdempotencyLayer, type Claim, type OwnedClaim } from '../../src/kernel/idempotency.js';
import { newId } from '../../src/lib/ids.js';
import { createLogger } from '../../src/lib/logger.js';
import { databaseForFile } from '../support/database.js';

const file = databaseForFile();
const silent = createLogger({ level: 'silent' });
/** An hour: were a dead holder's lease waited out, these tests would time out long before. */
const LEASE_MS = 3_600_000;

async function startedLayer(instance: InstanceIdentity): Promise<IdempotencyLayer> {
  const layer = new IdempotencyLayer({ leaseMs: LEASE_MS, logger: silent });
  await layer.start((channel, handler) => file.db.listen(channel, handler), instance);
  return layer;
}

/** Another instance on the database, alive until `kill()`: a session lock on PostgreSQL; on PGlite, an earlier process (already gone). */
async function otherInstance(): Promise<{ identity: InstanceIdentity; kill(): Promise<void> }> {
  if (file.db.kind === 'pglite') return { identity: { id: file.db.instance.id + 1, liveness: 'this-process' }, kill: async () => undefined };
  const lock = await InstanceLock.acquire(file.database.env.DATABASE_URL!, {}, silent);
  return { identity: lock, kill: () => lock.close() };
}

const scope = (key: string) => ({ clientId: 'cli_dead_holder', key, operation: 'payout' as const, fingerprint: 'b'.repeat(64) });

function owned(claim: Claim): OwnedClaim {
  if (claim.kind !== 'owned') throw new Error(`expected to own the key, got ${claim.kind}`);
  return claim;
}

/** Records a subject under the claim, as a money operation does in the transaction that writes it. */
async function recordSubject(layer: IdempotencyLayer, claim: OwnedClaim): Promise<string> {
  const subjectId = newId('job');
  await file.db.fork().transactional(async (tx) => {
    await tx.execute("insert into job (id, kind, payload, status, attempts, max_attempts, run_at, created_at, updated_at) values (?, 'test.subject', '{}', 'succeeded', 0, 1, now(), now(), now())", [subjectId]);
    await layer.attach(tx, claim, subjectId);
  });
  return subjectId;
}

/** How many times requests have read the key (each wait ends in a read), from the statements sent. */
function keyReads(): { count(): number; stop(): void } {
  let reads = 0;
  const stop = file.db.watchQueries((sql) => {
    if (sql.includes('as holder_gone')) reads += 1;
  });
  return { count: () => reads, stop };
}

describe('an idempotency key whose holder', () => {
  it('is gone is taken over at once, and the later request resumes the subject the holder recorded', async () => {
    // given: an instance claims a key for an hour, records its subject, and dies before answering
    const other = await otherInstance();
    const holder = await startedLayer(other.identity);
    const first = owned(await holder.claim(file.db.fork(), scope('holder-died')));
    const subjectId = await recordSubject(holder, first);
    await other.kill();

    // when: the request is sent again, to this instance
    const later = owned(await (await startedLayer(file.db.instance)).claim(file.db.fork(), scope('holder-died')));

    // then: it holds the key now, resuming the subject
    expect(later).toMatchObject({ attempt: first.attempt + 1, subjectId });
  });

  it.skipIf(!process.env.DATABASE_URL)('still runs keeps it; once its process is gone, the waiting request takes it over', async () => {
    // given: a live instance holds the key
    const other = await otherInstance();
    const holder = await startedLayer(other.identity);
    const first = owned(await holder.claim(file.db.fork(), scope('holder-alive')));

    // when: another request under the key comes, and has looked at the key twice
    const reads = keyReads();
    let settled = false;
    const waiting = (await startedLayer(file.db.instance)).claim(file.db.fork(), scope('holder-alive')).finally(() => (settled = true));
    await expect.poll(() => reads.count()).toBeGreaterThanOrEqual(2);

    // then: it still waits; and when the holder's process is gone, it takes the key over
    expect(settled).toBe(false);
    await other.kill();
    expect(owned(await waiting)).toMatchObject({ attempt: first.attempt + 1, subjectId: null });
    reads.stop();
  });

  it('is this very instance is never taken over by its own requests: they wait for its answer', async () => {
    // given: this instance holds a key
    const layer = await startedLayer(file.db.instance);
    const first = owned(await layer.claim(file.db.fork(), scope('holder-self')));

    // when: the same request comes again to this instance, and has looked at the key
    const reads = keyReads();
    let settled = false;
    const waiting = layer.claim(file.db.fork(), scope('holder-self')).finally(() => (settled = true));
    await expect.poll(() => reads.count()).toBeGreaterThanOrEqual(1);
    await file.db.fork().execute('select 1');

    // then: it waits for the holder's answer (the key still at the holder's attempt), and gets it
    expect(settled).toBe(false);
    expect(await file.db.fork().execute("select attempt from idempotency_key where key = 'holder-self'")).toEqual([{ attempt: first.attempt }]);
    await layer.finish(file.db.fork(), first, '{"answer":1}', true);
    expect(await waiting).toEqual({ kind: 'replay', response: '{"answer":1}' });
    reads.stop();
  });
});
