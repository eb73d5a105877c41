import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The terminal UI as a user meets it: the built CLI in a real terminal (tmux, 100×30), messages
 * sent over HTTP, the screen read back with `capture-pane`, details opened with the keys.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CLI = `${ROOT}dist/bin/sendbox.js`
const hasTmux = spawnSync('tmux', ['-V']).status === 0
const hasBuild = existsSync(CLI)
const skipReason = !hasTmux
  ? 'tmux is not installed (apt-get install tmux, brew install tmux)'
  : !hasBuild
    ? 'dist/bin/sendbox.js is missing: run `npm run build` (npm test does)'
    : undefined
if (skipReason) console.warn(`[terminal-ui e2e] skipped: ${skipReason}`)

// A private tmux server on a socket in a temporary directory: it never touches the user's
// sessions, and the server and the directory are removed after the test, even on failure.
let socketDir = ''
const SESSION = 'ui'
const tmux = (...args: string[]) => execFileSync('tmux', ['-S', join(socketDir, 'tmux.sock'), ...args], { encoding: 'utf8' })
const screen = () => tmux('capture-pane', '-p', '-t', SESSION)
const keys = (...names: string[]) => {
  for (const name of names) tmux('send-keys', '-t', SESSION, name)
}

async function until(check: (text: string) => boolean, what: string, timeoutMs = 8_000): Promise<string> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const text = screen()
    if (check(text)) return text
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen shows:\n${text}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** A free high port: the OS picks one, it is released, the CLI binds it. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

describe.skipIf(skipReason !== undefined)('terminal UI in a real terminal (tmux)', () => {
  let port = 0
  let api = ''

  beforeAll(async () => {
    socketDir = mkdtempSync(join(tmpdir(), 'sendbox-e2e-'))
    port = await freePort()
    api = `http://127.0.0.1:${port}/v1`
    // Ink draws nothing live when it believes it runs in CI, so the CLI runs without those variables.
    // After the CLI exits the shell prints its exit code and waits, so the test can read both.
    const command = `env -u CI -u CONTINUOUS_INTEGRATION node ${JSON.stringify(CLI)} --port ${port} --delivery-ms 200; echo "EXIT=$?"; sleep 60`
    tmux('new-session', '-d', '-s', SESSION, '-x', '100', '-y', '30', 'sh', '-c', command)
  })

  afterAll(() => {
    if (!socketDir) return
    spawnSync('tmux', ['-S', join(socketDir, 'tmux.sock'), 'kill-server'])
    rmSync(socketDir, { recursive: true, force: true })
  })

  async function send(path: string, body: unknown, key = 'test_pro') {
    const response = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(response.status).toBe(200)
    return ((await response.json()) as { message_id: string }).message_id
  }

  it('shows live messages, opens each detail with the keys, and quits cleanly with q', async () => {
    await until((s) => s.includes(`API ${api}`) && s.includes('No messages yet'), 'the UI to start')
    expect(screen()).toContain('test_pro  Pro  0/1,000 per min')

    const emailId = await send('/email/send', {
      to: 'ana@example.com',
      subject: 'Hi',
      html: '<h1>Hello</h1><p>Text <a href="https://x.test">link</a></p><ul><li>one</li></ul>',
    })
    await send('/sms/send', { to: '+14155550123', message: 'Your code is 123456' })
    await send('/whatsapp/send', { to: '+14155550199', template: 'order_update', language: 'en_US', parameters: { name: 'Ana' } }, 'test_starter')

    const list = await until((s) => /order_update\s+delivered/.test(s) && /Hi\s+delivered/.test(s), 'three delivered messages')
    const rows = list.split('\n')
    const top = rows.findIndex((r) => r.includes('WHATSAPP  +'))
    // One frame, drawn in place: no stale rows from earlier redraws left above or below it.
    expect(rows[0]).toMatch(/^sendbox \S+ {2}API /)
    expect(rows.filter((r) => /EMAIL \d+\s+SMS \d+/.test(r))).toHaveLength(1)
    expect(rows.filter((r) => r.includes('test_starter  Starter'))).toHaveLength(1)
    expect(list).not.toContain('No messages yet')
    expect(rows[top]).toMatch(/^› \d\d:\d\d:\d\d {2}WHATSAPP {2}\+14155550199\s+order_update\s+delivered/)
    expect(rows[top + 1]).toMatch(/SMS\s+\+14155550123\s+Your code is 123456\s+delivered/)
    expect(rows[top + 2]).toMatch(/EMAIL\s+ana@example\.com\s+Hi\s+delivered/)
    expect(list).toMatch(/EMAIL 1\s+SMS 1\s+WHATSAPP 1\s+last message \d\d:\d\d:\d\d/)
    expect(list).toContain('test_pro  Pro  2/1,000 per min')

    keys('G', 'Enter')
    const email = await until((s) => s.includes('Open the HTML in a browser'), 'the email detail')
    expect(email).toMatch(/To\s+ana@example\.com/)
    expect(email).toMatch(/Subject\s+Hi/)
    expect(email).toMatch(/Status\s+queued\s+\d\d:\d\d:\d\d/)
    expect(email).toContain(`http://127.0.0.1:${port}/__sandbox/messages/${emailId}/html`)
    expect(email).toContain('HELLO')
    expect(email).toContain('Text link [https://x.test]')
    expect(email).toContain(' * one')
    expect(email).not.toContain('<h1>')

    keys('Escape')
    await until((s) => s.includes('SUBJECT / TEXT / TEMPLATE'), 'the list again')
    keys('k', 'Enter')
    const sms = await until((s) => s.includes('Encoding'), 'the SMS detail')
    expect(sms).toMatch(/Length\s+19 characters \(19 septets\)/)
    expect(sms).toMatch(/Encoding\s+GSM-7/)
    expect(sms).toMatch(/Segments\s+1/)
    expect(sms).toContain('Your code is 123456')

    keys('BSpace', 'g', 'Enter')
    const whatsapp = await until((s) => s.includes('Template'), 'the WhatsApp detail')
    expect(whatsapp).toMatch(/Template\s+order_update/)
    expect(whatsapp).toMatch(/Language\s+en_US/)
    expect(whatsapp).toMatch(/NAME\s+VALUE\nname\s+Ana/)

    keys('Escape', 'Tab')
    const requests = await until((s) => s.includes('ERROR CODE'), 'the requests view')
    expect(requests).toMatch(/POST\s+\/v1\/email\/send\s+200/)
    expect(requests).toMatch(/POST\s+\/v1\/whatsapp\/send\s+200/)

    keys('q')
    const after = await until((s) => s.includes('EXIT='), 'the CLI to exit')
    expect(after).toContain('EXIT=0')
    // The alternate screen is gone: the shell's screen is back, without the UI's frame.
    expect(after).not.toContain('SUBJECT / TEXT / TEMPLATE')
    await expect(fetch(`${api}/../__sandbox/health`)).rejects.toThrow()
  })
})
