/**
 * Issue 36, item 6: `GET /__sandbox/readyz` answers 503 `not_ready` (with Retry-After) until the
 * store is loaded, 200 after; `?wait=5s` holds the answer until then. A store whose loading the
 * test releases (the `store` option: what `--data` opens), on the standalone server.
 */
import { afterAll, describe, expect, it } from 'vitest'
import type { SandboxStore } from '../../src/domain/sandbox.js'
import { standalone } from '../helpers.js'

describe('readyz and a store still loading', () => {
  let load: () => void = () => undefined
  const loaded = new Promise<void>((resolve) => (load = resolve))
  const store: SandboxStore = {
    path: '/nowhere/sandbox.db',
    accountSalt: 'a-salt-of-sixteen-chars-at-least',
    open: async () => (await loaded, false),
    settle: async () => undefined,
    close: () => undefined,
  }
  let server: Awaited<ReturnType<typeof standalone>> | undefined
  afterAll(() => server?.close())

  it('answers 503 before the store is loaded, holds ?wait=5s until it is, and 200 after', async () => {
    server = await standalone({ store })
    const readyz = (query = '') => fetch(`${server!.running.url}/__sandbox/readyz${query}`)

    const early = await readyz()
    expect(early.status).toBe(503)
    expect(early.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await early.json()).error.code).toBe('not_ready')
    expect((await fetch(`${server.running.url}/__sandbox/livez`)).status).toBe(200)
    // A short wait ends unready; a long one is held until the store is loaded.
    expect((await readyz('?wait=50ms')).status).toBe(503)
    let held: number | undefined
    const waiting = readyz('?wait=5s').then((answer) => (held = answer.status))
    // Not answered while the store loads: an unready probe answers at once, so a settled
    // answer here would already be in.
    expect((await readyz()).status).toBe(503)
    expect(held).toBeUndefined()
    load()
    expect(await waiting).toBe(200)
    const after = await readyz()
    expect(after.status).toBe(200)
    expect(await after.text()).toBe('{"ok":true}')
  })
})
