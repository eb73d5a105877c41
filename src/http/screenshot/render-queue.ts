import { ApiError, retryAfterHeader } from '../../domain/errors.js'

/**
 * One job at a time, at most `limit` waiting behind it: one more is refused at once with 503
 * `too_many_clients` and a `Retry-After`, so a burst of screenshot requests never launches a
 * render each (nor holds unbounded memory). Jobs of the same key share one run (two requests for
 * the same screenshot render it once).
 */
export class RenderQueue<T> {
  private tail: Promise<unknown> = Promise.resolve()
  /** Jobs taken and not yet settled: the one that runs and those behind it. */
  private taken = 0
  private readonly running = new Map<string, Promise<T>>()

  constructor(
    private readonly limit: number,
    /** Seconds a refused client is told to wait. */
    private readonly retryAfter = 2,
  ) {}

  /** How many jobs wait behind the one that runs. */
  get queued(): number {
    return Math.max(0, this.taken - 1)
  }

  /** Runs `job` after the jobs before it (or joins the run of the same `key`). */
  run(key: string, job: () => Promise<T>): Promise<T> {
    const joined = this.running.get(key)
    if (joined) return joined
    // Counted from the jobs taken, not from those whose turn has come: in a burst on an idle queue
    // the first job has not started yet when the next arrive, and it is still the one that runs.
    if (this.taken > this.limit) {
      throw new ApiError(
        'too_many_clients',
        `${this.limit} screenshots are waiting for the one being rendered; this one was not queued. Retry in a few seconds.`,
        undefined,
        retryAfterHeader(this.retryAfter),
      )
    }
    this.taken++
    const result = this.tail.then(job)
    const settled = result.finally(() => {
      this.taken--
      this.running.delete(key)
    })
    this.running.set(key, settled)
    this.tail = settled.catch(() => undefined)
    return settled
  }
}

/** The last screenshots, least recently used first out, at most `entries` of them and `bytes` in all. */
export class ImageCache {
  private readonly images = new Map<string, Uint8Array<ArrayBuffer>>()
  private total = 0

  constructor(
    private readonly entries: number,
    private readonly bytes: number,
  ) {}

  get(key: string): Uint8Array<ArrayBuffer> | undefined {
    const image = this.images.get(key)
    if (image === undefined) return undefined
    this.images.delete(key)
    this.images.set(key, image)
    return image
  }

  set(key: string, image: Uint8Array<ArrayBuffer>): void {
    if (image.byteLength > this.bytes) return
    this.delete(key)
    this.images.set(key, image)
    this.total += image.byteLength
    for (const [oldest, old] of this.images) {
      if (this.images.size <= this.entries && this.total <= this.bytes) break
      this.images.delete(oldest)
      this.total -= old.byteLength
    }
  }

  private delete(key: string): void {
    const image = this.images.get(key)
    if (image === undefined) return
    this.images.delete(key)
    this.total -= image.byteLength
  }

  clear(): void {
    this.images.clear()
    this.total = 0
  }
}
