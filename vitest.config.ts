import { defineConfig } from 'vitest/config'

const include = [
  'test/**/*.test.ts',
  'test/**/*.test.tsx',
  'src/**/*.test.ts',
  'src/**/*.test.tsx',
  'handlers/**/*.test.ts',
  'examples/**/*.test.ts',
]
const exclude = ['test/consumer/**', '**/node_modules/**']
/**
 * Files that set the environment before their imports so a library reads it at load (chalk's colour
 * level, supports-hyperlinks, is-in-ci): they need modules of their own. Every other file shares its
 * worker's modules (`isolate: false`): a file that starts servers or patches globals undoes it in its
 * own hooks. Measured in docs/decisions/test-isolation.md.
 */
const isolated = ['test/ui/colours.test.tsx', 'test/ui/render-ui.test.tsx']

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Several suites start real servers and child processes: two cores, keep it calm.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'shared', include, exclude: [...exclude, ...isolated], isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolated, exclude } },
    ],
  },
})
