import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../free-port.js'
import { hasTmux, tmuxPane } from './tmux-pane.js'

/**
 * The terminal UI as a user meets it: the built CLI in a real terminal (tmux), messages sent over
 * HTTP, the screen read back with `capture-pane`, details opened with the keys. At 160×45 and at
 * 80×24, every character of a long link, an emoji SMS and a multi-line SMS is read back.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CLI = `${ROOT}dist/bin/sendbox.js`
/** `SENDBOX_E2E_CLI="node --import tsx bin/sendbox.ts"` runs the sources instead of the build (while iterating). */
const CLI_COMMAND = process.env.SENDBOX_E2E_CLI ?? `node ${JSON.stringify(CLI)}`
const hasBuild = process.env.SENDBOX_E2E_CLI !== undefined || existsSync(CLI)
const skipReason = !hasTmux
  ? 'tmux is not installed (apt-get install tmux, brew install tmux)'
  : !hasBuild
    ? 'dist/bin/sendbox.js is missing: run `npm run build` (npm test does)'
    : undefined
if (skipReason) console.warn(`[terminal-ui e2e] skipped: ${skipReason}`)

const SESSION = 'ui'

const LONG_LINK = `https://shop.example.com/account/reset-password?token=${'a1b2c3d4e5f6'.repeat(12)}&user=maria%40example.com&utm_source=email`
const EMOJI_SMS =
  'Hi 👋 Ana! 🎉 Your code is 482913 ✅ 日本語のテキスト and a 🚀 to the 🌕, every emoji two cells wide 😀😀😀'
const MULTI_SMS = ['First line of three', 'Second: your order #1042 shipped', 'Third: reply STOP to opt out']

/** The body rows of a detail (under the `── Text` rule, above the next rule or the footer). */
function bodyRows(text: string): string[] {
  const lines = text.split('\n')
  const start = lines.findIndex((l) => l.startsWith('── Text'))
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((l) => l.startsWith('── ') || /\? help {2}q quit\s*$/.test(l))
  return rest.slice(0, end === -1 ? undefined : end).map((l) => l.trimEnd())
}

/** The numbered links of a detail, continuation rows joined back into whole URLs. */
function linksOf(text: string): string[] {
  const lines = text.split('\n')
  const start = lines.findIndex((l) => l.startsWith('── Links'))
  const urls: string[] = []
  for (const line of lines.slice(start + 1)) {
    const numbered = /^\s*(\d+) (\S+)\s*$/.exec(line)
    const more = /^\s+(\S+)\s*$/.exec(line)
    if (numbered) urls.push(numbered[2])
    else if (more && urls.length > 0) urls[urls.length - 1] += more[1]
    else break
  }
  return urls
}

describe.skipIf(skipReason !== undefined)('terminal UI in a real terminal (tmux)', () => {
  let port = 0
  let api = ''
  const pane = tmuxPane(SESSION)
  const { tmux, screen, keys, until } = pane

  beforeAll(async () => {
    port = await freePort()
    api = `http://127.0.0.1:${port}/v1`
    // Ink draws nothing live when it believes it runs in CI, so the CLI runs without those variables.
    // After the CLI exits the shell prints its exit code and waits, so the test can read both.
    const command = `cd ${JSON.stringify(ROOT)} && env -u CI -u CONTINUOUS_INTEGRATION ${CLI_COMMAND} --port ${port} --delivery-ms 200; echo "EXIT=$?"; sleep 60`
    pane.start(command, 160, 45)
    // tmux takes OSC 52 from the application into its paste buffer with set-clipboard on.
    tmux('set-option', '-g', 'set-clipboard', 'on')
  })

  afterAll(() => pane.close())

  async function send(path: string, body: unknown, key = 'test_pro') {
    const response = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(response.status).toBe(200)
    return ((await response.json()) as { message_id: string }).message_id
  }

  async function resize(columns: number, rows: number) {
    tmux('resize-window', '-t', SESSION, '-x', String(columns), '-y', String(rows))
    return until(
      (s) => s.split('\n').length >= rows - 1 && s.split('\n')[0].length <= columns && /\? help {2}q quit/.test(s),
      `a ${columns}×${rows} frame`,
    )
  }

  /** Opens the message whose list row contains `text`, from the top of the list. */
  async function open(text: string) {
    keys('Escape', 'g')
    const list = await until((s) => s.includes('SUBJECT / TEXT / TEMPLATE') || s.includes('SUMMARY'), 'the list')
    const rows = list.split('\n').filter((r) => /^[› ] /.test(r) && /\d\d:\d\d/.test(r))
    const index = rows.findIndex((r) => r.includes(text))
    expect(index, `a row with ${text}`).toBeGreaterThanOrEqual(0)
    for (let i = 0; i < index; i++) keys('j')
    keys('Enter')
    return until((s) => s.includes('── Text'), `the detail of "${text}"`)
  }

  it('shows live messages and reads every character of a long link, an emoji SMS and a multi-line SMS back, at 160×45 and 80×24', async () => {
    await until((s) => s.includes(`API ${api}`) && s.includes('No messages yet'), 'the UI to start')
    expect(screen()).toContain('test_pro  Pro  0/1,000 per min')

    const emailId = await send('/email/send', {
      to: 'maria@example.com',
      subject: 'Reset your password',
      html: `<h1>Password Reset</h1><p>Use <a href="${LONG_LINK}">this link</a> within the hour.</p>`,
    })
    await send('/sms/send', { to: '+14155550123', message: EMOJI_SMS })
    await send('/sms/send', { to: '+14155550124', message: MULTI_SMS.join('\n') })
    const list = await until((s) => (s.match(/delivered/g) ?? []).length === 3, 'three delivered messages')
    const rows = list.split('\n')
    // One frame, drawn in place: no stale rows from earlier redraws left above or below it.
    expect(rows[0]).toMatch(/^sendbox \S+ {2}API /)
    expect(rows.filter((r) => /EMAIL \d+\s+SMS \d+/.test(r))).toHaveLength(1)
    expect(list).not.toContain('No messages yet')
    expect(list).toMatch(
      /^› \d\d:\d\d:\d\d {2}SMS +\+14155550124 +First line of three ⏎ Second: your order #1042 shipped ⏎ Third: reply STOP to opt out +delivered/m,
    )
    expect(list).toMatch(/EMAIL\s+maria@example\.com\s+Reset your password\s+delivered/)
    expect(list).toMatch(/EMAIL 1\s+SMS 2\s+WHATSAPP 0\s+last message \d\d:\d\d:\d\d/)

    for (const [columns, height] of [
      [160, 45],
      [80, 24],
    ] as const) {
      await resize(columns, height)
      const email = await open('Reset your password')
      expect(email).toMatch(/Subject\s+Reset your password/)
      expect(email).toContain('Password Reset')
      // The preview URL, wrapped under its label, read back whole (with its token).
      expect(email.replace(/ *\n {10}/g, '')).toMatch(
        new RegExp(`Preview {3}http://127\\.0\\.0\\.1:${port}/__sandbox/messages/${emailId}/html\\?token=pvw_\\w+`),
      )
      keys('l')
      const links = await until((s) => s.includes('── Links (1)'), `the links at ${columns} columns`)
      expect(linksOf(links)).toEqual([LONG_LINK])
      for (const line of links.split('\n')) expect(line.length).toBeLessThanOrEqual(columns)

      const emoji = await open('Hi 👋 Ana!')
      expect(bodyRows(emoji).join(' ').replace(/\s+/g, ' ').trim()).toBe(EMOJI_SMS)
      expect(emoji).toMatch(/Codes\s+482913/)
      keys('y')
      await until((s) => s.includes('Copied code 482913'), 'the copy notice')
      expect(tmux('show-buffer')).toBe('482913')

      const multi = await open('First line of three')
      expect(bodyRows(multi).filter((r) => r !== '')).toEqual(MULTI_SMS)
    }

    keys('Escape', 'Tab')
    const requests = await until((s) => s.includes('ERROR CODE') || s.includes('ERROR'), 'the requests view')
    expect(requests).toMatch(/POST\s+\/v1\/email\/send\s+200/)
    keys('Enter')
    expect(await until((s) => s.includes('Method'), 'a request')).toMatch(/Path\s+\/v1\/sms\/send/)

    keys('q')
    const after = await until((s) => s.includes('EXIT='), 'the CLI to exit')
    expect(after).toContain('EXIT=0')
    // The alternate screen is gone: the shell's screen is back, without the UI's frame.
    expect(after).not.toContain('SUBJECT / TEXT / TEMPLATE')
    await expect(fetch(`${api}/../__sandbox/health`)).rejects.toThrow()
    // A real tmux, a child CLI and two sizes: 7 s alone, over 20 s when the machine is loaded.
  }, 60_000)
})
