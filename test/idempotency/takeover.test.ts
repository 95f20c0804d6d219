// One key, one subject, with no unique index on the subjects' tables to fall back on: a request
// whose lease ran out and whose key a later request took over cannot record a subject of its own
// (its transaction rolls back), and a takeover that comes while it records waits and resumes what
// it recorded.

import { describe, expect, it } from 'vitest';
import { IdempotencyLayer, type OwnedClaim } from '../../src/kernel/idempotency.js';
import { newId } from '../../src/lib/ids.js';
import { createLogger } from '../../src/lib/logger.js';
import { databaseForFile } from '../support/database.js';

const file = databaseForFile();

/** A layer whose leases run out after `leaseMs`, as an instance's would. */
const layer = (leaseMs: number) => new IdempotencyLayer({ leaseMs, logger: createLogger({ level: 'silent' }) });

const scope = (key: string) => ({ clientId: 'cli_takeover', key, operation: 'deposit' as const, fingerprint: 'a'.repeat(64) });

async function owned(claimed: Promise<Awaited<ReturnType<IdempotencyLayer['claim']>>>): Promise<OwnedClaim> {
  const claim = await claimed;
  if (claim.kind !== 'owned') throw new Error(`expected to own the key, got ${claim.kind}`);
  return claim;
}

/** Records a subject as a money operation does: a row written, and attached to the key, in one transaction. */
async function record(layerOf: IdempotencyLayer, claim: OwnedClaim, subjectId: string): Promise<void> {
  await file.db.fork().transactional(async (tx) => {
    await tx.execute("insert into job (id, kind, payload, status, attempts, max_attempts, run_at, created_at, updated_at) values (?, 'test.subject', '{}', 'succeeded', 0, 1, now(), now(), now())", [subjectId]);
    await layerOf.attach(tx, claim, subjectId);
  });
}

const subjects = async (ids: string[]) => (await file.db.fork().execute<Array<{ id: string }>>(`select id from job where id in (${ids.map(() => '?').join(', ')})`, ids)).map((row) => row.id);
const subjectOf = async (key: string) => (await file.db.fork().execute<Array<{ subject_id: string | null }>>('select subject_id from idempotency_key where key = ?', [key]))[0]?.subject_id;

describe('a key taken over while its first request had not recorded its subject', () => {
  it('keeps the later request\'s subject: the first one\'s record rolls back', async () => {
    // given: A holds the key with a short lease and stalls before recording; B takes it over
    const a = layer(200);
    const b = layer(60_000);
    const first = await owned(a.claim(file.db.fork(), scope('taken-over')));
    const later = await owned(b.claim(file.db.fork(), scope('taken-over')));
    expect(later.attempt).toBe(first.attempt + 1);
    const [subjectOfA, subjectOfB] = [newId('job'), newId('job')];
    await record(b, later, subjectOfB);

    // when: A wakes up and records its own subject
    await expect(record(a, first, subjectOfA)).rejects.toThrow(/IDEMPOTENCY_KEY_TAKEN_OVER/);

    // then: one subject for the key, B's; A's row never committed
    expect(await subjectOf('taken-over')).toBe(subjectOfB);
    expect(await subjects([subjectOfA, subjectOfB])).toEqual([subjectOfB]);
  });

  it('lets a takeover that comes while the first request records wait for it, then resume its subject', async () => {
    // given: A's lease has run out, and nobody has taken the key yet
    const a = layer(200);
    const first = await owned(a.claim(file.db.fork(), scope('recorded-first')));
    const expired = async () => (await file.db.fork().execute<Array<{ expired: boolean }>>("select locked_until <= now() as expired from idempotency_key where key = 'recorded-first'"))[0]?.expired;
    await expect.poll(expired, { interval: 20 }).toBe(true);
    const subjectOfA = newId('job');
    let takeover: Promise<OwnedClaim> | undefined;

    // when: A records its subject, and B claims the key once A's transaction holds its row
    await file.db.fork().transactional(async (tx) => {
      await tx.execute("insert into job (id, kind, payload, status, attempts, max_attempts, run_at, created_at, updated_at) values (?, 'test.subject', '{}', 'succeeded', 0, 1, now(), now(), now())", [subjectOfA]);
      await a.attach(tx, first, subjectOfA);
      takeover = owned(layer(60_000).claim(file.db.fork(), scope('recorded-first')));
    });

    // then: B owns the key and resumes A's subject
    const later = await takeover!;
    expect(later.subjectId).toBe(subjectOfA);
    expect(await subjectOf('recorded-first')).toBe(subjectOfA);
  });
});
