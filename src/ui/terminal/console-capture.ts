import { format } from 'node:util'

/** Console lines kept while the UI runs: enough to explain a problem, never unbounded. */
const MAX_LINES = 50

type Method = 'log' | 'info' | 'warn' | 'error' | 'debug'
const METHODS: readonly Method[] = ['log', 'info', 'warn', 'error', 'debug']

/** Console output diverted while the UI owns the screen. */
export interface ConsoleCapture {
  /** Lines captured, oldest first (at most {@link MAX_LINES}). */
  lines(): readonly string[]
  /** How many lines were written in total, including those no longer kept. */
  count(): number
  subscribe(listener: () => void): () => void
  /** Puts the console back and returns what was captured, to print once the screen is restored. */
  restore(): readonly string[]
}

/**
 * Diverts `console.*` while the UI runs. The server reports unexpected failures with
 * `console.error`; written straight to the terminal they would tear through Ink's frame, so the
 * UI shows them in its footer instead and they are printed for good after it exits.
 */
export function captureConsole(target: Console = console): ConsoleCapture {
  const originals = new Map<Method, Console[Method]>()
  const kept: string[] = []
  const listeners = new Set<() => void>()
  let total = 0
  let snapshot: readonly string[] = []
  for (const method of METHODS) {
    originals.set(method, target[method])
    target[method] = (...args: unknown[]) => {
      total++
      kept.push(format(...args))
      if (kept.length > MAX_LINES) kept.shift()
      snapshot = [...kept]
      for (const listener of listeners) listener()
    }
  }
  return {
    lines: () => snapshot,
    count: () => total,
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    restore() {
      for (const [method, original] of originals) target[method] = original as never
      originals.clear()
      listeners.clear()
      return snapshot
    },
  }
}
