import 'reflect-metadata';

// One PostgreSQL server per worker, when the run is given several (TEST_DATABASE_URLS, comma
// separated; CI gives three, one per worker). A worker runs its files one after another, so with a
// server each, no two files running at once share one. With DATABASE_URL alone, all share it: each
// file has a database of its own, and the event log's finality counts only the transactions of its
// own database (docs/kernel-reference.md, "Event log order"), so files on one server do not hold back each
// other's events.
const servers = (process.env.TEST_DATABASE_URLS ?? '').split(',').filter(Boolean);
if (servers.length > 0) {
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  process.env.DATABASE_URL = servers[(worker - 1) % servers.length];
}
