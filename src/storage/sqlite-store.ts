import type { CapturedMessage } from '../contract/captured-message.js'
import type { Subscriber } from '../contract/subscriber.js'
import type { ChangeLog } from '../domain/change-log.js'
import { ApiError } from '../domain/errors.js'
import type { Fault } from '../domain/faults.js'
import type { JournalEntry } from '../domain/journal.js'
import type { OptOut } from '../domain/opt-outs.js'
import type { SandboxState, SandboxStore } from '../domain/sandbox.js'
import { revivedMessage, storedMessageJson, type CaptureOutcome } from '../domain/channels/index.js'
import type { WebhookAttempt } from '../domain/webhook-attempts.js'
import type { CheckReport } from '../contract/checks.js'
import { builtin, loadSqlite, type Database, type Statement } from './sqlite.js'
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js'
import { APPLICATION_ID, inspectStoreFile, StoreFileError } from './store-file.js'

export { StoreFileError } from './store-file.js'

/** Pending changes are written at least this often (and before every write request is answered). */
export const FLUSH_EVERY_MS = 100

type Batch<K, B> = ReturnType<ChangeLog<K, B>['drain']>

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
  private readonly db: Database
  private readonly lock: Database
  private sandbox: SandboxState | undefined
  private logs: Logs | undefined
  private waiting: Array<{ resolve: () => void; reject: (error: unknown) => void }> = []
  private scheduled = false
  private timer: ReturnType<typeof setInterval> | undefined
  private faultsVersion = -1
  private clockVersion = -1
  private evicted = -1
  private closed = false
  private failedBefore = false

  constructor(path: string) {
    const { dirname, resolve } = builtin('node:path')
    this.path = resolve(path)
    const DatabaseSync = loadSqlite()
    const found = inspectStoreFile(this.path, SCHEMA_VERSION)
    if (found.kind === 'new') builtin('node:fs').mkdirSync(dirname(this.path), { recursive: true })
    this.lock = takeLock(DatabaseSync, this.path)
    try {
      this.db = openDatabase(DatabaseSync, this.path)
      checkOpened(this.db, this.path)
      this.db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL')
      migrate(this.db)
      this.accountSalt = this.meta('account_salt') ?? this.setMeta('account_salt', builtin('node:crypto').randomBytes(16).toString('hex'))
      // The header holds the application id from now on, even before the WAL is checkpointed.
      this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    } catch (error) {
      this.lock.close()
      if (error instanceof StoreFileError) throw error
      throw new StoreFileError(`cannot use ${this.path} as the store: ${describeError(error)}`)
    }
  }

  private meta(key: string): string | undefined {
    return this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key)?.value as string | undefined
  }

  private setMeta(key: string, value: string): string {
    statement(this.db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value)
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
    const kept = this.meta('seeded') !== undefined
    if (kept) {
      try {
        await this.load(sandbox)
      } catch (error) {
        throw new StoreFileError(`${this.path}: a kept row cannot be read (${describeError(error)}); sendbox left the file as it is. Pass a new file to --data, or remove this one.`)
      }
    }
    else this.setMeta('seeded', new Date().toISOString())
    this.faultsVersion = sandbox.faults.version
    this.clockVersion = sandbox.clock.version
    this.evicted = sandbox.outbox.evicted
    this.timer = setInterval(() => this.flush(), FLUSH_EVERY_MS)
    this.timer.unref()
    return kept
  }

  /** Fills the sandbox from the tables (the parts' logs see none of it but evictions). */
  private async load(sandbox: SandboxState): Promise<void> {
    const rows = <T>(sql: string, column: string) => this.db.prepare(sql).all().map((row) => JSON.parse(row[column] as string) as T)
    for (const row of this.db.prepare('SELECT account, subscriber FROM subscribers ORDER BY rowid').all()) {
      const { id, created_at, updated_at, ...input } = JSON.parse(row.subscriber as string) as Subscriber
      await sandbox.subscribers.create(row.account as string, input, { id, created_at, updated_at })
    }
    this.logs!.subscribers.drain()
    // One JSON text for all messages: one parse of the whole outbox beats ten thousand small ones.
    const all = statement(this.db, "SELECT '[' || coalesce(group_concat('[' || coalesce(outcome, 'null') || ',' || message || ']', ','), '') || ']' AS rows FROM (SELECT outcome, message FROM messages ORDER BY rowid)").get()?.rows as string
    const messages = (JSON.parse(all) as Array<[CaptureOutcome | null, CapturedMessage]>).map(([outcome, message]) => ({ message: revivedMessage(message), outcome: outcome ?? undefined }))
    sandbox.outbox.restore(messages, Number(this.meta('evicted') ?? 0))
    sandbox.journal.restore(rows<JournalEntry>('SELECT entry FROM journal ORDER BY id', 'entry'))
    // A smaller --max-requests than the last run's: the entries past it go from the store too.
    const oldest = sandbox.journal.snapshot().at(-1)?.id
    if (oldest !== undefined) statement(this.db, 'DELETE FROM journal WHERE id < ?').run(oldest)
    sandbox.faults.restore(rows<Fault>('SELECT fault FROM faults ORDER BY rowid', 'fault'))
    sandbox.optOuts.restore(rows<OptOut>('SELECT opt_out FROM opt_outs ORDER BY rowid', 'opt_out'))
    sandbox.webhooks?.attempts.restore(rows<WebhookAttempt>('SELECT attempt FROM webhook_attempts ORDER BY rowid', 'attempt'))
    sandbox.checkReports.restore(rows<CheckReport>('SELECT report FROM check_reports ORDER BY rowid', 'report'))
    const clock = this.meta('clock')
    if (clock !== undefined && sandbox.clock.controllable) sandbox.clock.restore(JSON.parse(clock) as { offset: number; frozenAt: number | null })
  }

  settle(): Promise<void> {
    if (this.closed || !this.logs) return Promise.resolve()
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject })
      if (!this.scheduled) {
        this.scheduled = true
        setImmediate(() => this.flush())
      }
    })
  }

  /** Writes every pending change in one transaction; on failure undoes this batch's captures and subscriber writes. */
  flush(): void {
    this.scheduled = false
    const sandbox = this.sandbox
    const logs = this.logs
    const waiting = this.waiting
    this.waiting = []
    if (!sandbox || !logs || this.closed) return waiting.forEach((w) => w.resolve())
    const dirty = !logs.messages.empty || !logs.subscribers.empty || !logs.journal.empty || !logs.optOuts.empty || !(logs.attempts?.empty ?? true) || !logs.checks.empty ||
      sandbox.faults.version !== this.faultsVersion || sandbox.clock.version !== this.clockVersion || sandbox.outbox.evicted !== this.evicted
    if (!dirty) return waiting.forEach((w) => w.resolve())
    const batches = {
      messages: logs.messages.drain(),
      subscribers: logs.subscribers.drain(),
      journal: logs.journal.drain(),
      optOuts: logs.optOuts.drain(),
      attempts: logs.attempts?.drain(),
      checks: logs.checks.drain(),
    }
    try {
      this.db.exec('BEGIN')
      this.write(sandbox, batches)
      this.db.exec('COMMIT')
      this.failedBefore = false
    } catch (error) {
      this.rollback(sandbox, logs, batches, error)
      const failure = new ApiError(500, 'internal_error', `The sandbox could not write its store ${this.path} (${describeError(error)}): this request's change was undone. Free space or fix the file's permissions, then retry.`)
      return waiting.forEach((w) => w.reject(failure))
    }
    waiting.forEach((w) => w.resolve())
  }

  private write(sandbox: SandboxState, batches: { messages: Batch<string, true>; subscribers: Batch<string, Subscriber | null>; journal: Batch<number, undefined>; optOuts: Batch<string, undefined>; attempts: Batch<string, undefined> | undefined; checks: Batch<string, undefined> }): void {
    writeMessages(this.db, sandbox, batches.messages)
    writeKeyed(this.db, 'check_reports', batches.checks, (id) => sandbox.checkReports.peek(id), (r) => [r.message_id, JSON.stringify(r)], 'id, report', 'id')
    writeSubscribers(this.db, sandbox, batches.subscribers)
    writeKeyed(this.db, 'journal', batches.journal, (id) => sandbox.journal.get(id), (e) => [e.id, e.at, e.account, JSON.stringify(e)], 'id, at, account, entry', 'id')
    writeKeyed(this.db, 'opt_outs', batches.optOuts, (key) => sandbox.optOuts.byKey(key), (o) => [o.account, o.number, JSON.stringify(o)], 'account, number, opt_out', 'account, number', true)
    if (batches.attempts) writeKeyed(this.db, 'webhook_attempts', batches.attempts, (id) => sandbox.webhooks?.attempts.peek(id), (a) => [a.id, a.account, JSON.stringify(a)], 'id, account, attempt', 'id')
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
  }

  /**
   * A failed write: the transaction is rolled back; the messages this batch captured and the
   * subscribers it wrote are undone in memory (their requests answer 500); everything else
   * (lifecycle steps, journal entries, resets) is written with the next batch.
   */
  private rollback(sandbox: SandboxState, logs: Logs, batches: Parameters<SqliteStore['write']>[1], error: unknown): void {
    try {
      this.db.exec('ROLLBACK')
    } catch {
      // Nothing was begun, or SQLite rolled back already.
    }
    if (!this.failedBefore) process.stderr.write(`sendbox: could not write ${this.path}: ${describeError(error)}; the requests of this batch answered 500 and were undone\n`)
    this.failedBefore = true
    for (const [id, captured] of batches.messages.touched) if (captured) sandbox.outbox.delete(id)
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
    this.closed = true
    try {
      this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    } catch {
      // Another reader holds the WAL: it is checkpointed at the next open.
    }
    this.db.close()
    this.lock.close()
  }
}

/** Opens (creating) the store at `path`; throws a {@link StoreFileError} with one line when it cannot. */
export function openSqliteStore(path: string): SqliteStore {
  return new SqliteStore(path)
}

/** Holds `<file>-lock` with an exclusive SQLite lock: a second sandbox on the same store is refused. */
function takeLock(DatabaseSync: ReturnType<typeof loadSqlite>, path: string): Database {
  let real = path
  try {
    real = builtin('node:fs').realpathSync(path)
  } catch {
    // Not created yet: the path given is the one.
  }
  const lockPath = `${real}-lock`
  let lock: Database
  try {
    lock = new DatabaseSync(lockPath, { timeout: 0 })
  } catch (error) {
    throw new StoreFileError(`cannot open ${lockPath} next to the store: ${describeError(error)}`)
  }
  try {
    lock.exec('PRAGMA locking_mode=EXCLUSIVE; PRAGMA journal_mode=MEMORY; BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS lock (held INTEGER); COMMIT')
  } catch (error) {
    lock.close()
    if (/locked|busy/i.test(describeError(error))) throw new StoreFileError(`${path} is in use by another sendbox (it holds ${lockPath}); stop it, or pass another file to --data`)
    throw new StoreFileError(`cannot lock ${lockPath}: ${describeError(error)}`)
  }
  return lock
}

function openDatabase(DatabaseSync: ReturnType<typeof loadSqlite>, path: string): Database {
  return new DatabaseSync(path)
}

/** After SQLite opened it: a database with tables but not sendbox's id is another program's; it is left as it is. */
function checkOpened(db: Database, path: string): void {
  const application = Number(db.prepare('PRAGMA application_id').get()?.application_id ?? 0)
  const tables = Number(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get()?.n ?? 0)
  if (application !== APPLICATION_ID && tables > 0) {
    db.close()
    throw new StoreFileError(`${path} is an SQLite database of another program, not a sendbox store; sendbox left it untouched. Pass a new file to --data.`)
  }
  const version = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0)
  if (version > SCHEMA_VERSION) {
    db.close()
    throw new StoreFileError(`${path} was written by a newer sendbox (store version ${version}; this one reads up to ${SCHEMA_VERSION}); sendbox left it untouched. Upgrade sendbox, or pass a new file to --data.`)
  }
}

/** Brings the schema to {@link SCHEMA_VERSION}, each step in the one transaction with its version. */
function migrate(db: Database): void {
  const version = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0)
  if (version === SCHEMA_VERSION) return
  db.exec('BEGIN')
  try {
    for (const step of MIGRATIONS.slice(version)) db.exec(step)
    db.exec(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${SCHEMA_VERSION}`)
    db.exec('COMMIT')
  } catch (error) {
    db.exec('ROLLBACK')
    throw error
  }
}

/** Prepared statements, once per database and SQL text (a flush runs many times a second under load). */
const statements = new WeakMap<Database, Map<string, Statement>>()
function statement(db: Database, sql: string): Statement {
  let cache = statements.get(db)
  if (!cache) statements.set(db, (cache = new Map()))
  let prepared = cache.get(sql)
  if (!prepared) cache.set(sql, (prepared = db.prepare(sql)))
  return prepared
}

function writeMessages(db: Database, sandbox: SandboxState, batch: Batch<string, true>): void {
  // A message's check report goes with it.
  if (batch.cleared) db.exec('DELETE FROM messages; DELETE FROM check_reports')
  if (batch.touched.size === 0) return
  const upsert = statement(db, `INSERT INTO messages (id, account, channel, status, created_at, outcome, message) VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET status = excluded.status, outcome = excluded.outcome, message = excluded.message`)
  const remove = statement(db, 'DELETE FROM messages WHERE id = ?')
  for (const id of batch.touched.keys()) {
    const message = sandbox.outbox.peek(id)
    if (!message) {
      remove.run(id)
      statement(db, 'DELETE FROM check_reports WHERE id = ?').run(id)
      continue
    }
    const outcome = sandbox.outbox.pendingOutcome(id)
    upsert.run(id, message.account, message.channel, message.status, message.created_at, outcome === undefined ? null : JSON.stringify(outcome), storedMessageJson(message))
  }
}

function writeSubscribers(db: Database, sandbox: SandboxState, batch: Batch<string, Subscriber | null>): void {
  if (batch.cleared) db.exec('DELETE FROM subscribers')
  if (batch.touched.size === 0) return
  const upsert = statement(db, `INSERT INTO subscribers (account, id, email, phone, subscriber) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (account, id) DO UPDATE SET email = excluded.email, phone = excluded.phone, subscriber = excluded.subscriber`)
  const remove = statement(db, 'DELETE FROM subscribers WHERE account = ? AND id = ?')
  for (const key of batch.touched.keys()) {
    const [account, id] = key.split('\u0000') as [string, string]
    const subscriber = sandbox.subscribers.find(account, id)
    if (subscriber) upsert.run(account, id, subscriber.email, subscriber.phone, JSON.stringify(subscriber))
    else remove.run(account, id)
  }
}

/**
 * A table keyed by the part's own key: each touched key still kept is written (`moveToEnd`: deleted
 * and inserted again, so the table's order follows the part's, as opt-outs re-added move last;
 * else upserted in place), each one gone is deleted.
 */
function writeKeyed<K extends string | number, V>(db: Database, table: string, batch: Batch<K, undefined>, find: (key: K) => V | undefined, values: (value: V) => Array<string | number | null>, columns: string, keyColumns: string, moveToEnd = false): void {
  if (batch.cleared) db.exec(`DELETE FROM ${table}`)
  if (batch.touched.size === 0) return
  const keys = keyColumns.split(', ')
  const others = columns.split(', ').filter((c) => !keys.includes(c))
  const remove = statement(db, `DELETE FROM ${table} WHERE ${keys.map((c) => `${c} = ?`).join(' AND ')}`)
  const write = statement(db, `INSERT INTO ${table} (${columns}) VALUES (${columns.split(', ').map(() => '?').join(', ')})${moveToEnd ? '' : ` ON CONFLICT (${keyColumns}) DO UPDATE SET ${others.map((c) => `${c} = excluded.${c}`).join(', ')}`}`)
  for (const key of batch.touched.keys()) {
    const value = find(key)
    if (value === undefined || moveToEnd) remove.run(...(typeof key === 'string' && keys.length > 1 ? key.split('\u0000') : [key]))
    if (value !== undefined) write.run(...values(value))
  }
}

function describeError(error: unknown): string {
  const err = error as { code?: string; errcode?: number; message?: string }
  return err.message?.split('\n')[0] ?? String(error)
}

