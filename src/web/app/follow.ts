/** What a component follows: something with listeners and a value read at render. */
export interface Followed<S> {
  subscribe(listener: () => void): () => void
  snapshot(): S
}

/**
 * Subscribes `rerender` to `source` (a component's effect), and calls it at once when the value
 * has changed since `rendered` was read: effects run after paint, so a change made between the
 * render and the subscription (a live event, a page answer) would otherwise reach no listener and
 * leave the component showing the old value until the next change.
 */
export function follow<S>(source: Followed<S>, rendered: S, rerender: () => void): () => void {
  const unsubscribe = source.subscribe(rerender)
  if (!Object.is(source.snapshot(), rendered)) rerender()
  return unsubscribe
}
