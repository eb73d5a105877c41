import { builtin, describeError, type Database, type loadSqlite } from './sqlite.js'
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js'
import { APPLICATION_ID, StoreFileError } from './store-file.js'

/** Opening a store file: creating it, locking it, checking it is sendbox's, migrating it. */

/** A new store file: its directory made (0700 when sendbox makes it), the file itself 0600 (issue 36, R11). */
export function createStoreFile(path: string, directory: string): void {
  const fs = builtin('node:fs')
  try {
    fs.mkdirSync(directory, { recursive: true, mode: 0o700 })
    fs.closeSync(fs.openSync(path, 'wx', 0o600))
  } catch (error) {
    throw new StoreFileError(`cannot use ${path} as the store: ${describeError(error)}`)
  }
}

/**
 * Opens the store holding SQLite's own exclusive lock on the file for as long as the sandbox
 * runs (`locking_mode=EXCLUSIVE` and one write transaction): the lock is on the file itself, so a
 * second sendbox is refused whatever path names it (a hard link, a bind mount, a symlink), and
 * the OS drops it when the process exits, even on `kill -9` (issue 36, R4).
 */
export function lockedDatabase(DatabaseSync: ReturnType<typeof loadSqlite>, path: string): Database {
  let db: Database
  try {
    db = new DatabaseSync(path, { timeout: 0 })
  } catch (error) {
    throw new StoreFileError(`cannot use ${path} as the store: ${describeError(error)}`)
  }
  try {
    db.exec('PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT')
  } catch (error) {
    db.close()
    if (/locked|busy/i.test(describeError(error)))
      throw new StoreFileError(
        `${path} is in use by another sendbox (or another program holds it open); stop it, or pass another file to --data`,
      )
    throw new StoreFileError(`cannot lock ${path}: ${describeError(error)}`)
  }
  return db
}

/** After SQLite opened it: a database with tables but not sendbox's id is another program's; it is left as it is. */
export function checkOpened(db: Database, path: string): void {
  const application = Number(db.prepare('PRAGMA application_id').get()?.application_id ?? 0)
  const tables = Number(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get()?.n ?? 0)
  if (application !== APPLICATION_ID && tables > 0) {
    db.close()
    throw new StoreFileError(
      `${path} is an SQLite database of another program, not a sendbox store; sendbox left it untouched. Pass a new file to --data.`,
    )
  }
  const version = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0)
  if (version > SCHEMA_VERSION) {
    db.close()
    throw new StoreFileError(
      `${path} was written by a newer sendbox (store version ${version}; this one reads up to ${SCHEMA_VERSION}); sendbox left it untouched. Upgrade sendbox, or pass a new file to --data.`,
    )
  }
}

/** Brings the schema to {@link SCHEMA_VERSION}, each step in the one transaction with its version. */
export function migrate(db: Database): void {
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
