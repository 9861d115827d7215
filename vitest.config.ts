import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    environment: 'node',
    include: ['app/**/*.test.{ts,tsx}', 'server/**/*.test.ts'],
    globalSetup: ['tests/setup/template-database.ts'],
    setupFiles: ['tests/setup/env.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    // Test files share their worker's modules (each still opens its own database and sets its
    // own configuration): importing the app once per worker instead of once per file halves
    // the suite's time. Spies are restored by the tests that make them.
    isolate: false,
  },
})
