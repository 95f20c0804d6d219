import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql 16 ships CommonJS (index.js) and ESM (index.mjs). Node, and so every dependency,
    // loads the CommonJS entry; vite would give our sources the ESM one, and two copies of
    // graphql cannot share a schema. Point vite at the one Node uses.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['src/**/*.spec.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    // A migrated PGlite database that each PGlite test database copies (test/support/database.ts).
    globalSetup: ['test/global-setup.ts'],
    // Integration tests start real servers on real databases; PGlite's first start takes seconds.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: files run in parallel, each against its own database schema or PGlite directory.
    maxWorkers: 2,
    pool: 'forks',
  },
});
