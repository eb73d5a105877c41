import { describe, expect, it } from 'vitest'
import { ApiError } from '../../domain/errors.js'
import { ImageCache, RenderQueue } from './render-queue.js'

describe('RenderQueue', () => {
  it('runs one job at a time, in order, and refuses past its limit with 503 and Retry-After', async () => {
    const queue = new RenderQueue<string>(2)
    const order: string[] = []
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const first = queue.run('a', async () => {
      order.push('a')
      await gate
      return 'A'
    })
    await Promise.resolve() // 'a' starts: it no longer waits
    const second = queue.run('b', async () => (order.push('b'), 'B'))
    const third = queue.run('c', async () => (order.push('c'), 'C'))
    let refused: unknown
    try {
      queue.run('d', async () => 'D')
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({ status: 503, code: 'too_many_clients', headers: { 'Retry-After': '2' } })
    await Promise.resolve()
    expect(order).toEqual(['a'])
    release()
    expect(await Promise.all([first, second, third])).toEqual(['A', 'B', 'C'])
    expect(order).toEqual(['a', 'b', 'c'])
  })

  it('joins a job of the same key instead of queueing it twice, and goes on after a failure', async () => {
    const queue = new RenderQueue<number>(1)
    let runs = 0
    const job = async () => ++runs
    const [one, two] = await Promise.all([queue.run('k', job), queue.run('k', job)])
    expect([one, two, runs]).toEqual([1, 1, 1])
    await expect(queue.run('x', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await queue.run('y', async () => 7)).toBe(7)
  })
})

describe('ImageCache', () => {
  const image = (bytes: number) => new Uint8Array(bytes)
  it('keeps the most recently used, by count and by bytes', () => {
    const cache = new ImageCache(2, 100)
    cache.set('a', image(10))
    cache.set('b', image(10))
    cache.get('a')
    cache.set('c', image(10))
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map((i) => i?.byteLength)).toEqual([10, undefined, 10])
    cache.set('d', image(95))
    expect([cache.get('a'), cache.get('c'), cache.get('d')].map((i) => i?.byteLength)).toEqual([
      undefined,
      undefined,
      95,
    ])
    cache.set('huge', image(101))
    expect(cache.get('huge')).toBeUndefined()
  })
})
