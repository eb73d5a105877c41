import { useMemo, useSyncExternalStore } from 'react'

/** How often, at most, a store change reaches React: ~10 redraws a second. */
export const STORE_INTERVAL_MS = 100

/**
 * Wraps a store's `subscribe` so its listener fires at most once per `intervalMs`, and never
 * synchronously: the request that changed the store (a capture inside a handler) returns before
 * the UI renders, and a burst of 1,000 sends costs ~10 renders, not 1,000.
 *
 * @example
 * const subscribe = throttleSubscribe(outbox.subscribe, 100)
 * const unsubscribe = subscribe(() => render())
 */
export function throttleSubscribe(subscribe: (listener: () => void) => () => void, intervalMs = STORE_INTERVAL_MS) {
  return (listener: () => void): (() => void) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    let lastFired = -Infinity
    const fire = () => {
      timer = undefined
      lastFired = performance.now()
      listener()
    }
    const unsubscribe = subscribe(() => {
      if (timer !== undefined) return // a notification is already due: it will read the newest snapshot
      const wait = Math.max(0, lastFired + intervalMs - performance.now())
      timer = setTimeout(fire, wait)
    })
    return () => {
      unsubscribe()
      if (timer !== undefined) clearTimeout(timer)
    }
  }
}

/**
 * `useSyncExternalStore` over a domain store (outbox, journal) with batched notifications.
 * The snapshot must be a stable reference until the store changes (the domain's `snapshot()`
 * guarantees it), or React would re-render forever.
 */
export function useThrottledStore<T>(
  subscribe: (listener: () => void) => () => void,
  getSnapshot: () => T,
  intervalMs = STORE_INTERVAL_MS,
): T {
  const throttled = useMemo(() => throttleSubscribe(subscribe, intervalMs), [subscribe, intervalMs])
  return useSyncExternalStore(throttled, getSnapshot)
}
