import type { CapturedMessage } from '../contract/captured-message.js'
import type { Subscriber } from '../contract/subscriber.js'
import type { ChangeLog } from '../domain/change-log.js'
import { ApiError } from '../domain/errors.js'
import { immediate } from '../domain/event-loop.js'
import type { Fault } from '../domain/faults.js'
import type { JournalEntry } from '../domain/journal.js'
import type { OptOut } from '../domain/opt-outs.js'
import type { SandboxState, SandboxStore } from '../domain/sandbox.js'
import { revivedMessage, type CaptureOutcome } from '../domain/channels/index.js'
import type { WebhookAttempt } from '../domain/webhook-attempts.js'
import type { CheckReport } from '../contract/checks.js'
import { builtin, describeError, loadSqlite, type Database } from './sqlite.js'
import { checkOpened, createStoreFile, lockedDatabase, migrate } from './store-open.js'
import { SCHEMA_VERSION } from './schema.js'
import { inspectStoreFile, StoreFileError } from './store-file.js'
import { messageRowSchema, ROW_SCHEMAS, skippedLine, validRows, type Skipped } from './rows.js'
import { restoreClock, statement, writeRows, type Batches } from './store-writes.js'
import { Checkpoints, RowsAhead } from './rows-ahead.js'

/** Messages rows read per query when the outbox is restored (see `messagePages`). */
const RESTORE_PAGE_ROWS = 1_000

export { StoreFileError } from './store-file.js'

/** Pending changes are written at least this often (and before every write request is answered). */
export const FLUSH_EVERY_MS = 100

/** The change logs of every part the store keeps. */
interface Logs {
  messages: ChangeLog<string, true>
  subscribers: ChangeLog<string, Subscriber | null>
  journal: ChangeLog<number>
  optOuts: ChangeLog<string>
  attempts: ChangeLog<string> | undefined
  checks: ChangeLog<string>
}

/**
 * The `--data` store: one SQLite file (WAL, `synchronous=NORMAL`) plus a `-lock` file held with
 * an exclusive SQLite lock while a sandbox uses it (the OS drops it when the process dies). Changes
 * are batched: every write request waits for the batch it belongs to (one transaction for all
 * requests of one turn of the event loop), so an answered write is on disk; other changes
 * (lifecycle steps, journal entries) are written within {@link FLUSH_EVERY_MS}.
 */
export class SqliteStore implements SandboxStore {
  readonly path: string
  readonly accountSalt: string
  readonly writes = { ok: 0, failed: 0, seconds: 0 }
  private readonly db: Database
  /** The file opened (device and inode): a write checks the path still names it. */
  private readonly identity: { dev: number; ino: number }
  private sandbox: SandboxState | undefined
  private logs: Logs | undefined
  private waiting: Array<{ resolve: () => void; reject: (error: unknown) => void }> = []
  private scheduled = false
  /** Large messages' rows made ahead of their write, a step a turn (rows-ahead.ts). */
  private readonly ahead = new RowsAhead()
  /** A chain of turns making rows ahead is running (the interval's flush leaves it to that chain). */
  private inTurns = false
  private readonly checkpoints: Checkpoints
  private timer: ReturnType<typeof setInterval> | undefined
  private faultsVersion = -1
  private clockVersion = -1
  private evicted = -1
  private closed = false
  private failedBefore = false

  constructor(path: string) {
    const { dirname, resolve } = builtin('node:path')
    const fs = builtin('node:fs')
    this.path = resolve(path)
    const DatabaseSync = loadSqlite()
    const found = inspectStoreFile(this.path, SCHEMA_VERSION)
    if (found.kind === 'new') createStoreFile(this.path, dirname(this.path))
    this.db = lockedDatabase(DatabaseSync, this.path)
    try {
      checkOpened(this.db, this.path)
      // Before WAL: the first transaction writes the sendbox id into the file's header itself.
      migrate(this.db)
      // Checkpoints are the store's own (rows-ahead.ts), each in a turn of its own.
      this.db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0')
      this.checkpoints = new Checkpoints(this.db)
      this.accountSalt =
        this.meta('account_salt') ??
        this.setMeta('account_salt', builtin('node:crypto').randomBytes(16).toString('hex'))
      this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
      const stat = fs.statSync(this.path)
      this.identity = { dev: stat.dev, ino: stat.ino }
    } catch (error) {
      try {
        this.db.close()
      } catch {
        // Closed already by the check that refused it.
      }
      if (error instanceof StoreFileError) throw error
      throw new StoreFileError(`cannot use ${this.path} as the store: ${describeError(error)}`)
    }
  }

  private meta(key: string): string | undefined {
    return this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key)?.value as string | undefined
  }

  private setMeta(key: string, value: string): string {
    statement(
      this.db,
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(key, value)
    return value
  }

  async open(sandbox: SandboxState): Promise<boolean> {
    this.sandbox = sandbox
    this.logs = {
      messages: sandbox.outbox.trackChanges(),
      subscribers: sandbox.subscribers.trackChanges(),
      journal: sandbox.journal.trackChanges(),
      optOuts: sandbox.optOuts.trackChanges(),
      attempts: sandbox.webhooks?.attempts.trackChanges(),
      checks: sandbox.checkReports.trackChanges(),
    }
    // Waits, the event stream and webhooks hear of a change once it is written (R14).
    sandbox.outbox.feed.publications.hold(() => this.schedule())
    const kept = this.meta('seeded') !== undefined
    if (kept) {
      try {
        await this.load(sandbox)
      } catch (error) {
        throw new StoreFileError(
          `${this.path}: a kept row cannot be read (${describeError(error)}); sendbox left the file as it is. Pass a new file to --data, or remove this one.`,
        )
      }
    } else this.setMeta('seeded', new Date().toISOString())
    this.faultsVersion = sandbox.faults.version
    this.clockVersion = sandbox.clock.version
    this.evicted = sandbox.outbox.evicted
    this.timer = setInterval(() => this.flushInTurns(), FLUSH_EVERY_MS)
    this.timer.unref()
    return kept
  }

  /** Fills the sandbox from the tables (the parts' logs see none of it but evictions); rows that do not parse are skipped and counted. */
  private async load(sandbox: SandboxState): Promise<void> {
    const skipped: Skipped = {}
    const texts = (sql: string, column: string) =>
      this.db
        .prepare(sql)
        .all()
        .map((row) => row[column])
    const rows = <T>(table: keyof typeof ROW_SCHEMAS, column: string, order = 'rowid') =>
      validRows<T>(
        table,
        texts(`SELECT ${column} FROM ${table} ORDER BY ${order}`, column),
        ROW_SCHEMAS[table],
        skipped,
      )
    for (const row of this.db.prepare('SELECT account, subscriber FROM subscribers ORDER BY rowid').all()) {
      const [subscriber] = validRows<Subscriber>('subscribers', [row.subscriber], ROW_SCHEMAS.subscribers, skipped)
      if (subscriber === undefined || typeof row.account !== 'string') continue
      const { id, created_at, updated_at, ...input } = subscriber
      try {
        await sandbox.subscribers.create(row.account, input, { id, created_at, updated_at })
      } catch {
        skipped.subscribers = (skipped.subscribers ?? 0) + 1
      }
    }
    this.logs!.subscribers.drain()
    sandbox.outbox.restore(this.messagePages(skipped), Number(this.meta('evicted') ?? 0))
    sandbox.journal.restore(rows<JournalEntry>('journal', 'entry', 'id'))
    // A smaller --max-requests than the last run's: the entries past it go from the store too.
    const oldest = sandbox.journal.snapshot().at(-1)?.id
    if (oldest !== undefined) statement(this.db, 'DELETE FROM journal WHERE id < ?').run(oldest)
    sandbox.faults.restore(rows<Fault>('faults', 'fault'))
    sandbox.optOuts.restore(rows<OptOut>('opt_outs', 'opt_out'))
    sandbox.webhooks?.attempts.restore(rows<WebhookAttempt>('webhook_attempts', 'attempt'))
    sandbox.checkReports.restore(rows<CheckReport>('check_reports', 'report'))
    const clock = this.meta('clock')
    if (clock !== undefined && sandbox.clock.controllable) restoreClock(sandbox, clock, skipped)
    const line = skippedLine(this.path, skipped)
    if (line !== undefined) process.stderr.write(`${line}\n`)
  }

  /**
   * The messages rows, oldest first, as the outbox restores them, read {@link RESTORE_PAGE_ROWS} at
   * a time: memory at start-up stays the outbox's own plus one page (the whole table as one JSON
   * text, then parsed, peaked at ~1.8× the live outbox for 100,000 messages). Each page is one
   * JSON text parsed at once (one parse beats a thousand small ones), row by row when a row breaks
   * it; rows that do not parse or check are skipped and counted.
   */
  private *messagePages(
    skipped: Skipped,
  ): Generator<{ message: CapturedMessage; outcome: CaptureOutcome | undefined }> {
    const rowJson = "'[' || coalesce(outcome, 'null') || ',' || message || ']'"
    const page = statement(
      this.db,
      `SELECT max(id) AS last, '[' || group_concat(row, ',') || ']' AS rows FROM (SELECT rowid AS id, ${rowJson} AS row FROM messages WHERE rowid > ? ORDER BY rowid LIMIT ?)`,
    )
    for (let after = 0; ;) {
      const got = page.get(after, RESTORE_PAGE_ROWS)
      if (got === undefined || typeof got.rows !== 'string') return
      let rows: unknown[]
      try {
        rows = JSON.parse(got.rows) as unknown[]
      } catch {
        rows = statement(this.db, `SELECT ${rowJson} AS row FROM messages WHERE rowid > ? ORDER BY rowid LIMIT ?`)
          .all(after, RESTORE_PAGE_ROWS)
          .map((row) => row.row)
      }
      after = Number(got.last)
      for (const [outcome, message] of validRows<[CaptureOutcome | null, CapturedMessage]>(
        'messages',
        rows,
        messageRowSchema,
        skipped,
      )) {
        yield { message: revivedMessage(message), outcome: outcome ?? undefined }
      }
    }
  }

  settle(): Promise<void> {
    if (this.closed || !this.logs) return Promise.resolve()
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject })
      this.schedule()
    })
  }

  /** A write at the next turn of the event loop (one for every change of this turn). */
  private schedule(): void {
    if (this.scheduled || this.closed) return
    this.scheduled = true
    immediate(() => this.flushInTurns())
  }

  /** A flush now, or, with large messages among the changes, a step of their rows now and this again next turn (a running chain flushes when it ends). */
  private flushInTurns(chained = false): void {
    if (this.inTurns && !chained) return
    this.inTurns =
      !!this.sandbox &&
      !!this.logs &&
      !this.closed &&
      this.ahead.step(this.sandbox.outbox, this.logs.messages.pending())
    if (this.inTurns) return void immediate(() => this.flushInTurns(true))
    this.ahead.flushed()
    this.flush()
  }

  /** Writes every pending change in one transaction; on failure undoes this batch's captures and subscriber writes. */
  flush(): void {
    this.scheduled = false
    const sandbox = this.sandbox
    const logs = this.logs
    const waiting = this.waiting
    this.waiting = []
    if (!sandbox || !logs || this.closed) return waiting.forEach((w) => w.resolve())
    const dirty =
      !logs.messages.empty ||
      !logs.subscribers.empty ||
      !logs.journal.empty ||
      !logs.optOuts.empty ||
      !(logs.attempts?.empty ?? true) ||
      !logs.checks.empty ||
      sandbox.faults.version !== this.faultsVersion ||
      sandbox.clock.version !== this.clockVersion ||
      sandbox.outbox.evicted !== this.evicted
    if (!dirty) {
      sandbox.outbox.feed.publications.release()
      return waiting.forEach((w) => w.resolve())
    }
    const batches = {
      messages: logs.messages.drain(),
      subscribers: logs.subscribers.drain(),
      journal: logs.journal.drain(),
      optOuts: logs.optOuts.drain(),
      attempts: logs.attempts?.drain(),
      checks: logs.checks.drain(),
    }
    const started = performance.now()
    try {
      this.checkIdentity()
      this.db.exec('BEGIN')
      const written = this.write(sandbox, batches)
      this.db.exec('COMMIT')
      this.checkpoints.after(written)
      this.failedBefore = false
      this.writes.ok++
      this.writes.seconds += (performance.now() - started) / 1000
    } catch (error) {
      this.writes.failed++
      this.writes.seconds += (performance.now() - started) / 1000
      this.rollback(sandbox, logs, batches, error)
      const failure = new ApiError(
        'internal_error',
        `The sandbox could not write its store ${this.path} (${describeError(error)}): this request's change was undone. Free space or fix the file's permissions, then retry.`,
      )
      return waiting.forEach((w) => w.reject(failure))
    }
    sandbox.outbox.feed.publications.release()
    waiting.forEach((w) => w.resolve())
  }

  /** Writes the batches; gives the characters of message rows written. */
  private write(sandbox: SandboxState, batches: Batches): number {
    const written = writeRows(this.db, sandbox, batches, this.ahead.jsonOf)
    if (sandbox.faults.version !== this.faultsVersion) {
      this.db.exec('DELETE FROM faults')
      const insert = statement(this.db, 'INSERT INTO faults (id, fault) VALUES (?, ?)')
      for (const fault of sandbox.faults.list()) insert.run(fault.id, JSON.stringify(fault))
    }
    if (sandbox.clock.version !== this.clockVersion) this.setMeta('clock', JSON.stringify(sandbox.clock.kept()))
    if (sandbox.outbox.evicted !== this.evicted) this.setMeta('evicted', String(sandbox.outbox.evicted))
    this.faultsVersion = sandbox.faults.version
    this.clockVersion = sandbox.clock.version
    this.evicted = sandbox.outbox.evicted
    return written
  }

  /**
   * Throws when the path no longer names the file opened (deleted, or replaced by another): SQLite
   * would go on writing the file nobody can open any more, and every answered write would be lost
   * at the next start (issue 36, R13).
   */
  private checkIdentity(): void {
    let stat: { dev: number; ino: number } | undefined
    try {
      stat = builtin('node:fs').statSync(this.path)
    } catch {
      stat = undefined
    }
    if (stat?.dev !== this.identity.dev || stat.ino !== this.identity.ino) {
      throw new Error(
        `the store file was ${stat === undefined ? 'deleted' : 'replaced by another file'} while sendbox ran; nothing more is kept. Restart sendbox to start a store there again`,
      )
    }
  }

  /**
   * A failed write: the transaction is rolled back; the messages this batch captured and the
   * subscribers it wrote are undone in memory (their requests answer 500); everything else
   * (lifecycle steps, journal entries, resets) is written with the next batch.
   */
  private rollback(
    sandbox: SandboxState,
    logs: Logs,
    batches: Parameters<SqliteStore['write']>[1],
    error: unknown,
  ): void {
    try {
      this.db.exec('ROLLBACK')
    } catch {
      // Nothing was begun, or SQLite rolled back already.
    }
    if (!this.failedBefore)
      process.stderr.write(
        `sendbox: could not write ${this.path}: ${describeError(error)}; the requests of this batch answered 500 and were undone\n`,
      )
    this.failedBefore = true
    // Undone: and what they would have told (waits, stream, webhooks) is dropped unheard.
    const undone = [...batches.messages.touched].filter(([, captured]) => captured).map(([id]) => id)
    sandbox.outbox.feed.publications.discard(undone)
    for (const id of undone) sandbox.outbox.delete(id, true)
    batches.messages.touched = new Map([...batches.messages.touched].filter(([, captured]) => !captured))
    logs.messages.requeue(batches.messages)
    for (const [key, before] of batches.subscribers.touched) {
      const [account, id] = key.split('\u0000') as [string, string]
      if (before !== undefined) void sandbox.subscribers.revert(account, id, before)
    }
    if (batches.subscribers.cleared) logs.subscribers.requeue({ touched: new Map(), cleared: true })
    logs.journal.requeue(batches.journal)
    logs.optOuts.requeue(batches.optOuts)
    if (batches.attempts) logs.attempts?.requeue(batches.attempts)
    logs.checks.requeue(batches.checks)
    this.faultsVersion = -1
    this.clockVersion = -1
    this.evicted = -1
  }

  close(): void {
    if (this.closed) return
    if (this.timer !== undefined) clearInterval(this.timer)
    this.flush()
    this.checkpoints.stop()
    this.closed = true
    try {
      this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    } catch {
      // Another reader holds the WAL: it is checkpointed at the next open.
    }
    this.db.close()
  }
}

/** Opens (creating) the store at `path`; throws a {@link StoreFileError} with one line when it cannot. */
export function openSqliteStore(path: string): SqliteStore {
  return new SqliteStore(path)
}
