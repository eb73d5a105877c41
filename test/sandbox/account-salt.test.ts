import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { CLI } from '../cli-child.js'

/**
 * Issue 27, N12: the default account id (`acct_…`) is a hash of the key with a random salt per
 * process — an id seen in the journal or the outbox no longer gives the key away offline — stable
 * within a process, and the same across processes when the salt is given (`accountSalt`, which a
 * persistent store keeps). Seeded subscribers do not depend on it.
 */
const run = promisify(execFile)
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SENDBOX_')))
const accountsOf = async () => (await run(process.execPath, [CLI, 'keys'], { env })).stdout.match(/acct_[0-9a-f]{12}/g)

describe('default account ids', () => {
  it('differ between two processes for the same key', async () => {
    const [first, second] = await Promise.all([accountsOf(), accountsOf()])
    expect(first).toHaveLength(3)
    expect(second).toHaveLength(3)
    expect(first).not.toEqual(second)
  })

  it('are stable within a process, and follow accountSalt when it is given', () => {
    const a = createSandbox()
    const b = createSandbox()
    expect(a.accountOf('test_pro')).toBe(b.accountOf('test_pro'))
    const salted = (salt: string) => createSandbox({ accountSalt: salt }).accountOf('test_pro')
    expect(salted('0123456789abcdef0123')).toBe(salted('0123456789abcdef0123'))
    expect(salted('0123456789abcdef0123')).not.toBe(salted('fedcba98765432100123'))
    expect(salted('0123456789abcdef0123')).toMatch(/^acct_[0-9a-f]{12}$/)
    expect(() => createSandbox({ accountSalt: 'short' })).toThrow(
      /accountSalt must be a string of at least 16 characters/,
    )
  })

  it('leave seeded subscribers the same whatever the salt', async () => {
    const one = createSandbox({ subscribers: 3, seed: 7, accountSalt: 'aaaaaaaaaaaaaaaaaaaa' })
    const two = createSandbox({ subscribers: 3, seed: 7, accountSalt: 'bbbbbbbbbbbbbbbbbbbb' })
    await Promise.all([one.ready, two.ready])
    const names = (s: typeof one) => s.subscribers.list(s.accountOf('test_pro')!, 1, 10).data.map((x) => x.email)
    expect(names(one)).toHaveLength(3)
    expect(names(one)).toEqual(names(two))
  })
})
