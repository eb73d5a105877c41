import { afterAll, describe, expect, it } from 'vitest'
import { inProcess } from '../helpers.js'

/**
 * Issue 27, N11: a summary (the list, the event stream) carries each link cut to 2,048 characters
 * with a marker, so a page of a hundred hostile emails stays small; the message by id has them whole.
 */
describe('links in summaries', () => {
  const api = inProcess({ deliveryMs: 0 })
  afterAll(() => api.dispose())

  it('are cut to 2,048 characters with a marker in the list, whole by id; images are listed apart', async () => {
    const long = `https://acme.test/${'a'.repeat(10_000)}`
    const html = `<img src="https://cdn.acme.test/logo.png"><a href="${long}">long</a><a href="https://acme.test/short">short</a>`
    const sent = (await (
      await api.call('POST', '/email/send', { to: 'ana@example.com', subject: 'Links', html })
    ).json()) as { message_id: string }
    const origin = new URL(api.base).origin
    const list = (await (await fetch(`${origin}/__sandbox/messages`)).json()) as {
      data: Array<{ links: string[]; images: string[]; links_total: number }>
    }
    const [summary] = list.data
    expect(summary.links_total).toBe(2)
    expect(summary.links[0]).toBe(`${long.slice(0, 2048)}…[+${long.length - 2048} chars]`)
    expect(summary.links[1]).toBe('https://acme.test/short')
    expect(summary.images).toEqual(['https://cdn.acme.test/logo.png'])
    const whole = (await (await fetch(`${origin}/__sandbox/messages/${sent.message_id}`)).json()) as { links: string[] }
    expect(whole.links[0]).toBe(long)
  })
})
