import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'

// Colour and hyperlink support are decided when chalk and supports-hyperlinks load: force them for
// this file only, before the imports run, and put the environment back afterwards.
const previous = vi.hoisted(() => {
  const saved = { FORCE_COLOR: process.env.FORCE_COLOR, FORCE_HYPERLINK: process.env.FORCE_HYPERLINK }
  process.env.FORCE_COLOR = '1'
  process.env.FORCE_HYPERLINK = '1'
  return saved
})
afterAll(() => {
  for (const [name, value] of Object.entries(previous)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})

const { auth } = await import('../helpers.js')
const { KEYS, mountUi, SAMPLES } = await import('./ui-harness.js')

const FG = { red: '\u001B[31m', green: '\u001B[32m', yellow: '\u001B[33m', cyan: '\u001B[36m' }
const BG = { green: '\u001B[42m', yellow: '\u001B[43m', blue: '\u001B[44m', magenta: '\u001B[45m' }

let app: ReturnType<typeof mountUi> | undefined
afterEach(() => {
  app?.close()
  app = undefined
})

function rawRow(frame: string | undefined, text: string): string {
  const row = (frame ?? '').split('\n').find((line) => line.includes(text))
  if (!row) throw new Error(`no row with "${text}"`)
  return row
}

describe('colours and hyperlinks', () => {
  it('gives each channel badge its own colour and each status its colour', async () => {
    app = mountUi()
    await app.send('email', SAMPLES.email)
    await app.send('sms', { to: '+15005550001', message: 'fails' })
    await app.send('whatsapp', SAMPLES.whatsapp)
    await app.waitFor((f) => f.includes('order_update'))
    const raw = () => app!.ui.lastFrame()
    expect(rawRow(raw(), 'Welcome aboard')).toContain(`${BG.blue}`)
    expect(rawRow(raw(), 'fails')).toContain(`${BG.magenta}`)
    expect(rawRow(raw(), 'order_update')).toContain(`${BG.green}`)
    expect(rawRow(raw(), 'Welcome aboard')).toContain(`${FG.yellow}queued`)
    app.clock.advance(1_000)
    app.sandbox.outbox.advance()
    await app.waitFor((f) => /fails\s+sent/.test(f))
    expect(rawRow(raw(), 'fails')).toContain(`${FG.cyan}sent`)
    app.clock.advance(1_000)
    app.sandbox.outbox.advance()
    await app.waitFor((f) => /fails\s+failed/.test(f))
    expect(rawRow(raw(), 'fails')).toContain(`${FG.red}failed`)
    expect(rawRow(raw(), 'Welcome aboard')).toContain(`${FG.green}delivered`)
  })

  it('marks armed faults in red in the header', async () => {
    app = mountUi()
    app.sandbox.faults.add({ status: 503 })
    await app.waitFor((f) => f.includes('1 fault armed'), 'the fault marker')
    expect(app.ui.lastFrame()).toMatch(/\u001B\[31m(\u001B\[[0-9;]*m)*● 1 fault armed/)
  })

  it('colours request statuses green 2xx, yellow 4xx, red 5xx', async () => {
    app = mountUi()
    await app.press(KEYS.tab)
    await app.call('POST', '/email/send', SAMPLES.email)
    await app.call('POST', '/sms/send', { to: '12', message: 'x' })
    await app.call('POST', '/whatsapp/send', SAMPLES.whatsapp, auth('test_pro', { prefer: 'code=503' }))
    await app.waitFor((f) => f.includes('503'))
    const raw = app.ui.lastFrame()
    expect(rawRow(raw, '/v1/email/send')).toContain(`${FG.green}200`)
    expect(rawRow(raw, '/v1/sms/send')).toContain(`${FG.yellow}400`)
    expect(rawRow(raw, '/v1/whatsapp/send')).toContain(`${FG.red}503`)
  })

  it('makes the preview URL and every link clickable terminal hyperlinks where the terminal supports it, and highlights codes', async () => {
    app = mountUi({ columns: 80, rows: 40 })
    const link = `https://example.com/reset?token=${'x'.repeat(120)}`
    const id = await app.send('email', { ...SAMPLES.email, html: `<p>Code 482913</p><a href="${link}">reset</a>` })
    await app.waitFor((f) => f.includes('Welcome aboard'))
    await app.press(KEYS.enter)
    const raw = app.ui.lastFrame()!
    const preview = `https://api.sendbox.test/__sandbox/messages/${id}/html?token=${app.sandbox.outbox.previewToken(id)}`
    expect(raw).toContain(`\u001B]8;;${preview}\u0007`)
    // A link wrapped over three rows is a hyperlink to the whole URL on each of them.
    expect(raw.split(`\u001B]8;;${link}\u0007`).length - 1).toBeGreaterThanOrEqual(2)
    expect(raw).toMatch(new RegExp(`${BG.yellow.replace('[', '\\[')}(\u001B\\[[0-9;]*m)*482913`))
  })
})
