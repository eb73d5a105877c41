import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { http as mswHttp, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { checkSchema } from '../../../contract/checks.js'
import { liveLinkChecks, liveLinkTargets } from './live-links.js'

/** A local server with one route per case; it records what it was asked. */
let server: Server
let base = ''
const sockets = new Set<Socket>()
const seen: Array<{ method: string; path: string; authorization?: string; cookie?: string }> = []
let inFlight = 0
let maxInFlight = 0
let endlessClosed: Promise<void>
let markEndlessClosed: () => void

function route(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '/'
  seen.push({ method: req.method!, path, authorization: req.headers.authorization, cookie: req.headers.cookie })
  if (path === '/ok') return void res.end('fine')
  if (path === '/404') return void res.writeHead(404).end('missing')
  if (path === '/500') return void res.writeHead(500).end('broken')
  if (path === '/loop-a') return void res.writeHead(302, { location: '/loop-b' }).end()
  if (path === '/loop-b') return void res.writeHead(302, { location: '/loop-a' }).end()
  if (path.startsWith('/chain/'))
    return void res.writeHead(302, { location: `/chain/${Number(path.slice(7)) + 1}` }).end()
  if (path === '/to-404') return void res.writeHead(301, { location: `${base}/404` }).end()
  if (path === '/never') return // never answers
  if (path === '/head-405') return void (req.method === 'HEAD' ? res.writeHead(405).end() : res.end('got it'))
  if (path === '/endless') {
    // HEAD refused, so that the checker's GET meets the endless body.
    if (req.method === 'HEAD') return void res.writeHead(405).end()
    res.writeHead(200, { 'content-type': 'application/octet-stream' })
    const chunk = Buffer.alloc(64 * 1024)
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
    }
    res.on('drain', pump)
    res.on('close', () => markEndlessClosed())
    return pump()
  }
  if (path.startsWith('/slow/')) {
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    setTimeout(() => {
      inFlight--
      res.end('slow')
    }, 50)
    return
  }
  res.writeHead(404).end()
}

beforeAll(async () => {
  endlessClosed = new Promise((resolve) => {
    markEndlessClosed = resolve
  })
  server = createServer(route)
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  await new Promise((resolve) => server.close(resolve))
})

const byLink = (checks: Awaited<ReturnType<typeof liveLinkChecks>>, link: string) =>
  checks.find((check) => check.link === link)

describe('liveLinkChecks', () => {
  it('reports 404 and 500 as broken links with their status, and fine links not at all', async () => {
    const checks = await liveLinkChecks([`${base}/ok`, `${base}/404`, `${base}/500`, `${base}/to-404`])
    for (const check of checks) expect(checkSchema.safeParse(check).success).toBe(true)
    expect(byLink(checks, `${base}/ok`)).toBeUndefined()
    expect(byLink(checks, `${base}/404`)).toMatchObject({
      id: 'links.broken',
      severity: 'error',
      category: 'links',
      status: 404,
    })
    expect(byLink(checks, `${base}/404`)!.message).toContain(`${base}/404 answers 404`)
    expect(byLink(checks, `${base}/500`)).toMatchObject({ id: 'links.broken', status: 500 })
    expect(byLink(checks, `${base}/to-404`)!.message).toContain(`after 1 redirect, at ${base}/404`)
    expect(checks.at(-1)).toMatchObject({
      id: 'links.live',
      severity: 'info',
      message: 'Checked 4 links live: 1 answered, 3 failed',
    })
  })

  it('names a redirect loop, and stops after 5 redirects', async () => {
    const checks = await liveLinkChecks([`${base}/loop-a`, `${base}/chain/0`])
    expect(byLink(checks, `${base}/loop-a`)).toMatchObject({ id: 'links.redirect-loop', severity: 'error' })
    expect(byLink(checks, `${base}/loop-a`)!.message).toContain(`${base}/loop-a → ${base}/loop-b → ${base}/loop-a`)
    expect(byLink(checks, `${base}/chain/0`)).toMatchObject({ id: 'links.too-many-redirects', severity: 'error' })
    expect(seen.filter((request) => request.path.startsWith('/chain/')).map((request) => request.path)).toEqual([
      '/chain/0',
      '/chain/1',
      '/chain/2',
      '/chain/3',
      '/chain/4',
      '/chain/5',
    ])
  })

  it('retries with GET when HEAD is refused, and sends no credentials or cookies', async () => {
    const url = new URL(`${base}/head-405`)
    url.username = 'user'
    url.password = 'secret'
    const checks = await liveLinkChecks([url.href])
    expect(checks).toEqual([
      expect.objectContaining({ id: 'links.live', message: 'Checked 1 link live: 1 answered, 0 failed' }),
    ])
    const asked = seen.filter((request) => request.path === '/head-405')
    expect(asked.map((request) => request.method)).toEqual(['HEAD', 'GET'])
    expect(asked.every((request) => request.authorization === undefined && request.cookie === undefined)).toBe(true)
  })

  it('gives up on a target that never answers at its timeout, and reads no endless body', async () => {
    const checks = await liveLinkChecks([`${base}/never`], { timeoutMs: 300 })
    expect(byLink(checks, `${base}/never`)).toMatchObject({ id: 'links.unreachable', severity: 'error' })
    expect(byLink(checks, `${base}/never`)!.message).toContain('no answer within 0.3 s')
    // Its head comes at once, its body never ends: answered (a loaded machine gets the time to read the head).
    const endless = await liveLinkChecks([`${base}/endless`], { timeoutMs: 10_000 })
    expect(byLink(endless, `${base}/endless`)).toBeUndefined()
    await endlessClosed
  })

  it('reports a refused connection as unreachable', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(closed.address() as { port: number }).port}/`
    await new Promise((resolve) => closed.close(resolve))
    const checks = await liveLinkChecks([url])
    expect(byLink(checks, url)).toMatchObject({ id: 'links.unreachable' })
    expect(byLink(checks, url)!.message).toContain('refused')
  })

  it('asks each distinct http(s) URL once, at most 8 at once', async () => {
    const urls = Array.from({ length: 20 }, (_, i) => `${base}/slow/${i}`)
    const checks = await liveLinkChecks([...urls, ...urls, 'mailto:a@b.c', 'javascript:alert(1)'])
    expect(checks).toEqual([expect.objectContaining({ message: 'Checked 20 links live: 20 answered, 0 failed' })])
    expect(maxInFlight).toBeGreaterThan(1)
    expect(maxInFlight).toBeLessThanOrEqual(8)
  })

  it('is not intercepted by msw (setupServer listening and answering 200 for the same URL)', async () => {
    const msw = setupServer(mswHttp.all(`${base}/*`, () => new HttpResponse('mocked', { status: 200 })))
    msw.listen({ onUnhandledRequest: 'bypass' })
    try {
      expect((await fetch(`${base}/404`)).status).toBe(200) // msw is really on
      const checks = await liveLinkChecks([`${base}/404`])
      expect(byLink(checks, `${base}/404`)).toMatchObject({ id: 'links.broken', status: 404 })
    } finally {
      msw.close()
    }
  })

  it('stops when aborted', async () => {
    const controller = new AbortController()
    const pending = liveLinkChecks([`${base}/never`], { signal: controller.signal, timeoutMs: 60_000 })
    controller.abort(new Error('stop'))
    await expect(pending).rejects.toThrow('stop')
  })
})

describe('liveLinkTargets', () => {
  it('keeps distinct http(s) URLs without credentials', () => {
    expect(
      liveLinkTargets(['https://a.test/x', 'https://u:p@a.test/x', 'ftp://a.test', 'not a url', 'http://b.test']),
    ).toEqual(['https://a.test/x', 'http://b.test/'])
  })
})
