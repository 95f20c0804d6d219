import { accessSync, constants, statfsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { bothDatabasesGlobs } from './test/database-sets.js';

/**
 * Where tests put their PGlite directories, sandbox state and other scratch files: a RAM-backed
 * tmpfs when the machine has one with room (Linux's /dev/shm; a container's is often 64 MB), else
 * the system's temporary folder. PGlite syncs its files as PostgreSQL does; on a disk every test
 * database's copy and commit waits for it.
 */
function scratchRoot(): string | undefined {
  try {
    accessSync('/dev/shm', constants.W_OK);
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize >= 2 * 1024 ** 3) return '/dev/shm';
  } catch {
    // No tmpfs here (macOS, Windows): the system's temporary folder.
  }
  return undefined;
}

const scratch = process.env.TEST_TMPDIR ?? scratchRoot();

/**
 * TEST_SET=both-databases: only the files whose behaviour can differ between PostgreSQL and PGlite
 * (test/database-sets.ts), for CI's second run on the other database.
 */
const include = process.env.TEST_SET === 'both-databases' ? bothDatabasesGlobs() : ['src/**/*.spec.ts', 'test/**/*.test.ts'];

/**
 * The files that take longest, started first. Vitest orders files by their last run's duration,
 * but a fresh clone has no last run and falls back to file size; a long file started late would
 * hold the run open alone at its end. In the order of their time in a whole `npm test` on PGlite
 * (docs/testing.md), then the ones long on PostgreSQL.
 */
const LONGEST = [
  // `npm start` as a process six times, and on a fresh clone the one build of dist/ first.
  'test/foundation/process.test.ts',
  // PostgreSQL only: the compiled gateway killed and restarted while a sandbox process retries.
  'test/recovery/crash.test.ts',
  // The CLI opening the database some twenty times, and two gateway starts.
  'test/foundation/cli.test.ts',
  // Chromium through a gateway restart.
  'test/examples/cashier-resume.test.ts',
  'test/visibility/one-policy.test.ts',
  'test/notifications/sealed-secrets.test.ts',
  'test/hardening/ws-flood.test.ts',
  // Five gateway starts.
  'test/jobs/follow-up.test.ts',
  'test/foundation/graphiql.test.ts',
  'test/hardening/fuzz.test.ts',
  // Four gateway starts, one of them migrating an empty directory.
  'test/foundation/restart.test.ts',
  'test/notifications/delivery.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = LONGEST.findIndex((file) => spec.moduleId.endsWith(file));
      return index === -1 ? LONGEST.length : index;
    };
    return sorted.map((spec, position) => ({ spec, position })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.position - b.position).map(({ spec }) => spec);
  }
}

export default defineConfig({
  resolve: {
    // graphql 16 ships CommonJS (index.js) and ESM (index.mjs). Node, and so every dependency,
    // loads the CommonJS entry; vite would give our sources the ESM one, and two copies of
    // graphql cannot share a schema. Point vite at the one Node uses.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include,
    setupFiles: ['test/setup.ts'],
    // A migrated PGlite database that each PGlite test database copies (test/support/database.ts).
    globalSetup: ['test/global-setup.ts'],
    env: scratch ? { TMPDIR: scratch } : {},
    // Integration tests start real servers on real databases; PGlite's first start takes seconds.
    // Every wait inside a test is bounded by progress (a status, a row, a metric); these bounds are
    // the backstop for a hang, generous enough that a busy machine (CI beside other work, a laptop)
    // makes a test slower, never red.
    testTimeout: 180_000,
    hookTimeout: 240_000,
    // expect.poll returns as soon as its condition holds; the timeout only says when to give up. A
    // poll that names no timeout gets this one, far above what any condition here takes on a busy
    // machine (a few seconds at most), not vitest's 1 s.
    expect: { poll: { timeout: 30_000 } },
    // Files run in parallel, each against its own database or PGlite directory. Three workers on
    // our two cores on PGlite, whose database runs inside the worker: tests spend part of their time
    // waiting on sandboxes and sockets, and a third keeps both cores busy (the whole suite: 169 s
    // with two, 151 s with three; CI's PGlite step 38 s with three or four). On PostgreSQL a file
    // also waits on a server outside its process, and a fourth worker fills those waits (CI's
    // PostgreSQL step: 110 s with three, the cores a third idle; 97 s with four; 93 s with five).
    maxWorkers: process.env.DATABASE_URL || process.env.TEST_DATABASE_URLS ? 4 : 3,
    pool: 'forks',
    // A worker runs file after file in one process: the gateway's modules (Apollo, MikroORM, PGlite's
    // WebAssembly) load once per worker, not once per file. Files share nothing else: each has its
    // own database and its own gateway.
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
