import 'reflect-metadata';

// One PostgreSQL server per worker, when the run is given several (TEST_DATABASE_URLS, comma
// separated; CI gives three, one per worker). The event log's finality follows the oldest snapshot
// on the whole server (docs/kernel.md, "Event log order"), so a file's open transaction would hold
// back another file's events if the two shared a server. A worker runs its files one after
// another, so with a server each, no two files running at once share one. With DATABASE_URL alone,
// all share it.
const servers = (process.env.TEST_DATABASE_URLS ?? '').split(',').filter(Boolean);
if (servers.length > 0) {
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  process.env.DATABASE_URL = servers[(worker - 1) % servers.length];
}
