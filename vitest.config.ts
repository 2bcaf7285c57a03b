import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    pool: 'forks',
    // Tests that start CLI processes take seconds each on a busy 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
