/**
 * Keeping a large message's write from holding the event loop (issue 36, R3 with `--data`): a
 * 1 MiB email's row is ~3 MiB of JSON (its request, text and HTML); making it (80–107 ms as one
 * `JSON.stringify` here), encoding it and SQLite's automatic checkpoint all ran in the flush's
 * one turn. Here the row is made ahead, a step a turn, and checkpoints get turns of their own.
 * See docs/decisions/wait-budget.md.
 */
import type { CapturedMessage } from '../contract/captured-message.js'
import { storedMessageJson, storedMessageJsonSteps, weightOf } from '../domain/channels/index.js'
import { immediate } from '../domain/event-loop.js'
import type { Database } from './sqlite.js'

/** A message this heavy (UTF-16 bytes, as the outbox weighs it) has its row made ahead of its write. */
const LARGE_ROW_WEIGHT = 512 * 1024

/** Turns a flush waits at most while rows are made ahead: a stream of large sends never starves the writes. */
const MAX_TURNS_AHEAD = 32

/**
 * The WAL is checkpointed in a turn of its own once this many characters of rows were written
 * since the last one (SQLite's automatic checkpoint, at 1,000 pages, ran inside a write's turn:
 * +20–60 ms on top of it).
 */
const CHECKPOINT_AFTER_CHARS = 4 * 1024 * 1024

const utf8 = new TextEncoder()

/** Large messages' rows made before their write's turn: their JSON a large field a step, then its UTF-8. */
export class RowsAhead {
  private readonly made = new WeakMap<CapturedMessage, string | Uint8Array>()
  private readonly making = new WeakMap<CapturedMessage, Generator<void, string, void>>()
  private turns = 0

  /** A message's row for the write: what was made ahead (then forgotten), else made now. */
  readonly jsonOf = (message: CapturedMessage): string | Uint8Array => {
    const made = this.made.get(message)
    if (made === undefined) return storedMessageJson(message)
    this.made.delete(message)
    return made
  }

  /**
   * One step for the first pending large message not made yet; true when it took one (the flush
   * then waits for the next turn). A later status step replaces a message by a copy: the write
   * makes the copy's row itself.
   */
  step(outbox: { peek(id: string): CapturedMessage | undefined }, pending: Iterable<string>): boolean {
    if (this.turns >= MAX_TURNS_AHEAD) return false
    for (const id of pending) {
      const message = outbox.peek(id)
      if (message === undefined) continue
      const made = this.made.get(message)
      if (typeof made === 'string') {
        // Its UTF-8 a turn of its own too: the write hands SQLite bytes (stored as the same TEXT).
        this.made.set(message, utf8.encode(made))
        this.turns++
        return true
      }
      if (made !== undefined) continue
      let steps = this.making.get(message)
      if (steps === undefined) {
        if (weightOf(message) < LARGE_ROW_WEIGHT) continue
        steps = storedMessageJsonSteps(message)
        if (steps === undefined) continue
        this.making.set(message, steps)
      }
      const next = steps.next()
      if (next.done) {
        this.making.delete(message)
        this.made.set(message, next.value)
      }
      this.turns++
      return true
    }
    return false
  }

  /** The flush went ahead: the next one may wait again. */
  flushed(): void {
    this.turns = 0
  }
}

/** The WAL's checkpoints, each in a turn of its own, once enough was written since the last. */
export class Checkpoints {
  private since = 0
  private scheduled = false
  private stopped = false

  constructor(private readonly db: Database) {}

  /** A flush wrote `written` characters of rows (plus a share for the rest of its batch). */
  after(written: number): void {
    this.since += written + 4096
    if (this.since < CHECKPOINT_AFTER_CHARS || this.scheduled) return
    this.scheduled = true
    immediate(() => {
      this.scheduled = false
      if (this.stopped) return
      this.since = 0
      try {
        this.db.exec('PRAGMA wal_checkpoint(PASSIVE)')
      } catch {
        // A checkpoint that cannot run now runs at the next one, or when the store closes.
      }
    })
  }

  /** The store closes (its own TRUNCATE checkpoint follows). */
  stop(): void {
    this.stopped = true
  }
}
