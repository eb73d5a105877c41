import { EventEmitter } from 'node:events'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { renderUi, type RunningUi } from '../../src/ui/terminal/render.js'
import { inProcess } from '../helpers.js'
import { plain } from './ui-harness.js'

// Ink draws nothing live when it believes it runs in CI (is-in-ci reads the environment once, when
// ink is imported), and CI runs this suite with CI=true: hide those variables before any import.
const ciEnvironment = vi.hoisted(() => {
  const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION }
  delete process.env.CI
  delete process.env.CONTINUOUS_INTEGRATION
  return saved
})
afterAll(() => {
  for (const [name, value] of Object.entries(ciEnvironment)) if (value !== undefined) process.env[name] = value
})

/** A terminal as Ink sees it: a TTY stdout with a size, and a raw-mode stdin. */
class FakeTty extends EventEmitter {
  isTTY = true
  columns = 100
  rows = 30
  output = ''
  write = (chunk: string) => {
    this.output += chunk
    return true
  }
}

class FakeStdin extends EventEmitter {
  isTTY = true
  private pending: string | null = null
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => {
    const data = this.pending
    this.pending = null
    return data
  }
  type(data: string) {
    this.pending = data
    this.emit('readable')
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20))

let ui: RunningUi | undefined
let env: ReturnType<typeof inProcess> | undefined
afterEach(() => {
  ui?.unmount()
  env?.dispose()
  ui = undefined
  env = undefined
})

function start() {
  env = inProcess()
  const stdout = new FakeTty()
  const stderr = new FakeTty()
  const stdin = new FakeStdin()
  const onQuit = vi.fn()
  ui = renderUi({
    sandbox: env.sandbox,
    apiUrl: env.base,
    onQuit,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
  })
  return { stdout, stderr, stdin, onQuit }
}

describe('renderUi', () => {
  it('takes the alternate screen and gives it back on q, then asks the server to stop', async () => {
    const { stdout, stdin, onQuit } = start()
    expect(stdout.output.startsWith('\u001B[?1049h')).toBe(true)
    await tick()
    expect(plain(stdout.output)).toContain(`API ${env!.base}`)
    stdin.type('q')
    await tick()
    expect(onQuit).toHaveBeenCalledTimes(1)
    expect(stdout.output.endsWith('\u001B[?1049l')).toBe(true)
    await ui!.waitUntilExit()
  })

  it('quits on Ctrl-C itself, since raw mode turns it into a key, not a signal', async () => {
    const { stdout, stdin, onQuit } = start()
    await tick()
    stdin.type('\u0003')
    await tick()
    expect(onQuit).toHaveBeenCalledTimes(1)
    expect(stdout.output.endsWith('\u001B[?1049l')).toBe(true)
  })

  it('keeps console output out of the frame, shows it in the footer and prints it after exit', async () => {
    const original = console.error
    const { stdout, stderr, stdin } = start()
    await tick()
    expect(console.error).not.toBe(original)
    const before = stdout.output.length
    console.error('[sendbox] unexpected server error:', new Error('boom'))
    for (let i = 0; i < 50 && !plain(stdout.output.slice(before)).includes('boom'); i++) await tick()
    const drawn = plain(stdout.output.slice(before))
    expect(drawn).toContain('1 server message (printed again on exit): [sendbox] unexpected server error: Error: boom')
    expect(stderr.output).toBe('')
    stdin.type('q')
    await tick()
    expect(console.error).toBe(original)
    expect(stderr.output).toContain(
      'sendbox: 1 console message(s) while the UI ran:\n[sendbox] unexpected server error: Error: boom',
    )
  })
})
