import { useMemo } from 'react'
import type { JournalEntry } from '../../../domain/journal.js'
import type { CapturedMessage } from '../../../domain/outbox.js'
import type { SandboxState } from '../../../domain/sandbox.js'
import type { ConsoleCapture } from '../console-capture.js'
import { useThrottledStore } from './use-throttled-store.js'

/** Everything live the UI shows, as one snapshot. */
export interface SandboxFeed {
  /** The outbox, newest first. */
  messages: readonly CapturedMessage[]
  /** The request journal, newest first (it also moves every key's rate-limit use). */
  requests: readonly JournalEntry[]
  /** Console lines diverted while the UI runs. */
  consoleLines: readonly string[]
}

const NO_LINES: readonly string[] = []

/**
 * The outbox, the journal and diverted console output behind ONE throttled subscription. A send
 * changes both the outbox and the journal; separate subscriptions would each redraw, and three
 * stores at 10 updates a second would be 30 redraws. One subscription keeps it at ~10.
 */
export function useSandboxFeed(sandbox: SandboxState, captured?: ConsoleCapture): SandboxFeed {
  const store = useMemo(() => {
    let last: SandboxFeed | undefined
    return {
      subscribe(listener: () => void) {
        const off = [
          sandbox.outbox.subscribe(listener),
          sandbox.journal.subscribe(listener),
          captured?.subscribe(listener),
        ]
        return () => {
          for (const unsubscribe of off) unsubscribe?.()
        }
      },
      snapshot(): SandboxFeed {
        const messages = sandbox.outbox.snapshot()
        const requests = sandbox.journal.snapshot()
        const consoleLines = captured?.lines() ?? NO_LINES
        if (last && last.messages === messages && last.requests === requests && last.consoleLines === consoleLines)
          return last
        last = { messages, requests, consoleLines }
        return last
      },
    }
  }, [sandbox, captured])
  return useThrottledStore(store.subscribe, store.snapshot)
}
