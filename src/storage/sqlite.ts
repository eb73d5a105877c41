/**
 * `node:sqlite`, loaded only when a store is opened (a sandbox without `--data` never loads it).
 * Typed here by the few calls sendbox makes: the project's @types/node is Node 20's, which has no
 * `node:sqlite` (it arrived unflagged in Node 22.13).
 */
export interface Statement {
  run(...values: Array<string | number | null | Uint8Array>): unknown
  all(...values: Array<string | number | null>): Array<Record<string, unknown>>
  get(...values: Array<string | number | null>): Record<string, unknown> | undefined
}

export interface Database {
  exec(sql: string): void
  prepare(sql: string): Statement
  close(): void
  readonly isOpen?: boolean
}

interface SqliteModule {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean; timeout?: number }) => Database
}

/**
 * A Node built-in fetched when a store is opened, not imported: the library (also bundled for
 * browsers under `setupWorker`) keeps no static import of node:fs, node:path or node:crypto.
 */
export function builtin<T extends 'node:fs' | 'node:path' | 'node:crypto'>(
  name: T,
): T extends 'node:fs'
  ? typeof import('node:fs')
  : T extends 'node:path'
    ? typeof import('node:path')
    : typeof import('node:crypto') {
  return process.getBuiltinModule(name) as never
}

/** The oldest Node whose `node:sqlite` needs no flag. */
export const SQLITE_NODE = '22.13'

/**
 * `node:sqlite`'s `DatabaseSync`, or an Error with one line saying which Node is needed. Node 22
 * and 24 print an ExperimentalWarning when the module loads: sendbox chose it knowingly
 * (docs/decisions/persistence.md), so that one warning is not printed.
 */
export function loadSqlite(): SqliteModule['DatabaseSync'] {
  const emitWarning = process.emitWarning
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message
    if (/SQLite is an experimental feature/i.test(text)) return
    ;(emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest)
  }) as typeof process.emitWarning
  let loaded: SqliteModule | undefined
  try {
    loaded = process.getBuiltinModule?.('node:sqlite') as SqliteModule | undefined
  } catch {
    loaded = undefined
  } finally {
    process.emitWarning = emitWarning
  }
  if (!loaded?.DatabaseSync) {
    throw new Error(
      `--data needs Node ${SQLITE_NODE} or later (it keeps the sandbox in node:sqlite); this is Node ${process.versions.node}. Run without --data, or on Node 22 or 24.`,
    )
  }
  return loaded.DatabaseSync
}

/** The first line of an error's message (SQLite's, a file system's). */
export function describeError(error: unknown): string {
  const err = error as { code?: string; errcode?: number; message?: string }
  return err.message?.split('\n')[0] ?? String(error)
}
