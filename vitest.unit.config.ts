import { defineConfig } from 'vitest/config';

/**
 * The kernel tier (`npm run test:unit`): the unit specs beside the code (`src/**\/*.spec.ts`), run
 * with no database and no gateway: no global setup (it prepares the PGlite template), no
 * test/setup.ts (it picks a PostgreSQL server per worker), no DATABASE_URL read. The first step of
 * CI: it takes seconds. `npm test` (vitest.config.ts) runs these specs too, with the integration
 * tests under test/.
 *
 * Two specs start a node:http server of their own on 127.0.0.1 (src/server/drain.spec.ts,
 * src/lib/outbound/post.spec.ts, which also makes a certificate with openssl when it finds one):
 * in-process, with nothing to run beforehand, so they belong here.
 */
export default defineConfig({
  resolve: {
    // As in vitest.config.ts: the one copy of graphql that Node and every dependency load.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['src/**/*.spec.ts'],
    exclude: [
      // Runs the visibility policy's SQL filter on a real event log table (test/support/database.ts):
      // an integration test by what it needs, run by `npm test` alone.
      'src/kernel/visibility.spec.ts',
    ],
    // Type-graphql's and MikroORM's decorators read the metadata this polyfill records.
    setupFiles: ['reflect-metadata'],
    // Files share their workers' loaded modules (as in vitest.config.ts): each file's own imports
    // (MikroORM, graphql, the providers) cost more than its tests. No spec here mocks a module or
    // changes the environment, so nothing leaks from one file into the next.
    pool: 'threads',
    isolate: false,
    // The property specs run thousands of cases; on a busy machine (CI beside other work) one can
    // take more than vitest's 5 s. This bound is a backstop for a hang, never a speed check.
    testTimeout: 60_000,
  },
});
