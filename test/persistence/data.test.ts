import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../../src/storage/schema.js'
import {
  copyOfRunningStore,
  json,
  KEY,
  node24Script,
  runToExit,
  scratch,
  dataServers,
  sendEmail,
  sha,
  stop,
} from './helpers.js'

/**
 * `--data FILE` through the public surface: the built CLI under Node 24, over HTTP, restarted,
 * killed, pointed at files that are not stores. Issue 24, part 3.
 */
const start = dataServers()

describe('--data keeps the sandbox across restarts', () => {
  it('subscribers, messages, journal, faults, opt-outs and the clock offset survive a SIGTERM restart', async () => {
    const file = join(scratch(), 'sandbox.db')
    const first = await start(file, ['--delivery-ms', '0'])
    const sent = await json(sendEmail(first.apiUrl, 'Welcome'))
    const subscriber = await json(
      fetch(`${first.apiUrl}/subscribers`, {
        method: 'POST',
        headers: KEY,
        body: JSON.stringify({ email: 'kept@example.com', tags: ['vip'] }),
      }),
    )
    await json(
      fetch(`${first.apiUrl}/subscribers/${subscriber.id}`, {
        method: 'PUT',
        headers: KEY,
        body: JSON.stringify({ first_name: 'Kept' }),
      }),
    )
    await json(
      fetch(`${first.origin}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 503, times: 3, path: '/v1/sms/send' }),
      }),
    )
    await json(
      fetch(`${first.origin}/__sandbox/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance_ms: 86_400_000 }),
      }),
    )
    await json(
      fetch(`${first.origin}/__sandbox/inbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'sms', key: 'test_pro', from: '+14155550123', text: 'STOP' }),
      }),
    )
    const before = {
      messages: await json(fetch(`${first.origin}/__sandbox/messages`)),
      subscribers: await json(fetch(`${first.apiUrl}/subscribers?limit=100`, { headers: KEY })),
      requests: await json(fetch(`${first.origin}/__sandbox/requests`)),
      faults: await json(fetch(`${first.origin}/__sandbox/faults`)),
      optOuts: await json(fetch(`${first.origin}/__sandbox/opt-outs`)),
    }
    await stop(first)

    const second = await start(file, ['--delivery-ms', '0'])
    await expect.poll(() => second.stdout()).toContain(`data: ${file} (`)
    const message = await json(fetch(`${second.origin}/__sandbox/messages/${sent.message_id}`))
    expect(message.email.subject).toBe('Welcome')
    expect(message.codes).toEqual(['123456'])
    expect(await json(fetch(`${second.origin}/__sandbox/messages`))).toEqual(before.messages)
    const subscribers = await json(fetch(`${second.apiUrl}/subscribers?limit=100`, { headers: KEY }))
    expect(subscribers).toEqual(before.subscribers)
    expect(subscribers.data.find((s: { id: string }) => s.id === subscriber.id).first_name).toBe('Kept')
    // The default accounts keep their ids (the salt is in the store), so the key still owns them.
    expect((await json(fetch(`${second.apiUrl}/subscribers/${subscriber.id}`, { headers: KEY }))).email).toBe(
      'kept@example.com',
    )
    expect((await json(fetch(`${second.origin}/__sandbox/requests`))).data.slice(-before.requests.data.length)).toEqual(
      before.requests.data,
    )
    expect(await json(fetch(`${second.origin}/__sandbox/faults`))).toEqual(before.faults)
    expect(await json(fetch(`${second.origin}/__sandbox/opt-outs`))).toEqual(before.optOuts)
    const clock = await json(fetch(`${second.origin}/__sandbox/clock`))
    expect(clock.offset_ms).toBeGreaterThanOrEqual(86_400_000 - 5_000)
    // A kept fault still counts down: its three answers, then the send goes through.
    const sms = () =>
      fetch(`${second.apiUrl}/sms/send`, {
        method: 'POST',
        headers: KEY,
        body: JSON.stringify({ to: '+14155550100', message: 'hi' }),
      })
    expect([(await sms()).status, (await sms()).status, (await sms()).status, (await sms()).status]).toEqual([
      503, 503, 503, 200,
    ])
  }, 60_000)

  it('a message still in its lifecycle at the stop finishes it after the restart', async () => {
    const file = join(scratch(), 'sandbox.db')
    const first = await start(file, ['--delivery-ms', '600'])
    const { message_id: delivered } = await json(sendEmail(first.apiUrl, 'Later'))
    const { message_id: bounced } = await json(
      fetch(`${first.apiUrl}/email/send`, {
        method: 'POST',
        headers: KEY,
        body: JSON.stringify({ to: 'bounce@sendbox.test', subject: 'x', html: '<p>x</p>' }),
      }),
    )
    await stop(first)
    const second = await start(file, ['--delivery-ms', '600'])
    const statusOf = async (id: string) => (await json(fetch(`${second.origin}/__sandbox/messages/${id}`))).status
    await expect.poll(() => statusOf(delivered), { timeout: 5_000 }).toBe('delivered')
    await expect.poll(() => statusOf(bounced), { timeout: 5_000 }).toBe('failed')
  }, 30_000)

  it('kill -9: every answered write is there after the restart, once', async () => {
    const file = join(scratch(), 'sandbox.db')
    const first = await start(file)
    const ids: string[] = []
    // Sixty sends, twenty at a time, and subscribers beside them; the kill comes right after the last answer.
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => json(sendEmail(first.apiUrl, `r${round}-${i}`))),
      )
      ids.push(...answers.map((a) => a.message_id))
    }
    const created = await json(
      fetch(`${first.apiUrl}/subscribers`, {
        method: 'POST',
        headers: KEY,
        body: JSON.stringify({ phone: '+14155550111' }),
      }),
    )
    first.child.kill('SIGKILL')
    await first.exited
    const second = await start(file)
    const kept = (await json(fetch(`${second.origin}/__sandbox/messages?limit=100`))).data.map(
      (m: { message_id: string }) => m.message_id,
    )
    expect(kept.length).toBe(60)
    expect(new Set(kept)).toEqual(new Set(ids))
    expect((await fetch(`${second.apiUrl}/subscribers/${created.id}`, { headers: KEY })).status).toBe(200)
    expect(
      node24Script(
        `import { DatabaseSync } from 'node:sqlite'; console.log(new DatabaseSync(process.argv[1]).prepare('PRAGMA integrity_check').get().integrity_check)`,
        [copyOfRunningStore(file)],
      ).trim(),
    ).toBe('ok')
  }, 60_000)

  it('reset, DELETE /__sandbox/messages and the outbox cap act on the store', async () => {
    const file = join(scratch(), 'sandbox.db')
    const first = await start(file, ['--max-messages', '5', '--subscribers', '2'])
    for (let i = 0; i < 12; i++) await sendEmail(first.apiUrl, `m${i}`)
    const rows = (table: string) =>
      Number(
        node24Script(
          `import { DatabaseSync } from 'node:sqlite'; console.log(new DatabaseSync(process.argv[1], { readOnly: true }).prepare('SELECT count(*) AS n FROM ${table}').get().n)`,
          [copyOfRunningStore(file)],
        ),
      )
    await new Promise((r) => setTimeout(r, 300))
    expect(rows('messages')).toBe(5)
    expect((await fetch(`${first.origin}/__sandbox/messages`, { method: 'DELETE' })).status).toBeLessThan(300)
    await new Promise((r) => setTimeout(r, 300))
    expect(rows('messages')).toBe(0)
    await fetch(`${first.apiUrl}/subscribers`, {
      method: 'POST',
      headers: KEY,
      body: JSON.stringify({ email: 'gone@example.com' }),
    })
    const seeded = rows('subscribers') - 1
    expect(
      (
        await fetch(`${first.origin}/__sandbox/reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(200)
    await new Promise((r) => setTimeout(r, 300))
    expect(rows('subscribers')).toBe(seeded)
    await stop(first)
    const second = await start(file, ['--max-messages', '5', '--subscribers', '2'])
    const emails = (await json(fetch(`${second.apiUrl}/subscribers?limit=100`, { headers: KEY }))).data.map(
      (s: { email: string }) => s.email,
    )
    expect(emails).not.toContain('gone@example.com')
  }, 60_000)
})

describe('--data refuses what it must not touch', () => {
  const refused = (file: string) => runToExit(['--port', '0', '--no-ui', '--data', file])

  it("a file that is not a store, another program's database and a newer store: one line each, the file untouched", () => {
    const dir = scratch()
    const text = join(dir, 'notes.txt')
    writeFileSync(text, 'my notes, not a database\n'.repeat(20))
    const other = join(dir, 'other.db')
    node24Script(
      `import { DatabaseSync } from 'node:sqlite'; const db = new DatabaseSync(process.argv[1]); db.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1)"); db.close()`,
      [other],
    )
    const newer = join(dir, 'newer.db')
    node24Script(
      `import { DatabaseSync } from 'node:sqlite'; const db = new DatabaseSync(process.argv[1]); db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); PRAGMA application_id = ${0x53424f58}; PRAGMA user_version = 99"); db.close()`,
      [newer],
    )
    for (const [file, says] of [
      [text, 'is not a sendbox store'],
      [other, 'of another program'],
      [newer, 'newer sendbox'],
    ] as const) {
      const hash = sha(file)
      const { code, stderr } = refused(file)
      expect(code).toBe(2)
      expect(stderr.trim().split('\n')).toHaveLength(1)
      expect(stderr).toContain(file)
      expect(stderr).toContain(says)
      expect(sha(file)).toBe(hash)
      expect(existsSync(`${file}-wal`)).toBe(false)
      expect(existsSync(`${file}-journal`)).toBe(false)
    }
  }, 60_000)

  it('an older store (version 1) is migrated in place and keeps its rows', async () => {
    const file = join(scratch(), 'old.db')
    const message = {
      message_id: 'msg_old1',
      channel: 'sms',
      direction: 'outbound',
      account: 'acct_old',
      plan: 'pro',
      key: 't…o',
      to: '+14155550100',
      request: { to: '+14155550100', message: 'from v1' },
      text: 'from v1',
      links: [],
      images: [],
      codes: [],
      sms: { text: 'from v1', from: null, encoding: 'GSM-7', units: 7, characters: 7, segments: 1 },
      status: 'delivered',
      reason: null,
      status_history: [
        { status: 'queued', at: '2026-01-01T00:00:00.000Z' },
        { status: 'sent', at: '2026-01-01T00:00:01.000Z' },
        { status: 'delivered', at: '2026-01-01T00:00:02.000Z' },
      ],
      created_at: '2026-01-01T00:00:00.000Z',
    }
    node24Script(
      `
      import { DatabaseSync } from 'node:sqlite'
      const db = new DatabaseSync(process.argv[1])
      db.exec(process.argv[2])
      db.exec("PRAGMA application_id = ${0x53424f58}; PRAGMA user_version = 1")
      db.prepare("INSERT INTO meta VALUES ('seeded', '2026-01-01'), ('account_salt', 'abcdefabcdefabcdefabcdefabcdef00')").run()
      db.prepare('INSERT INTO messages VALUES (?, ?, ?, ?, ?, NULL, ?)').run('msg_old1', 'acct_old', 'sms', 'delivered', '2026-01-01T00:00:00.000Z', process.argv[3])
      db.close()`,
      [file, MIGRATIONS[0], JSON.stringify(message)],
    )
    const cli = await start(file)
    expect((await json(fetch(`${cli.origin}/__sandbox/messages/msg_old1`))).text).toBe('from v1')
    await stop(cli)
    expect(
      node24Script(
        `import { DatabaseSync } from 'node:sqlite'; const db = new DatabaseSync(process.argv[1]); console.log(db.prepare('PRAGMA user_version').get().user_version, db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'webhook_attempts'").get().n)`,
        [file],
      ).trim(),
    ).toBe(`${MIGRATIONS.length} 1`)
  }, 60_000)

  it('a second sandbox on the same store is refused at start; the first goes on', async () => {
    const file = join(scratch(), 'shared.db')
    const first = await start(file)
    await sendEmail(first.apiUrl, 'one')
    const { code, stderr } = refused(file)
    expect(code).toBe(2)
    expect(stderr).toMatch(/is in use by another sendbox/)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect((await sendEmail(first.apiUrl, 'two')).status).toBe(200)
    expect((await json(fetch(`${first.origin}/__sandbox/health`))).messages).toBe(2)
  }, 60_000)

  it('an unwritable path fails at start with one line', () => {
    const dir = scratch()
    const blocker = join(dir, 'a-file')
    writeFileSync(blocker, 'x')
    const { code, stderr } = refused(join(blocker, 'sandbox.db'))
    expect(code).toBe(2)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toMatch(/^sendbox: /)
    expect(stderr).not.toMatch(/\n\s+at /)
  })

  it('on Node 20, --data fails at start with one line naming the Node it needs', () => {
    const { code, stderr } = runToExit(['--port', '0', '--no-ui', '--data', join(scratch(), 'x.db')], process.execPath)
    if (Number(process.versions.node.split('.')[0]) >= 23) return // this suite's Node has node:sqlite
    expect(code).toBe(2)
    expect(stderr.trim()).toMatch(/^sendbox: --data needs Node 22\.13 or later .*this is Node 20\./)
  })
})

describe('--data on a full disk (a 512 KiB tmpfs)', () => {
  it('a write that cannot be kept answers 500 internal_error, is undone in memory, and the server goes on', async () => {
    const { execFileSync } = await import('node:child_process')
    const mount = join(scratch(), 'tiny')
    try {
      execFileSync('mkdir', ['-p', mount])
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', mount], { stdio: 'ignore' })
    } catch {
      console.warn('skipped: mounting a tmpfs needs root (the full-disk test runs as root in CI)')
      return
    }
    try {
      const file = join(mount, 'sandbox.db')
      const cli = await start(file, ['--subscribers', '0'])
      const big = `<p>${'x'.repeat(60_000)}</p>`
      const answers: Array<{ status: number; body: any; subject: string }> = []
      for (let i = 0; i < 40 && !answers.some((a) => a.status === 500); i++) {
        const response = await sendEmail(cli.apiUrl, `big ${i}`, big)
        answers.push({ status: response.status, body: await response.json(), subject: `big ${i}` })
      }
      const failed = answers.find((a) => a.status === 500)
      expect(failed, 'the disk never filled').toBeDefined()
      expect(failed!.body.error.code).toBe('internal_error')
      expect(failed!.body.error.message).toMatch(/could not write its store .*undone/)
      expect(JSON.stringify(failed!.body)).not.toMatch(/\n\s+at /)
      // The failed send is not in the outbox; every accepted one is.
      const listed = (await json(fetch(`${cli.origin}/__sandbox/messages?limit=100`))).data.map(
        (m: { email: { subject: string } }) => m.email.subject,
      )
      expect(listed).not.toContain(failed!.subject)
      const accepted = answers.filter((a) => a.status === 200).map((a) => a.subject)
      expect(new Set(listed)).toEqual(new Set(accepted))
      // Still answering: reads, and a small subscriber write fails or succeeds cleanly.
      expect((await fetch(`${cli.origin}/__sandbox/health`)).status).toBe(200)
      const small = await fetch(`${cli.apiUrl}/subscribers`, {
        method: 'POST',
        headers: KEY,
        body: JSON.stringify({ email: 'small@example.com' }),
      })
      expect([200, 500]).toContain(small.status)
      await stop(cli)
      // A full disk at start is one clear line naming the file.
      const full = runToExit(['--port', '0', '--no-ui', '--subscribers', '0', '--data', file])
      if (full.code !== 0)
        expect(full.stderr.trim()).toMatch(new RegExp(`^sendbox: cannot use ${file} as the store: .*full`))
      // Nothing answered 200 is lost: after the restart (on a freed disk) every accepted send is there.
      execFileSync('mount', ['-o', 'remount,size=8m', mount])
      const restarted = await start(file, ['--subscribers', '0'])
      const kept = (await json(fetch(`${restarted.origin}/__sandbox/messages?limit=100`))).data.map(
        (m: { email: { subject: string } }) => m.email.subject,
      )
      expect(new Set(kept)).toEqual(new Set(accepted))
      await stop(restarted)
    } finally {
      execFileSync('umount', ['-l', mount], { stdio: 'ignore' })
    }
  }, 60_000)
})

describe('a large message in the store', () => {
  it('a 1 MiB email, its JSON made ahead in turns and written as UTF-8, reads back whole after a restart', async () => {
    const file = join(scratch(), 'large.db')
    const first = await start(file, ['--delivery-ms', '0', '--subscribers', '0'])
    const html = `<p>Your code is 482913. D\u00e9j\u00e0 vu \u2713 ${'a '.repeat(500_000)}</p><a href="https://example.com/r">r</a>`
    const sent = await json(sendEmail(first.apiUrl, 'Large \u2713', html))
    const read = () => json(fetch(`${first.origin}/__sandbox/messages/${sent.message_id}`))
    let before = await read()
    for (let i = 0; i < 100 && before.status !== 'delivered'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      before = await read()
    }
    expect(before.status).toBe('delivered')
    await stop(first)
    const rowFile = join(scratch(), 'row.json')
    node24Script(
      `import { DatabaseSync } from 'node:sqlite'; import { writeFileSync } from 'node:fs'; const db = new DatabaseSync(process.argv[1], { readOnly: true }); writeFileSync(process.argv[2], JSON.stringify(db.prepare("SELECT typeof(message) AS type, status, message FROM messages").get()))`,
      [file, rowFile],
    )
    const row = JSON.parse(readFileSync(rowFile, 'utf8'))
    expect(row.type).toBe('text')
    expect(row.status).toBe('delivered')
    expect(JSON.parse(row.message)).toEqual(before)
    const second = await start(file, ['--delivery-ms', '0', '--subscribers', '0'])
    const after = await json(fetch(`${second.origin}/__sandbox/messages/${sent.message_id}`))
    expect(after).toEqual(before)
    expect(after.email.html).toBe(html)
    expect(after.email.subject).toBe('Large \u2713')
    expect(after.codes).toEqual(['482913'])
    expect(after.links).toEqual(['https://example.com/r'])
  }, 60_000)
})

describe('the in-process option `data`', () => {
  it('createSandbox({ data }) keeps subscribers and messages across sandboxes; without it node:sqlite is never loaded', () => {
    const file = join(scratch(), 'in-process.db')
    const out = node24Script(
      `
      import { setupServer } from 'msw/node'
      const { createSandbox } = await import('./dist/lib/index.js')
      const sqliteLoaded = () => process.moduleLoadList.some((m) => /sqlite/.test(m))
      const plain = createSandbox()
      await plain.ready
      const loadedWithout = sqliteLoaded()
      plain.dispose()
      const first = createSandbox({ data: process.argv[1], baseUrl: 'https://api.test/v1' })
      const server = setupServer(...first.handlers)
      server.listen({ onUnhandledRequest: 'error' })
      const headers = { authorization: 'Bearer test_pro', 'content-type': 'application/json' }
      const sent = await (await fetch('https://api.test/v1/email/send', { method: 'POST', headers, body: JSON.stringify({ to: 'ana@example.com', subject: 'kept', html: '<p>123456</p>' }) })).json()
      await fetch('https://api.test/v1/subscribers', { method: 'POST', headers, body: JSON.stringify({ email: 'kept@example.com' }) })
      server.close()
      first.dispose()
      const second = createSandbox({ data: process.argv[1] })
      await second.ready
      const account = second.accountOf('test_pro')
      console.log(JSON.stringify({ loadedWithout, loadedWith: sqliteLoaded(), subject: second.outbox.get(sent.message_id)?.email.subject, emails: second.subscribers.all(account).map((s) => s.email) }))
      second.dispose()
    `,
      [file],
    )
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({
      loadedWithout: false,
      loadedWith: true,
      subject: 'kept',
      emails: ['kept@example.com'],
    })
  }, 60_000)
})

describe('the store holds what the caps keep, no more', () => {
  it('journal and outbox rows stay within --max-requests and --max-messages', async () => {
    const file = join(scratch(), 'capped.db')
    const cli = await start(file, ['--max-messages', '7', '--max-requests', '9', '--subscribers', '0'])
    for (let i = 0; i < 40; i++) await sendEmail(cli.apiUrl, `m${i}`)
    await stop(cli)
    const counts = node24Script(
      `import { DatabaseSync } from 'node:sqlite'; const db = new DatabaseSync(process.argv[1], { readOnly: true }); console.log(['messages', 'journal'].map((t) => db.prepare('SELECT count(*) AS n FROM ' + t).get().n).join(' '))`,
      [file],
    ).trim()
    expect(counts).toBe('7 9')
  }, 60_000)
})
