/**
 * Issue 36, item 3: a store that cannot be corrupted, each finding re-run through the built CLI
 * under Node 24: R4 a hard link to a running store, R11 file modes, R12 a crafted row, R13 files
 * sendbox did not make and a store deleted while running.
 */
import { existsSync, linkSync, mkdirSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { json, KEY, node24Script, runToExit, scratch, dataServers, sendEmail, sha, stop } from './helpers.js'

const start = dataServers()
const sqlite = (file: string, sql: string) =>
  node24Script(
    `import { DatabaseSync } from 'node:sqlite'; const db = new DatabaseSync(process.argv[1]); db.exec(process.argv[2]); db.close()`,
    [file, sql],
  )

describe('one process per store, whatever the path', () => {
  it('refuses a second sendbox on a hard link to the running store (R4), and the store stays whole', async () => {
    const dir = scratch()
    const file = join(dir, 'sandbox.db')
    const first = await start(file, ['--subscribers', '0'])
    expect((await sendEmail(first.apiUrl, 'one')).status).toBe(200)
    mkdirSync(join(dir, 'elsewhere'))
    const link = join(dir, 'elsewhere', 'linked.db')
    linkSync(file, link)
    const { code, stderr } = runToExit(['--port', '0', '--no-ui', '--data', link])
    expect(code).toBe(2)
    expect(stderr).toMatch(/in use by another sendbox/)
    expect((await sendEmail(first.apiUrl, 'two')).status).toBe(200)
    await stop(first)
    expect(
      node24Script(
        `import { DatabaseSync } from 'node:sqlite'; const db = new DatabaseSync(process.argv[1]); console.log(db.prepare('PRAGMA integrity_check').get().integrity_check, db.prepare('SELECT count(*) AS n FROM messages').get().n)`,
        [file],
      ).trim(),
    ).toBe('ok 2')
  }, 60_000)

  it('creates the store 0600 in a directory it makes 0700, and leaves no -lock file (R11)', async () => {
    const dir = join(scratch(), 'made-by-sendbox')
    const file = join(dir, 'sandbox.db')
    const cli = await start(file)
    expect((await sendEmail(cli.apiUrl, 'x')).status).toBe(200)
    for (const name of readdirSync(dir))
      expect({ name, mode: (statSync(join(dir, name)).mode & 0o777).toString(8) }).toEqual({ name, mode: '600' })
    expect((statSync(dir).mode & 0o777).toString(8)).toBe('700')
    expect(existsSync(`${file}-lock`)).toBe(false)
  }, 60_000)
})

describe('rows are checked as they load', () => {
  it('skips a crafted row with one start-up line and stays up past its lifecycle step (R12)', async () => {
    const file = join(scratch(), 'sandbox.db')
    const first = await start(file, ['--subscribers', '0', '--delivery-ms', '200'])
    const { message_id } = await json(sendEmail(first.apiUrl, 'kept'))
    await stop(first)
    // A queued message whose history is not a list: its first lifecycle step threw from a timer at every start.
    const crafted = JSON.stringify({
      message_id: 'msg_crafted',
      direction: 'outbound',
      account: 'acct_test_pro',
      plan: 'pro',
      key: 'test…pro',
      to: 'a@b.test',
      request: {},
      status: 'queued',
      reason: null,
      status_history: 'boom',
      created_at: new Date().toISOString(),
      text: null,
      links: null,
      images: null,
      codes: null,
      channel: 'email',
      email: { from: null, subject: 's', html: '<p>x</p>' },
    })
    sqlite(
      file,
      `INSERT INTO messages (id, account, channel, status, created_at, outcome, message) VALUES ('msg_crafted', 'acct_test_pro', 'email', 'queued', '2026-01-01T00:00:00Z', '{"kind":"delivered"}', '${crafted.replace(/'/g, "''")}');
      INSERT INTO messages (id, account, channel, status, created_at, outcome, message) VALUES ('msg_broken', 'acct_test_pro', 'email', 'queued', '2026-01-01T00:00:00Z', NULL, '{not json');
      INSERT INTO journal (id, at, account, entry) VALUES (999999, 'x', NULL, '{"id":"nope"}');`,
    )
    const second = await start(file, ['--subscribers', '0', '--delivery-ms', '200'])
    await expect
      .poll(() => second.stderr(), { timeout: 5_000 })
      .toMatch(/skipped 3 rows that do not parse \(messages 2, journal 1\)/)
    expect(second.stderr().match(/skipped/g)).toHaveLength(1)
    const { message_id: fresh } = await json(sendEmail(second.apiUrl, 'after'))
    await expect
      .poll(async () => (await json(fetch(`${second.origin}/__sandbox/messages/${fresh}`))).status, { timeout: 5_000 })
      .toBe('delivered')
    expect((await fetch(`${second.origin}/__sandbox/messages/${message_id}`)).status).toBe(200)
    expect((await fetch(`${second.origin}/__sandbox/messages/msg_crafted`)).status).toBe(404)
    expect(second.child.exitCode).toBeNull()
  }, 60_000)
})

describe('the outbox is restored page by page', () => {
  it('2,500 rows over three pages, a broken row in the second: every other row back, oldest to newest (issue 37)', async () => {
    const file = join(scratch(), 'sandbox.db')
    const first = await start(file, ['--subscribers', '0', '--delivery-ms', '0'])
    await json(sendEmail(first.apiUrl, 'original'))
    await stop(first)
    const copies = (
      from: number,
      to: number,
    ) => `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to})
      INSERT INTO messages (id, account, channel, status, created_at, outcome, message)
      SELECT 'msg_copy_' || i, account, channel, status, created_at, outcome, json_set(message, '$.message_id', 'msg_copy_' || i) FROM n, (SELECT * FROM messages WHERE id NOT LIKE 'msg_copy_%' LIMIT 1);`
    sqlite(
      file,
      `${copies(1, 1_200)}
      INSERT INTO messages (id, account, channel, status, created_at, outcome, message) VALUES ('msg_broken', 'a', 'email', 'queued', 'x', NULL, '{not json');
      ${copies(1_201, 2_499)}`,
    )
    const second = await start(file, ['--subscribers', '0'])
    await expect
      .poll(() => second.stderr(), { timeout: 5_000 })
      .toMatch(/skipped 1 row that does not parse \(messages 1\)|skipped 1 rows? that do(es)? not parse \(messages 1\)/)
    const page = await json(fetch(`${second.origin}/__sandbox/messages?limit=100&page=25`))
    expect(page.pagination.total).toBe(2_500)
    expect(page.data.at(-1).message_id).not.toMatch(/^msg_copy_/)
    expect((await json(fetch(`${second.origin}/__sandbox/messages?limit=1`))).data[0].message_id).toBe('msg_copy_2499')
    expect((await json(fetch(`${second.origin}/__sandbox/messages?limit=1&page=1300`))).data[0].message_id).toBe(
      'msg_copy_1200',
    )
  }, 60_000)
})

describe('only a store sendbox made is opened', () => {
  it('refuses a view-only SQLite file, an empty SQLite file and a 0-byte file, leaving each byte for byte as it was, with nothing beside it (R13)', () => {
    const dir = scratch()
    const views = join(dir, 'views.db')
    sqlite(views, 'CREATE VIEW v AS SELECT 1 AS one')
    const empty = join(dir, 'empty.db')
    sqlite(empty, 'CREATE TABLE t (x); DROP TABLE t')
    const zero = join(dir, 'zero.db')
    writeFileSync(zero, '')
    for (const file of [views, empty, zero]) {
      const before = sha(file)
      const listing = readdirSync(dir).sort()
      const { code, stderr } = runToExit(['--port', '0', '--no-ui', '--data', file])
      expect({ file, code }).toEqual({ file, code: 2 })
      expect(stderr).toMatch(/not a sendbox store|empty file/)
      expect(sha(file)).toBe(before)
      expect(readdirSync(dir).sort()).toEqual(listing)
    }
  })

  it('notices a store deleted while running: the next write fails loudly and says so (R13)', async () => {
    const file = join(scratch(), 'sandbox.db')
    const cli = await start(file, ['--subscribers', '0'])
    expect((await sendEmail(cli.apiUrl, 'kept')).status).toBe(200)
    unlinkSync(file)
    const failed = await sendEmail(cli.apiUrl, 'lost')
    expect(failed.status).toBe(500)
    expect((await failed.json()).error.message).toMatch(/deleted while sendbox ran/)
    await expect.poll(() => cli.stderr(), { timeout: 5_000 }).toMatch(/deleted while sendbox ran/)
    expect(
      (
        await fetch(`${cli.apiUrl}/subscribers`, {
          method: 'POST',
          headers: KEY,
          body: JSON.stringify({ email: 'x@example.com' }),
        })
      ).status,
    ).toBe(500)
  }, 60_000)
})
