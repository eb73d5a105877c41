/** The store's writes of one flush, part by part, and the clock's row read back. */
import type { CapturedMessage } from '../contract/captured-message.js'
import type { Subscriber } from '../contract/subscriber.js'
import type { ChangeLog } from '../domain/change-log.js'
import type { SandboxState } from '../domain/sandbox.js'
import type { Database, Statement } from './sqlite.js'
import type { Skipped } from './rows.js'

export type Batch<K, B> = ReturnType<ChangeLog<K, B>['drain']>

/** What one flush drained from each part's change log. */
export interface Batches {
  messages: Batch<string, true>
  subscribers: Batch<string, Subscriber | null>
  journal: Batch<number, undefined>
  optOuts: Batch<string, undefined>
  attempts: Batch<string, undefined> | undefined
  checks: Batch<string, undefined>
}

/** The rows of every keyed part a flush changed (faults, clock and counters are the store's own). */
export function writeRows(
  db: Database,
  sandbox: SandboxState,
  batches: Batches,
  jsonOf: (message: CapturedMessage) => string | Uint8Array,
): number {
  const messageChars = writeMessages(db, sandbox, batches.messages, jsonOf)
  writeKeyed(
    db,
    'check_reports',
    batches.checks,
    (id) => sandbox.checkReports.peek(id),
    (r) => [r.message_id, JSON.stringify(r)],
    'id, report',
    'id',
  )
  writeSubscribers(db, sandbox, batches.subscribers)
  writeKeyed(
    db,
    'journal',
    batches.journal,
    (id) => sandbox.journal.get(id),
    (e) => [e.id, e.at, e.account, JSON.stringify(e)],
    'id, at, account, entry',
    'id',
  )
  writeKeyed(
    db,
    'opt_outs',
    batches.optOuts,
    (key) => sandbox.optOuts.byKey(key),
    (o) => [o.account, o.number, JSON.stringify(o)],
    'account, number, opt_out',
    'account, number',
    true,
  )
  if (batches.attempts)
    writeKeyed(
      db,
      'webhook_attempts',
      batches.attempts,
      (id) => sandbox.webhooks?.attempts.peek(id),
      (a) => [a.id, a.account, JSON.stringify(a)],
      'id, account, attempt',
      'id',
    )
  return messageChars
}

/** Prepared statements, once per database and SQL text (a flush runs many times a second under load). */
const statements = new WeakMap<Database, Map<string, Statement>>()
export function statement(db: Database, sql: string): Statement {
  let cache = statements.get(db)
  if (!cache) statements.set(db, (cache = new Map()))
  let prepared = cache.get(sql)
  if (!prepared) cache.set(sql, (prepared = db.prepare(sql)))
  return prepared
}

const upsertMessage = (json: string) =>
  `INSERT INTO messages (id, account, channel, status, created_at, outcome, message) VALUES (?, ?, ?, ?, ?, ?, ${json})
    ON CONFLICT (id) DO UPDATE SET status = excluded.status, outcome = excluded.outcome, message = excluded.message`
const UPSERT_MESSAGE = upsertMessage('?')
/** A large message's JSON made ahead as UTF-8 bytes (rows-ahead.ts): stored as the same TEXT. */
const UPSERT_MESSAGE_BYTES = upsertMessage('CAST(? AS TEXT)')

/** Writes the batch's messages; gives the characters of message JSON written. */
function writeMessages(
  db: Database,
  sandbox: SandboxState,
  batch: Batch<string, true>,
  jsonOf: (message: CapturedMessage) => string | Uint8Array,
): number {
  // A message's check report goes with it.
  if (batch.cleared) db.exec('DELETE FROM messages; DELETE FROM check_reports')
  if (batch.touched.size === 0) return 0
  let chars = 0
  const upsert = statement(db, UPSERT_MESSAGE)
  const remove = statement(db, 'DELETE FROM messages WHERE id = ?')
  for (const id of batch.touched.keys()) {
    const message = sandbox.outbox.peek(id)
    if (!message) {
      remove.run(id)
      statement(db, 'DELETE FROM check_reports WHERE id = ?').run(id)
      continue
    }
    const outcome = sandbox.outbox.pendingOutcome(id)
    const json = jsonOf(message)
    chars += typeof json === 'string' ? json.length : json.byteLength
    ;(typeof json === 'string' ? upsert : statement(db, UPSERT_MESSAGE_BYTES)).run(
      id,
      message.account,
      message.channel,
      message.status,
      message.created_at,
      outcome === undefined ? null : JSON.stringify(outcome),
      json,
    )
  }
  return chars
}

function writeSubscribers(db: Database, sandbox: SandboxState, batch: Batch<string, Subscriber | null>): void {
  if (batch.cleared) db.exec('DELETE FROM subscribers')
  if (batch.touched.size === 0) return
  const upsert = statement(
    db,
    `INSERT INTO subscribers (account, id, email, phone, subscriber) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (account, id) DO UPDATE SET email = excluded.email, phone = excluded.phone, subscriber = excluded.subscriber`,
  )
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
function writeKeyed<K extends string | number, V>(
  db: Database,
  table: string,
  batch: Batch<K, undefined>,
  find: (key: K) => V | undefined,
  values: (value: V) => Array<string | number | null>,
  columns: string,
  keyColumns: string,
  moveToEnd = false,
): void {
  if (batch.cleared) db.exec(`DELETE FROM ${table}`)
  if (batch.touched.size === 0) return
  const keys = keyColumns.split(', ')
  const others = columns.split(', ').filter((c) => !keys.includes(c))
  const remove = statement(db, `DELETE FROM ${table} WHERE ${keys.map((c) => `${c} = ?`).join(' AND ')}`)
  const write = statement(
    db,
    `INSERT INTO ${table} (${columns}) VALUES (${columns
      .split(', ')
      .map(() => '?')
      .join(
        ', ',
      )})${moveToEnd ? '' : ` ON CONFLICT (${keyColumns}) DO UPDATE SET ${others.map((c) => `${c} = excluded.${c}`).join(', ')}`}`,
  )
  for (const key of batch.touched.keys()) {
    const value = find(key)
    if (value === undefined || moveToEnd)
      remove.run(...(typeof key === 'string' && keys.length > 1 ? key.split('\u0000') : [key]))
    if (value !== undefined) write.run(...values(value))
  }
}

/** The kept clock offset, unless its row does not parse (then counted, and the real clock kept). */
export function restoreClock(sandbox: SandboxState, text: string, skipped: Skipped): void {
  try {
    const kept = JSON.parse(text) as { offset: unknown; frozenAt: unknown }
    if (Number.isFinite(kept.offset) && (kept.frozenAt === null || Number.isFinite(kept.frozenAt)))
      return sandbox.clock.restore(kept as { offset: number; frozenAt: number | null })
  } catch {
    // counted below
  }
  ;(skipped as Record<string, number>).clock = 1
}
