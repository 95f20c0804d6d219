import 'reflect-metadata';

// The workers spread over the PostgreSQL servers a run is given (TEST_DATABASE_URLS, comma
// separated; CI gives three to its four workers, the fourth sharing the first's). A worker runs its
// files one after another. With DATABASE_URL alone, all share it: each
// file has a database of its own, and the event log's finality counts only the transactions of its
// own database (docs/kernel-reference.md, "Event log order"), so files on one server do not hold back each
// other's events.
const servers = (process.env.TEST_DATABASE_URLS ?? '').split(',').filter(Boolean);
if (servers.length > 0) {
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  process.env.DATABASE_URL = servers[(worker - 1) % servers.length];
}
