/**
 * The sendbox matchers on `expect` from `@jest/globals` (jest 30's `expect` package). Referenced
 * from dist/src/matchers.d.ts by scripts/cjs-types.mjs; see src/matchers.ts for the other runners.
 */
import type { SendboxMatchers } from './matchers.js'

declare module 'expect' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
  interface Matchers<R extends void | Promise<void>, T = unknown> extends SendboxMatchers<R> {}
}
