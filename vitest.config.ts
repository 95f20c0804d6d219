import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.spec.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    // Integration tests start real servers on real databases; PGlite's first start takes seconds.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: files run in parallel, each against its own database schema or PGlite directory.
    maxWorkers: 2,
    pool: 'forks',
  },
});
