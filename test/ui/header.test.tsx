import { afterEach, describe, expect, it } from 'vitest'
import { mountUi } from './ui-harness.js'
import { CHANNELS } from '../../src/contract/constants.js'
import { CHANNEL_BADGES } from '../../src/ui/terminal/channels/index.js'
import { FULL_STATUS_WIDTH } from '../../src/ui/terminal/components/header.js'

let app: ReturnType<typeof mountUi> | undefined
afterEach(() => {
  app?.close()
  app = undefined
})

const statusRow = (frame: string) => frame.split('\n').find((l) => /EMAIL \d+|EM \d+/.test(l)) ?? ''

describe('header', () => {
  it('shows the web inbox URL after the API URL when the row has room, and in the empty outbox always', async () => {
    app = mountUi({ columns: 160, rows: 30 })
    let frame = await app.waitFor(
      (f) => f.split('\n')[0].includes('Inbox'),
      'the inbox URL in the header at 160 columns',
    )
    expect(frame.split('\n')[0]).toMatch(
      /API https:\/\/api\.sendbox\.test\/v1 {2}Inbox https:\/\/api\.sendbox\.test\/__sandbox\/ui\//,
    )
    app.close()
    app = mountUi({ columns: 80, rows: 24 })
    frame = await app.waitFor(
      (f) => f.includes('No messages yet') && f.split('\n')[0].length <= 80,
      'the 80-column frame',
    )
    expect(frame.split('\n')[0]).not.toContain('Inbox')
    expect(frame.replace(/\s+/g, ' ')).toContain('Web inbox: https://api.sendbox.test/__sandbox/ui/')
  })

  it('flags armed faults with a red marker and their count, until they are cleared', async () => {
    app = mountUi()
    await app.waitFor((f) => f.includes('No messages yet'))
    expect(statusRow(app.frame())).not.toContain('fault')
    app.sandbox.faults.add({ status: 503 })
    app.sandbox.faults.add({ status: 429, path: '/v1/sms/send', times: 1 })
    const frame = await app.waitFor((f) => f.includes('2 faults armed'), 'the fault marker', 3_000)
    expect(statusRow(frame)).toMatch(/^● 2 faults armed\s+EMAIL 0/)
    app.sandbox.faults.clear()
    await app.waitFor((f) => !f.includes('faults armed'), 'the marker gone', 3_000)
  })

  it('counts messages evicted by the outbox cap', async () => {
    app = mountUi({ maxMessages: 2 })
    for (const n of [1, 2, 3]) await app.send('sms', { to: `+1415555000${n}`, message: `number ${n}` })
    const frame = await app.waitFor((f) => f.includes('number 3'))
    expect(statusRow(frame)).toMatch(/^1 evicted\s+EMAIL 0\s+SMS 2/)
  })

  it('shows the sandbox clock offset when it is moved, and frozen when it is', async () => {
    app = mountUi({ realClock: true })
    await app.waitFor((f) => f.includes('No messages yet'))
    expect(statusRow(app.frame())).not.toContain('clock')
    app.sandbox.clock.advance(2 * 3_600_000 + 5 * 60_000)
    expect(statusRow(await app.waitFor((f) => f.includes('clock +'), 'the clock offset', 3_000))).toMatch(
      /^clock \+2h 5m\s+EMAIL 0/,
    )
    app.sandbox.clock.freeze(true)
    expect(statusRow(await app.waitFor((f) => f.includes('frozen'), 'frozen', 3_000))).toMatch(
      /^clock \+2h [45]m frozen/,
    )
    app.sandbox.clock.reset()
    await app.waitFor((f) => !f.includes('clock +'), 'the clock back', 3_000)
  })

  it('shortens to two rows on a small terminal', async () => {
    app = mountUi({ columns: 50, rows: 12, maxMessages: 1 })
    await app.send('sms', { to: '+14155550001', message: 'one' })
    await app.send('sms', { to: '+14155550002', message: 'two' })
    app.sandbox.faults.add({ status: 500 })
    const frame = await app.waitFor((f) => f.includes('two') && f.includes('1F'))
    const lines = frame.split('\n')
    expect(lines[0]).toMatch(/^sendbox https:\/\/api\.sendbox\.test\/v1\s+Out {2}Req\s*$/)
    expect(lines[1]).toMatch(/^● 1F 1 ev EM 0 SM 1 WA 0/)
  })

  it("shows every channel's count and the last message's time in full at the width it goes full at", async () => {
    const width = Math.max(60, FULL_STATUS_WIDTH)
    app = mountUi({ columns: width, rows: 24 })
    await app.send('sms', { to: '+14155550001', message: 'one' })
    const row = statusRow(await app.waitFor((f) => /SMS 1/.test(statusRow(f)), `the ${width}-column frame`))
    for (const channel of CHANNELS) expect(row).toMatch(new RegExp(`${CHANNEL_BADGES[channel].label} \\d`))
    expect(row).toMatch(/last message \d\d:\d\d:\d\d/)
  })
})
