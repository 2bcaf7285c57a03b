import { defineConfig } from 'vitest/config';
import { apiRoutes } from './packages/web/api-routes-plugin.js';

export default defineConfig({
  // The web app's typed client reads the contract's routes from a module the build makes.
  plugins: [apiRoutes()],
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    pool: 'forks',
    // Tests that start CLI processes take seconds each on a busy 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // What a browser test waits for (a write answered, a row redrawn) may take seconds there too.
    expect: { poll: { timeout: 10_000 } },
  },
});
