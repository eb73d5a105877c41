import { afterAll, describe, expect, it } from 'vitest'
import { inProcess } from '../helpers.js'

// An email's links and images are derived alone when they are read first (one parse, no text
// layout). Whatever is read first, a message must end up with the same fields.
const api = inProcess()
afterAll(() => api.dispose())

const deep = `${'<b>'.repeat(1_100)}deep https://deep.test/x${'</b>'.repeat(1_100)}`
const HTML = [
  '<p>Click <a href="https://acme.test/magic?t=1&amp;r=%2Fhome">here</a>, or visit https://acme.test/plain.</p>',
  '<map><area href="https://acme.test/area"></map><img src="https://cdn.acme.test/a.png" alt="A"><img src="data:image/png;base64,AAAA">',
  '<table><tr><th>Code</th></tr><tr><td>Your code: 482913 https://t.test/td</td></tr></table><a href="mailto:x@acme.test">mail</a>',
  '<style>a{}</style><script>var u="https://hidden.test"</script><a href="javascript:alert(1)">x</a><a href=" https://sp.test/a ">sp</a>',
  deep,
  '<p>no links at all, code 7741</p>',
]

async function send(html: string, i: number): Promise<string> {
  const response = await api.call('POST', '/email/send', { to: `u${i}@example.com`, subject: `Code ${i}`, html })
  expect(response.status).toBe(200)
  return (await response.json()).message_id as string
}

describe('an email whose links are read before its text', () => {
  it.each(HTML.map((html, i) => [i, html] as const))(
    'ends with the same fields as one read text first (#%i)',
    async (i, html) => {
      const a = api.sandbox.outbox.get(await send(html, i))!
      const b = api.sandbox.outbox.get(await send(html, i))!
      const links = a.links
      const images = a.images
      const text = b.text
      expect(links).toEqual(b.links)
      expect(images).toEqual(b.images)
      expect(a.text).toBe(text)
      expect(a.codes).toEqual(b.codes)
      expect(a.links).toBe(links)
      const strip = (m: object) => ({ ...m, message_id: '', created_at: '', updated_at: '', status_history: [] })
      expect(strip(a)).toEqual(strip(b))
    },
  )

  it('reads a magic link first, and the text after it', async () => {
    const a = api.sandbox.outbox.get(await send(HTML[0], 99))!
    expect(a.links).toEqual(['https://acme.test/magic?t=1&r=%2Fhome', 'https://acme.test/plain'])
    expect(JSON.parse(JSON.stringify(api.sandbox.outbox.get(a.message_id))).text).toContain('Click here')
  })
})
