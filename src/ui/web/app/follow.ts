/** Something with listeners: a store or a feed. */
export interface Subscribable {
  subscribe(listener: () => void): () => void
}

/**
 * Subscribes `rerender` to `source` (a component's effect), and calls it at once when
 * `snapshot()` is no longer `rendered`, the value read at render: effects run after paint, so a
 * change made between the render and the subscription (a live event, a page answer) would
 * otherwise reach no listener and leave the component showing the old value until the next change.
 */
export function follow<S>(source: Subscribable, snapshot: () => S, rendered: S, rerender: () => void): () => void {
  const unsubscribe = source.subscribe(rerender)
  if (!Object.is(snapshot(), rendered)) rerender()
  return unsubscribe
}
