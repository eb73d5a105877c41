import { afterEach, describe, expect, it } from 'vitest'
import { KEYS, mountUi, SAMPLES } from './ui-harness.js'

let app: ReturnType<typeof mountUi> | undefined
afterEach(() => {
  app?.close()
  app = undefined
})

/** Terminal cells of a line of plain text (the test data is ASCII plus a few one-cell symbols). */
const cells = (line: string) => [...line].length

const LONG = {
  to: 'a-very-long-recipient-address-for-layout-testing@subdomain.example.com',
  subject: 'A rather long subject line that cannot possibly fit in eighty columns, not even close',
  html: '<p>x</p>',
}

describe('layout', () => {
  it('fits 80×24: one row short of the screen, no line wider than 80, long values cut with an ellipsis', async () => {
    app = mountUi({ columns: 80, rows: 24 })
    await app.send('email', LONG)
    for (let i = 0; i < 30; i++) await app.send('sms', { to: `+1415555${String(i).padStart(4, '0')}`, message: `message ${i}` })
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

  it('keeps the detail within the width: the body wraps as text, header values are cut', async () => {
    app = mountUi({ columns: 80, rows: 24 })
    await app.send('email', { ...LONG, html: `<p>${'word '.repeat(60)}</p>` })
    await app.waitFor((f) => f.includes('a-very-long'))
    await app.press(KEYS.enter)
    const lines = app.frame().split('\n')
    expect(lines).toHaveLength(23)
    for (const line of lines) expect(cells(line)).toBeLessThanOrEqual(80)
    expect(lines.filter((l) => l.startsWith('word word')).length).toBeGreaterThanOrEqual(3)
    expect(lines.find((l) => l.startsWith('Subject'))).toMatch(/…$/)
  })

  it('works with the shortest sample data on a tiny terminal without throwing', async () => {
    app = mountUi({ columns: 40, rows: 12 })
    await app.send('whatsapp', SAMPLES.whatsapp)
    const frame = await app.waitFor((f) => f.includes('WHATSAPP  +1415'))
    for (const line of frame.split('\n')) expect(cells(line)).toBeLessThanOrEqual(40)
    expect(frame.split('\n')).toHaveLength(11)
  })
})
