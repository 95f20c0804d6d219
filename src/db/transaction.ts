// One transaction on an EntityManager of its own, for the hot write paths (a webhook, a job's write).

import type { SqlEntityManager } from '@mikro-orm/postgresql';

/**
 * Runs `work` in one transaction on `em` itself: BEGIN, the work, a flush, COMMIT; ROLLBACK when
 * anything throws (the error is rethrown, and nothing of the work is kept). The guarantees of
 * `em.transactional`, and the same transaction events (the commit relay's signals, the statement
 * count), without the second fork, the async-context bookkeeping and the merge back into `em` it
 * adds around every transaction: about 0.2 ms of CPU each. Meant for a fresh fork (one per
 * request or job); an `em` already in a transaction runs `work` in a savepoint through
 * `em.transactional`, as before.
 */
export async function inTransaction<T>(em: SqlEntityManager, work: (tx: SqlEntityManager) => Promise<T>): Promise<T> {
  if (em.isInTransaction()) return em.transactional(work);
  await em.begin();
  try {
    const result = await work(em);
    await em.commit();
    return result;
  } catch (error) {
    // A failed rollback (a connection already gone) must not hide why the transaction failed.
    if (em.isInTransaction()) await em.rollback().catch(() => undefined);
    throw error;
  }
}
