import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    exclude: ['test/consumer/**', '**/node_modules/**'],
    include: [
      'test/**/*.test.ts',
      'test/**/*.test.tsx',
      'src/**/*.test.ts',
      'src/**/*.test.tsx',
      'handlers/**/*.test.ts',
      'examples/**/*.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Several suites start real servers and child processes: two cores, keep it calm.
    maxWorkers: 2,
  },
})
