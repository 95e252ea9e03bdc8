import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A throwaway PostgreSQL cluster (or DATABASE_URL) for the tests that run on both engines.
    globalSetup: ['test/helpers/postgres/global-setup.ts'],
    // Documents print local times (document-time.ts): one zone makes their text repeatable.
    env: { TZ: 'UTC' },
  },
});
