import { builtin } from './sqlite.js'

/**
 * Checks a `--data` file before SQLite opens it, from its header bytes alone, so a file that is
 * not a sendbox store is never opened for writing (SQLite would add a journal, or a schema).
 * The layout is SQLite's (https://sqlite.org/fileformat.html §1.3): the 16-byte magic string,
 * `user_version` at offset 60 and `application_id` at offset 68, both big-endian.
 */

/** `PRAGMA application_id` of a sendbox store: "SBOX". */
export const APPLICATION_ID = 0x53424f58

/** A store sendbox cannot use: the message is the one line printed at start. */
export class StoreFileError extends Error {
  override readonly name = 'StoreFileError'
}

/** What the header says: a new (absent) file, or a sendbox store of this schema version. */
export type StoreFileKind = { kind: 'new' } | { kind: 'store'; version: number }

const MAGIC = 'SQLite format 3\u0000'

/**
 * Reads the header of `path`. Throws a {@link StoreFileError} naming the file for anything that is
 * not a sendbox store of a version this build reads (`newest`): another program's database, a
 * store written by a newer sendbox, any other file.
 */
export function inspectStoreFile(path: string, newest: number): StoreFileKind {
  const { closeSync, existsSync, openSync, readSync, statSync } = builtin('node:fs')
  let size: number
  try {
    const stat = statSync(path)
    if (!stat.isFile())
      throw new StoreFileError(`${path} is not a file; --data takes a file path (it is created when missing)`)
    size = stat.size
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'new' }
    throw error
  }
  if (size === 0)
    throw new StoreFileError(
      `${path} is an empty file, not a sendbox store; sendbox left it untouched. Remove it (sendbox creates the store), or pass a new file to --data.`,
    )
  const header = Buffer.alloc(100)
  const fd = openSync(path, 'r')
  let read: number
  try {
    read = readSync(fd, header, 0, 100, 0)
  } finally {
    closeSync(fd)
  }
  if (read < 100 || header.toString('latin1', 0, 16) !== MAGIC) {
    throw new StoreFileError(
      `${path} is not a sendbox store (not an SQLite database); sendbox left it untouched. Pass a new file to --data.`,
    )
  }
  const version = header.readUInt32BE(60)
  const application = header.readUInt32BE(68)
  // A store an older sendbox made whose first transaction is still only in its WAL reads 0 here:
  // SQLite decides (after opening). Without a WAL it is an SQLite file sendbox did not make (an
  // empty database, one holding only views…), and it is left as it is (issue 36, R13).
  if (application === 0 && version === 0 && existsSync(`${path}-wal`)) return { kind: 'store', version: 0 }
  if (application === 0 && version === 0) {
    throw new StoreFileError(
      `${path} is an SQLite database of another program, not a sendbox store (it has no sendbox id); sendbox left it untouched. Pass a new file to --data.`,
    )
  }
  if (application !== APPLICATION_ID) {
    throw new StoreFileError(
      `${path} is an SQLite database of another program, not a sendbox store; sendbox left it untouched. Pass a new file to --data.`,
    )
  }
  if (version > newest) {
    throw new StoreFileError(
      `${path} was written by a newer sendbox (store version ${version}; this one reads up to ${newest}); sendbox left it untouched. Upgrade sendbox, or pass a new file to --data.`,
    )
  }
  return { kind: 'store', version }
}
