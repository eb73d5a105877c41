/*
 * The server suites against the threaded transport (issue 15): the same tests, with their
 * imports of src/transports/http-server.js answered by test/threaded-as-default.ts, whose
 * startServer runs HTTP on a worker thread.
 *   npx vitest run --config vitest.threaded.config.ts
 */
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import base from './vitest.config.js'

const shim = fileURLToPath(new URL('./test/threaded-as-default.ts', import.meta.url))

export default defineConfig({
  ...base,
  plugins: [
    {
      name: 'threaded-transport',
      enforce: 'pre',
      resolveId(source, importer) {
        if (
          importer?.includes('/test/') &&
          importer !== shim &&
          /\/src\/transports\/http-server(\.js|\.ts)?$/.test(source)
        )
          return shim
        return undefined
      },
    },
  ],
  test: {
    ...base.test,
    include: [
      'test/api/**/*.test.ts',
      'test/abuse/**/*.test.ts',
      'test/fuzz/**/*.test.ts',
      'test/browser/cors.test.ts',
      'test/isolation/**/*.test.ts',
      'test/concurrency/**/*.test.ts',
    ],
  },
})
