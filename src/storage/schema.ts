/**
 * The tables of a sendbox store, by schema version (`PRAGMA user_version`). A store of an older
 * version is migrated in place, one step at a time, in one transaction; docs/persistence.md
 * documents each table. Each row holds the object as the API shows it (JSON in a TEXT column) plus
 * the columns a person querying with the `sqlite3` CLI filters on.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: messages, subscribers, the journal, faults, opt-outs, settings.
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE messages (id TEXT PRIMARY KEY, account TEXT NOT NULL, channel TEXT NOT NULL, status TEXT NOT NULL,
     created_at TEXT NOT NULL, outcome TEXT, message TEXT NOT NULL);
   CREATE TABLE subscribers (account TEXT NOT NULL, id TEXT NOT NULL, email TEXT, phone TEXT, subscriber TEXT NOT NULL,
     PRIMARY KEY (account, id));
   CREATE TABLE journal (id INTEGER PRIMARY KEY, at TEXT NOT NULL, account TEXT, entry TEXT NOT NULL);
   CREATE TABLE faults (id TEXT PRIMARY KEY, fault TEXT NOT NULL);
   CREATE TABLE opt_outs (account TEXT NOT NULL, number TEXT NOT NULL, opt_out TEXT NOT NULL, PRIMARY KEY (account, number));`,
  // 2: webhook attempts (the inspector's store).
  `CREATE TABLE webhook_attempts (id TEXT PRIMARY KEY, account TEXT NOT NULL, attempt TEXT NOT NULL);`,
  // 3: check reports (issue 35), one per message that was checked, removed with its message.
  `CREATE TABLE check_reports (id TEXT PRIMARY KEY, report TEXT NOT NULL);`,
]

/** The schema version this build writes (and the newest it reads). */
export const SCHEMA_VERSION = MIGRATIONS.length
