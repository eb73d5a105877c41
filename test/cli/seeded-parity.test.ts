import { describe, expect, it } from 'vitest'
import { startCli } from '../cli-child.js'
import { direct } from '../helpers.js'

/**
 * The bundled CLI seeds from the three English definitions seeding reads, copied from faker at
 * build time, not from faker's whole English locale (scripts/bundle.mjs, `seedNames`): the
 * subscribers of a seed must be the ones the library seeds, byte for byte.
 */
const KEYS = ['test_starter', 'test_pro', 'test_enterprise']

async function allOf(get: (path: string, key: string) => Promise<string>, key: string): Promise<unknown[]> {
  const all: unknown[] = []
  for (let page = 1; ; page++) {
    const { data } = JSON.parse(await get(`/subscribers?page=${page}&limit=100`, key)) as { data: unknown[] }
    all.push(...data)
    if (data.length < 100) return all
  }
}

describe('seeded subscribers, bundled CLI against the library', () => {
  it.each([
    [1, 10],
    [42, 250],
  ])('are the same for seed %i, %i per account', async (seed, count) => {
    const cli = await startCli(['--no-ui', '--port', '0', '--seed', String(seed), '--subscribers', String(count)])
    const lib = direct({ seed, subscribers: count })
    try {
      for (const key of KEYS) {
        const overHttp = await allOf(
          async (path, k) =>
            (await fetch(`${cli.apiUrl}${path}`, { headers: { authorization: `Bearer ${k}` } })).text(),
          key,
        )
        const inProcess = await allOf(
          async (path, k) => (await lib.call('GET', path, undefined, { authorization: `Bearer ${k}` })).text(),
          key,
        )
        expect(overHttp).toHaveLength(count)
        expect(overHttp).toEqual(inProcess)
      }
    } finally {
      cli.kill()
      lib.dispose()
    }
  })
})
