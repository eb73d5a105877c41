import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { attachBufferedBody, type JsonAnswer } from '../../src/http/body.js'
import { createDispatcher } from '../../src/http/index.js'
import type { Sandbox } from '../../src/index.js'

let built: Promise<void> | undefined

/** Builds dist/web when it is missing or older than the inbox's sources (`npm test` builds first anyway). */
export function buildWebInboxOnce(): Promise<void> {
  built ??= (async () => {
    const assets = join('dist', 'web', 'assets.js')
    if (existsSync(assets) && statSync(assets).mtimeMs >= newestSource()) return
    const { buildWebInbox } = (await import(join(process.cwd(), 'scripts/build-web.mjs'))) as {
      buildWebInbox(root: string, options?: { quiet?: boolean }): Promise<unknown>
    }
    await buildWebInbox(process.cwd(), { quiet: true })
  })()
  return built
}

function newestSource(): number {
  let newest = 0
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else newest = Math.max(newest, statSync(path).mtimeMs)
    }
  }
  walk(join('src', 'ui', 'web'))
  return newest
}

/**
 * Sends each of `bodies` to the API path `path` (`/sms/send`) with the key `key`, through the
 * sandbox's dispatcher: the route table and guard chain the standalone server runs every request
 * through (validation, rate limit, journal, capture), without a socket or a Fetch object each.
 * Ten times quicker than msw's `getResponse` for thousands of sends; fails on any answer but 200.
 */
export async function dispatchSends(sandbox: Sandbox, path: string, key: string, bodies: unknown[]): Promise<void> {
  const dispatch = createDispatcher(sandbox)
  const url = new URL(`${sandbox.baseUrl}${path}`)
  const headers = new Map([
    ['authorization', `Bearer ${key}`],
    ['content-type', 'application/json'],
  ])
  const signal = new AbortController().signal
  const encoder = new TextEncoder()
  const answers = await Promise.all(
    bodies.map((body) => {
      const request = {
        method: 'POST',
        url: url.href,
        headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
        signal,
      }
      attachBufferedBody(request, encoder.encode(JSON.stringify(body)))
      return dispatch(request, url)
    }),
  )
  const refused = answers.filter((answer) => answer?.status !== 200)
  if (refused.length > 0)
    throw new Error(
      `${refused.length} of ${bodies.length} sends refused: ${(refused[0] as JsonAnswer | undefined)?.text}`,
    )
}
