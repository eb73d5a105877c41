import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOSTILE, HOSTILE_TEXT, hostileEmailHtml } from '../hostile-payloads.js'
import { freePort } from '../free-port.js'
import { hasTmux, tmuxPane } from './tmux-pane.js'

/**
 * Hostile message content against the built CLI in a real terminal (tmux): the bytes the UI
 * writes (recorded with `pipe-pane`) and the screen (`capture-pane -e`) hold none of the
 * sequences a client sent; the window title and tmux's clipboard stay untouched; `Y` copies the
 * link exactly as shown. terminal-ui.test.ts has the rest of the UI in tmux.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CLI = `${ROOT}dist/bin/sendbox.js`
const CLI_COMMAND = process.env.SENDBOX_E2E_CLI ?? `node ${JSON.stringify(CLI)}`
const skip = !hasTmux || (process.env.SENDBOX_E2E_CLI === undefined && !existsSync(CLI))

const SESSION = 'hostile'

/** What the UI must never write: Ink's own output is `ESC [ … m` colours, cursor moves and the alternate screen, never these. */
const FORBIDDEN: Array<[string, RegExp]> = [
  ['OSC 0/2 (title)', /\u001b\][02];/],
  ['OSC 52 (clipboard)', /\u001b\]52;/],
  ['OSC 8 to a hidden target', /\u001b\]8;[^\u0007\u001b]*evil/],
  ['CSI clear screen', /\u001b\[2J/],
  ['DCS', /\u001bP/],
  ['C1', /[\u0080-\u009f]/],
  ['bidi control', /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/],
  ['invisible filler', /[\u3164\u115f\u1160\uffa0\u200b\u2060\ufeff]/],
]

describe.skipIf(skip)('hostile content in a real terminal (tmux)', () => {
  let api = ''
  let raw = ''
  const pane = tmuxPane(SESSION)
  const { tmux, keys, until } = pane

  beforeAll(async () => {
    raw = join(pane.dir(), 'pane.bytes')
    const port = await freePort()
    api = `http://127.0.0.1:${port}/v1`
    const command = `cd ${JSON.stringify(ROOT)} && env -u CI -u CONTINUOUS_INTEGRATION ${CLI_COMMAND} --port ${port} --delivery-ms 50; sleep 60`
    pane.start(command, 160, 45)
    tmux('set-option', '-g', 'set-clipboard', 'on')
    tmux('set-option', '-g', 'allow-rename', 'on')
    tmux('pipe-pane', '-o', '-t', SESSION, `cat >> ${JSON.stringify(raw)}`)
  })

  afterAll(() => pane.close())

  async function send(path: string, body: unknown) {
    const response = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(response.status).toBe(200)
  }

  it('writes none of the sequences, keeps the title and the clipboard, and Y copies the link as shown', async () => {
    await until((s) => s.includes('No messages yet'), 'the UI to start')
    const title = tmux('display-message', '-p', '-t', SESSION, '#{pane_title}')
    await send('/sms/send', { to: '+14155550123', message: `Code 482913 ${HOSTILE_TEXT}` })
    await send('/email/send', {
      to: 'ana@example.com',
      from: { email: 'x@acme.example', name: `Acme${HOSTILE.rlo}` },
      subject: `Hi ${HOSTILE.osc0}${HOSTILE.csi} there`,
      html: hostileEmailHtml(),
    })
    await until((s) => (s.match(/delivered/g) ?? []).length === 2, 'two delivered messages')
    keys('Enter', 'l')
    const detail = await until((s) => s.includes('── Links (4)'), 'the email with its links')
    expect(detail).toMatch(/Subject\s+Hi \ufffd there/)
    expect(detail).toMatch(/From\s+Acme\ufffdexe\.txt/)
    expect(detail).toContain('[osc8:\ufffdclick me\ufffd]')
    // Links are found after escape sequences are removed (issue 36, R18): the OSC 8 target is none, and the reset link is the first.
    keys('Y', '1')
    await until((s) => s.includes('Copied link 1'), 'the copy notice')
    expect(tmux('show-buffer')).toBe('https://acme.example/reset?token=abc')
    keys('Escape', 'j', 'Enter')
    const sms = await until((s) => s.includes('Encoding') && s.includes('[zwsp:'), 'the SMS with its text')
    expect(sms).toContain('[zwsp:pay\ufffdpal]')
    expect(sms).toContain('[rlo:\ufffdexe.txt]')

    await new Promise((resolve) => setTimeout(resolve, 300))
    // The one OSC 52 the UI itself writes: the copy of link 1, as shown.
    const copy = `\u001b]52;c;${Buffer.from('https://acme.example/reset?token=abc').toString('base64')}\u0007`
    const written = readFileSync(raw, 'utf8')
    expect(written).toContain(copy)
    // And its own entry to the alternate screen (src/ui/terminal/render.tsx), which clears it.
    const bytes = written.split(copy).join('').split('\u001b[?1049h\u001b[H\u001b[2J').join('')
    expect(bytes.length).toBeGreaterThan(1000)
    const shown = tmux('capture-pane', '-p', '-e', '-t', SESSION)
    for (const [what, pattern] of FORBIDDEN) {
      expect(pattern.test(bytes), `${what} in the bytes written`).toBe(false)
      expect(pattern.test(shown), `${what} on the screen`).toBe(false)
    }
    expect(tmux('display-message', '-p', '-t', SESSION, '#{pane_title}')).toBe(title)
    expect(tmux('list-buffers')).not.toContain('rm -rf')
  })
})
