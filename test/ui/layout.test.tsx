import { afterEach, describe, expect, it } from 'vitest'
import { cellWidth } from '../../src/ui/terminal/cells.js'
import { KEYS, mountUi, SAMPLES } from './ui-harness.js'

let app: ReturnType<typeof mountUi> | undefined
afterEach(() => {
  app?.close()
  app = undefined
})

const cells = cellWidth

function rowOf(frame: string, text: string): string {
  const row = frame.split('\n').find((line) => line.includes(text))
  if (!row) throw new Error(`no row with "${text}" in:\n${frame}`)
  return row
}

const LONG = {
  to: 'a-very-long-recipient-address-for-layout-testing@subdomain.example.com',
  subject: 'A rather long subject line that cannot possibly fit in eighty columns, not even close',
  html: '<p>x</p>',
}

describe('layout', () => {
  it('fits 80×24: one row short of the screen, no line wider than 80, long values cut with an ellipsis', async () => {
    app = mountUi({ columns: 80, rows: 24 })
    await app.send('email', LONG)
    for (let i = 0; i < 30; i++)
      await app.send('sms', { to: `+1415555${String(i).padStart(4, '0')}`, message: `message ${i}` })
    const frame = await app.waitFor((f) => f.includes('message 29'))
    const lines = frame.split('\n')
    expect(lines).toHaveLength(23)
    for (const line of lines) expect(cells(line)).toBeLessThanOrEqual(80)
    expect(lines[lines.length - 1]).toMatch(/\? help {2}q quit$/)
    // 30 SMS do not fit: the list shows a screenful and the rest stays off screen.
    expect(frame).not.toContain('message 0 ')
    await app.press('G')
    const bottom = app.frame().split('\n')
    const row = bottom.find((l) => l.startsWith('›'))!
    expect(row).toContain('EMAIL')
    expect(row).toMatch(/a-very-long-recipi\S*…/)
    expect(row).toMatch(/A rather long subje\S*\s?\S*…/)
    expect(row).toMatch(/queued$/)
    expect(bottom).toHaveLength(23)
  })

  it('adapts on resize: more columns show more of a value, more rows show more messages', async () => {
    app = mountUi({ columns: 80, rows: 24 })
    await app.send('email', LONG)
    for (let i = 0; i < 40; i++) await app.send('sms', { to: '+14155550000', message: `message ${i}` })
    await app.waitFor((f) => f.includes('message 39'))
    const rowsShown = (f: string) => f.split('\n').filter((l) => /^. \d\d:\d\d:\d\d/.test(l)).length
    const small = app.frame()
    expect(rowsShown(small)).toBe(17)
    app.resize(140, 40)
    const large = await app.waitFor((f) => f.split('\n').length === 39, 'a 140×40 frame')
    expect(rowsShown(large)).toBe(34)
    for (const line of large.split('\n')) expect(cells(line)).toBeLessThanOrEqual(140)
    await app.press('G')
    expect(app.frame()).toContain('A rather long subject line that cannot possibly fit')
    app.resize(80, 24)
    const back = await app.waitFor((f) => f.split('\n').length === 23, 'back to 80×24')
    for (const line of back.split('\n')) expect(cells(line)).toBeLessThanOrEqual(80)
    // The selection survives the resize and stays visible.
    expect(back.split('\n').find((l) => l.startsWith('›'))).toContain('EMAIL')
  })

  it('keeps the detail within the width: body and header values wrap, nothing is cut', async () => {
    app = mountUi({ columns: 80, rows: 24 })
    await app.send('email', { ...LONG, html: `<p>${'word '.repeat(60)}</p>` })
    await app.waitFor((f) => f.includes('a-very-long'))
    await app.press(KEYS.enter)
    const lines = app.frame().split('\n')
    expect(lines).toHaveLength(23)
    for (const line of lines) expect(cells(line)).toBeLessThanOrEqual(80)
    expect(lines.filter((l) => l.startsWith('word word')).length).toBeGreaterThanOrEqual(3)
    const subject = lines.findIndex((l) => l.startsWith('Subject'))
    expect(`${lines[subject].slice(10)} ${lines[subject + 1].trim()}`).toBe(LONG.subject)
    for (const line of lines.slice(0, -1)) expect(line).not.toMatch(/…$/)
  })

  for (const [columns, rows] of [
    [60, 16],
    [50, 12],
    [40, 10],
  ] as const) {
    it(`at ${columns}×${rows} drops columns and shortens labels instead of overlapping`, async () => {
      app = mountUi({ columns, rows })
      await app.send('whatsapp', SAMPLES.whatsapp)
      await app.send('sms', { to: '+14155550123', message: 'Hi 👋 Ana! 🎉 Your code 123456' })
      await app.call('POST', '/sms/send', { to: '12', message: 'x' })
      const frame = await app.waitFor((f) => f.includes('+14155550123 '))
      const lines = frame.split('\n')
      expect(lines).toHaveLength(rows - 1)
      for (const line of lines) expect(cells(line)).toBeLessThanOrEqual(columns)
      expect(rowOf(frame, '+14155550123')).toMatch(/^› .*S[MS]\w* +\+14155550123 +Hi 👋 .* +queue\w*$/)
      expect(rowOf(frame, '+14155550199')).toMatch(/WA\w* +\+14155550199 +order_update/)
      await app.press(KEYS.tab)
      const requests = app.frame()
      expect(rowOf(requests, '/v1/sms/send')).toMatch(/POST\s+\/v1\/sms\/send\s+400\s+invalid_p/)
      expect(rowOf(requests, '/v1/whatsapp/send')).toMatch(/POST\s+\/v1\/whatsapp\/send\s+200\s+—/)
      for (const line of requests.split('\n')) expect(cells(line)).toBeLessThanOrEqual(columns)
    })
  }

  it('below 40×10 says in one line that the terminal is too small, and comes back when it grows', async () => {
    app = mountUi({ columns: 80, rows: 24 })
    await app.send('sms', SAMPLES.sms)
    await app.waitFor((f) => f.includes('Your code'))
    app.resize(39, 20)
    expect(await app.waitFor((f) => f.includes('too small'))).toBe('terminal too small (39×20, needs 40×10)')
    app.resize(80, 9)
    expect(await app.waitFor((f) => f.includes('80×9'))).toBe('terminal too small (80×9, needs 40×10)')
    app.resize(80, 24)
    const back = await app.waitFor((f) => f.includes('Your code'))
    expect(back.split('\n')).toHaveLength(23)
  })
})
