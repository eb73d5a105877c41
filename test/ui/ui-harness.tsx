import { render } from 'ink-testing-library'
import { vi } from 'vitest'
import type { SandboxOptions } from '../../src/index.js'
import type { Channel } from '../../src/contract/constants.js'
import { App } from '../../src/ui/terminal/app.js'
import type { UiSystem } from '../../src/ui/terminal/system.js'
import { auth, fakeClock, inProcess } from '../helpers.js'

/** Keys as a terminal sends them. */
export const KEYS = {
  up: '\u001B[A',
  down: '\u001B[B',
  enter: '\r',
  escape: '\u001B',
  backspace: '\u007F',
  tab: '\t',
  left: '\u001B[D',
  ctrlC: '\u0003',
  pageDown: '\u001B[6~',
} as const

// eslint-disable-next-line no-control-regex
const ANSI = /\u001B\[[0-9;]*m|\u001B\]8;[^\u0007]*\u0007/g

/** A frame without colour codes, as a user reads it. */
export function plain(frame: string | undefined): string {
  return (frame ?? '').replace(ANSI, '')
}

/**
 * The UI on a real in-process sandbox (msw handlers behind global fetch), rendered by
 * ink-testing-library at a given terminal size, with helpers to send through the API and to
 * wait for what the screen shows.
 */
export function mountUi({
  columns = 100,
  rows = 30,
  browser = true,
  realClock = false,
  ...options
}: SandboxOptions & {
  columns?: number
  rows?: number
  /** Whether the fake browser "opens" URLs (false: as on a machine without one). */
  browser?: boolean
  /** Use the sandbox's own clock (which `sandbox.clock` can move) instead of a fake `now`. */
  realClock?: boolean
} = {}) {
  const clock = fakeClock()
  const env = inProcess(realClock ? options : { now: clock.now, ...options })
  const onQuit = vi.fn()
  // Browser and clipboard, recorded: nothing opens, and OSC 52 stays out of the frames.
  const opened: string[] = []
  const copied: string[] = []
  const system: UiSystem = {
    openUrl: async (url) => {
      opened.push(url)
      return browser
    },
    copy: (text) => {
      copied.push(text)
    },
  }
  const ui = render(<App sandbox={env.sandbox} apiUrl={env.base} onQuit={onQuit} system={system} />)
  const resize = (c: number, r: number) => {
    Object.defineProperty(ui.stdout, 'columns', { value: c, configurable: true })
    Object.defineProperty(ui.stdout, 'rows', { value: r, configurable: true })
    ui.stdout.emit('resize')
  }
  resize(columns, rows)

  const frame = () => plain(ui.lastFrame())

  /** Waits until the screen shows what `check` wants (data reaches the UI batched, ~100 ms). */
  async function waitFor(
    check: (frame: string) => boolean,
    what = 'the expected screen',
    timeoutMs = 3_000,
  ): Promise<string> {
    const deadline = performance.now() + timeoutMs
    for (;;) {
      const current = frame()
      if (check(current)) return current
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}; last frame:\n${current}`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  /** Types keys one read at a time, letting Ink process each (a lone Esc is flushed on the next tick). */
  async function press(...keys: string[]): Promise<void> {
    for (const key of keys) {
      ui.stdin.write(key)
      await new Promise((resolve) => setImmediate(resolve))
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  async function send(channel: Channel, body: Record<string, unknown>, key = 'test_pro') {
    const response = await env.call('POST', `/${channel}/send`, body, auth(key))
    const json = (await response.json()) as { message_id?: string }
    if (response.status !== 200) throw new Error(`send failed: ${response.status} ${JSON.stringify(json)}`)
    return json.message_id!
  }

  return {
    ...env,
    clock,
    ui,
    opened,
    copied,
    onQuit,
    frame,
    waitFor,
    press,
    send,
    resize,
    close() {
      ui.unmount()
      ui.cleanup()
      env.dispose()
    },
  }
}

/** One message per channel, as the README's curl lines send them. */
export const SAMPLES = {
  email: {
    to: 'ana@example.com',
    subject: 'Welcome aboard',
    html: '<h1>Hello Ana</h1><p>Thanks for joining. <a href="https://example.com/start">Get started</a></p><ul><li>First step</li><li>Second step</li></ul><table><tr><th>Plan</th><th>Price</th></tr><tr><td>Pro</td><td>$10</td></tr></table>',
  },
  sms: { to: '+14155550123', message: 'Your code is 123456\nIt expires in 10 minutes.' },
  whatsapp: {
    to: '+14155550199',
    template: 'order_update',
    language: 'en_US',
    parameters: { name: 'Ana', order: '#1042' },
  },
} as const
