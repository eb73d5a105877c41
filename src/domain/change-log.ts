/**
 * What changed in one part of the state since a persistence adapter last looked: the keys touched
 * (each with what it held before its first change in the batch, when the part records that) and
 * whether the part was cleared. Parts keep one only while an adapter is attached (`trackChanges`),
 * so a sandbox without `--data` pays one `undefined` check per write and nothing else.
 */
export class ChangeLog<K, Before = undefined> {
  private touched = new Map<K, Before | undefined>()
  private cleared = false

  /** `key` changed (was added, updated or removed: the adapter reads which from the live state). */
  touch(key: K, before?: Before): void {
    if (!this.touched.has(key)) this.touched.set(key, before)
  }

  /** Everything was removed: the adapter empties the part before writing what was touched since. */
  clear(): void {
    this.touched.clear()
    this.cleared = true
  }

  /** True when nothing changed since the last {@link drain}. */
  /** The keys touched since the last drain (not drained). */
  pending(): IterableIterator<K> {
    return this.touched.keys()
  }

  get empty(): boolean {
    return !this.cleared && this.touched.size === 0
  }

  /** Takes the changes so far, leaving the log empty. */
  drain(): { touched: Map<K, Before | undefined>; cleared: boolean } {
    const batch = { touched: this.touched, cleared: this.cleared }
    this.touched = new Map()
    this.cleared = false
    return batch
  }

  /** Puts back a batch the adapter could not write (it is written with the next one). */
  requeue(batch: { touched: Map<K, Before | undefined>; cleared: boolean }): void {
    const later = this.touched
    this.touched = new Map(batch.touched)
    for (const [key, before] of later) this.touch(key, before)
    this.cleared = batch.cleared || this.cleared
  }
}
