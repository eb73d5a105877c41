import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumMissing } from '../browser/chromium.js'
import { auth, standalone } from '../helpers.js'
import { pngSize } from './png.js'

/**
 * `GET /__sandbox/messages/{id}/screenshot.png` against the standalone server (issue 35, item 6):
 * real Chromium through playwright-core, a real PNG read back, a local "tracker" counting what
 * reaches it.
 */

const DARK_AWARE = `<!doctype html><html><head><style>
body{background:#ffffff;color:#111111;font:16px sans-serif}
@media (prefers-color-scheme: dark){body{background:#101820;color:#f5f5f5}}
</style></head><body><h1>Your order</h1><p>Thanks for shopping with us.</p></body></html>`
const PLAIN =
  '<!doctype html><html><body style="font:16px sans-serif"><h1>Plain email</h1><p>No dark styles at all.</p></body></html>'

/** The Chromium renderer processes among a process's descendants (Linux: /proc). */
function renderersUnder(root: number): number[] {
  const children = new Map<number, number[]>()
  const commands = new Map<number, string>()
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid)) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      children.set(ppid, [...(children.get(ppid) ?? []), pid])
      commands.set(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8'))
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = []
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (commands.get(child)?.includes('--type=renderer')) found.push(child)
      walk(child)
    }
  }
  walk(root)
  return found
}

describe.skipIf(chromiumMissing)('screenshots of captured messages', () => {
  let server: Awaited<ReturnType<typeof standalone>>
  let tracker: Server
  let trackerPort = 0
  const hits: string[] = []

  const send = async (channel: 'email' | 'sms', body: Record<string, unknown>): Promise<string> => {
    const response = await fetch(`${server.base}/${channel}/send`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify(body),
    })
    expect(response.status).toBe(200)
    return ((await response.json()) as { message_id: string }).message_id
  }
  const email = (html: string) => send('email', { to: 'ana@example.com', subject: 'Screenshot', html })
  const shot = (id: string, query = '') =>
    fetch(`${server.running.url}/__sandbox/messages/${id}/screenshot.png${query}`)
  const png = async (id: string, query = '') => {
    const response = await shot(id, query)
    expect(
      response.status,
      await response
        .clone()
        .text()
        .catch(() => ''),
    ).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    return new Uint8Array(await response.arrayBuffer())
  }

  beforeAll(async () => {
    tracker = createServer((req, res) => {
      hits.push(req.url ?? '')
      res.writeHead(200, { 'content-type': 'image/gif' })
      res.end()
    })
    await new Promise<void>((resolve) => tracker.listen(0, '127.0.0.1', resolve))
    trackerPort = (tracker.address() as AddressInfo).port
    server = await standalone()
  })
  afterAll(async () => {
    await server?.close()
    await new Promise((resolve) => tracker?.close(resolve))
  })

  it('is a PNG exactly `width` pixels wide', async () => {
    const id = await email(DARK_AWARE)
    expect(pngSize(await png(id, '?width=375')).width).toBe(375)
    expect(pngSize(await png(id, '?width=1200')).width).toBe(1200)
    expect(pngSize(await png(id)).width).toBe(600) // an email's default
  }, 60_000)

  it("dark applies the email's own dark styles; dark-forced inverts an email that has none", async () => {
    const aware = await email(DARK_AWARE)
    const light = await png(aware, '?width=375')
    const dark = await png(aware, '?width=375&scheme=dark')
    expect(Buffer.from(dark).equals(Buffer.from(light))).toBe(false)
    const plain = await email(PLAIN)
    const plainLight = await png(plain, '?width=375&scheme=light')
    // A plain email has nothing to switch: `dark` looks as `light` does, `dark-forced` does not.
    expect(Buffer.from(await png(plain, '?width=375&scheme=dark')).equals(Buffer.from(plainLight))).toBe(true)
    expect(Buffer.from(await png(plain, '?width=375&scheme=dark-forced')).equals(Buffer.from(plainLight))).toBe(false)
  }, 60_000)

  it('renders hostile HTML without running a script or reaching the network (unless remote=1)', async () => {
    const at = (path: string) => `http://127.0.0.1:${trackerPort}/${path}`
    const hostile = `<!doctype html><html><head><meta http-equiv="refresh" content="0;url=${at('refresh')}">
<link rel="stylesheet" href="${at('style.css')}"><style>@import url(${at('import.css')}); p{background:url(${at('bg.png')})}</style>
<script>document.documentElement.innerHTML='<div style="height:6000px;background:red">ran</div>';new Image().src='${at('script')}'</script></head>
<body><p>Hello</p><img src="${at('beacon')}" alt=""><iframe src="${at('frame')}"></iframe><object data="${at('object')}"></object>
<video poster="${at('poster')}"></video><a href="${at('link')}">link</a></body></html>`
    const id = await email(hostile)
    const image = await png(id, '?width=400')
    expect(pngSize(image).height).toBeLessThan(6000) // the script would have made the page 6,000 px tall
    expect(hits).toEqual([])
    // The same email with remote=1 does load its images (the tracker is reachable), still without a script.
    await png(id, '?width=400&remote=1')
    expect(hits).toContain('/beacon')
    expect(hits).not.toContain('/script')
    expect(hits).not.toContain('/refresh')
    expect(hits).not.toContain('/frame')
  }, 60_000)

  it('draws an SMS as a phone shows it', async () => {
    const id = await send('sms', { to: '+14155550123', message: 'Your code is 123456. Don’t share it.' })
    const image = await png(id)
    expect(pngSize(image).width).toBe(375)
    expect(pngSize(image).height).toBeGreaterThan(100)
    const dark = await png(id, '?scheme=dark')
    expect(Buffer.from(dark).equals(Buffer.from(image))).toBe(false)
  }, 60_000)

  it('refuses a bad width or scheme, and an unknown message', async () => {
    const id = await email(PLAIN)
    for (const query of ['?width=199', '?width=2001', '?width=abc', '?width=-5']) {
      const response = await shot(id, query)
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_parameter', param: 'width' } })
    }
    const scheme = await shot(id, '?scheme=sepia')
    expect(scheme.status).toBe(400)
    expect(await scheme.json()).toMatchObject({ error: { code: 'invalid_parameter', param: 'scheme' } })
    expect((await shot('msg_nope')).status).toBe(404)
  })

  it('queues one render at a time and refuses past 16 waiting with 503 and Retry-After', async () => {
    const id = await email(PLAIN)
    // 24 distinct screenshots at once: one renders, 16 wait, the rest are refused at once.
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => shot(id, `?width=${300 + i}`)))
    const statuses = answers.map((response) => response.status)
    const refused = answers.filter((response) => response.status === 503)
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(17)
    expect(refused.length).toBeGreaterThan(0)
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true)
    expect(refused[0]!.headers.get('retry-after')).toMatch(/^[0-9]+$/)
    expect(await refused[0]!.json()).toMatchObject({ error: { code: 'too_many_clients' } })
    await Promise.all(answers.filter((response) => response.status === 200).map((response) => response.arrayBuffer()))
  }, 120_000)

  it('renders one message after another in the same renderer process (not a process per navigation)', async () => {
    // The document's `sandbox` CSP gives it an opaque origin; under site isolation every render
    // took a renderer process of its own (docs/decisions/screenshot-speed.md).
    const id = await email(PLAIN)
    const seen = new Set<number>()
    for (let width = 340; width < 345; width++) {
      await png(id, `?width=${width}`)
      for (const pid of renderersUnder(process.pid)) seen.add(pid)
    }
    expect(seen.size).toBeGreaterThan(0)
    expect(seen.size).toBeLessThanOrEqual(2)
  }, 60_000)

  it('stops its browser when the server closes', async () => {
    // Chromium runs as a child of this process while the renderer keeps it.
    const browsers = () =>
      execFileSync('ps', ['-o', 'comm=', '--ppid', String(process.pid)], { encoding: 'utf8' })
        .split('\n')
        .filter((name) => /chrom/i.test(name))
    await png(await email(PLAIN), '?width=333')
    expect(browsers().length).toBeGreaterThan(0)
    const closing = server
    server = undefined as never
    await closing.close()
    expect(browsers()).toEqual([])
  }, 60_000)
})

describe('screenshots without Chromium', () => {
  let server: Awaited<ReturnType<typeof standalone>>
  const saved = process.env.CHROMIUM_PATH
  beforeAll(async () => {
    process.env.CHROMIUM_PATH = '/nonexistent/chromium-for-sendbox-tests'
    server = await standalone()
  })
  afterAll(async () => {
    if (saved === undefined) delete process.env.CHROMIUM_PATH
    else process.env.CHROMIUM_PATH = saved
    await server?.close()
  })

  it('answers 501 not_available saying how to get one', async () => {
    const sent = await fetch(`${server.base}/email/send`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ to: 'ana@example.com', subject: 'x', html: '<p>x</p>' }),
    })
    const { message_id: id } = (await sent.json()) as { message_id: string }
    const response = await fetch(`${server.running.url}/__sandbox/messages/${id}/screenshot.png?width=375`)
    expect(response.status).toBe(501)
    const body = (await response.json()) as { error: { code: string; message: string } }
    expect(body.error.code).toBe('not_available')
    expect(body.error.message).toContain('/nonexistent/chromium-for-sendbox-tests')
    expect(body.error.message).toContain('apt-get install chromium')
    expect(body.error.message).toContain('CHROMIUM_PATH=')
  })
})
