/**
 * The event loop's next turn, for work the sandbox spreads over turns (a large email's derivation,
 * big answers' writes, the store's flushes). Node's own `setImmediate` from node:timers, not the
 * global one: a test's fake timers (vitest's and Jest's replace the global) would hold that work
 * until the test advanced them, and an in-process send of an email over 64 KB never answered.
 * Through `process.getBuiltinModule`: the library entry has no static import of a node: module
 * but msw's and node:http. In a browser (setupWorker), which has no setImmediate, a zero-delay
 * timeout.
 */
type Timers = typeof import('node:timers')
const timers = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
  'node:timers',
) as Timers | undefined

/** Calls `callback` in the event loop's next turn, after the I/O that waited. */
export const immediate: (callback: () => void) => void = timers
  ? (callback) => void timers.setImmediate(callback)
  : (callback) => void setTimeout(callback, 0)

/** Resolves in the event loop's next turn ({@link immediate}). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => immediate(resolve))
