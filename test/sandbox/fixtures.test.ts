import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { loadFixtures } from '../../src/cli/fixtures-file.js'
import { direct } from '../helpers.js'

const BIN = new URL('../../dist/bin/sendbox.js', import.meta.url).pathname
const dir = mkdtempSync(join(tmpdir(), 'sendbox-fixtures-'))
function file(name: string, content: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

async function listAll(api: ReturnType<typeof direct>, key = 'test_pro') {
  return (await api.call('GET', '/subscribers?limit=100', undefined, { authorization: `Bearer ${key}` })).text()
}

describe('seeded subscribers', () => {
  it('are identical for the same seed, byte for byte, and differ for another', async () => {
    const a = direct({ seed: 42, subscribers: 25 })
    const b = direct({ seed: 42, subscribers: 25 })
    const c = direct({ seed: 43, subscribers: 25 })
    expect(await listAll(a)).toBe(await listAll(b))
    expect(await listAll(a)).not.toBe(await listAll(c))
    const page = JSON.parse(await listAll(a))
    expect(page.pagination.total).toBe(25)
    expect(new Set(page.data.map((s: { email: string }) => s.email)).size).toBe(25)
    // Every account gets its own list.
    expect(await listAll(a, 'test_starter')).not.toBe(await listAll(a))
    for (const s of [a, b, c]) s.dispose()
  })

  it('come back after a reset, and in-process defaults to none', async () => {
    const a = direct({ seed: 1, subscribers: 3 })
    const before = await listAll(a)
    await a.call('POST', '/subscribers', { email: 'extra@example.com' })
    await a.sandbox.reset()
    expect(await listAll(a)).toBe(before)
    a.dispose()
    const empty = direct()
    expect(JSON.parse(await listAll(empty)).pagination.total).toBe(0)
    empty.dispose()
  })
})

describe('fixture files', () => {
  it('load subscribers per account or per key', async () => {
    const path = file('good.json', {
      subscribers: {
        test_pro: [
          { email: 'ana@example.com', first_name: 'Ana', tags: ['vip'] },
          { phone: '+14155550123', id: 'sub_fixed1', created_at: '2026-01-02T03:04:05.000Z' },
        ],
      },
    })
    const api = direct({ fixtures: loadFixtures(path) })
    const page = JSON.parse(await listAll(api))
    expect(page.data.map((s: { email: string | null }) => s.email)).toEqual(['ana@example.com', null])
    expect(page.data[1]).toMatchObject({ id: 'sub_fixed1', created_at: '2026-01-02T03:04:05.000Z' })
    api.dispose()
  })

  it.each([
    ['not JSON', '{', /is not valid JSON/],
    [
      'bad email',
      { subscribers: { acme: [{ email: 'ana@example.com' }, { email: 'nope' }] } },
      /account "acme" record 1 field email/,
    ],
    ['no contact', { subscribers: { acme: [{ first_name: 'Ana' }] } }, /account "acme" record 0.*email or a phone/],
    [
      'unknown field',
      { subscribers: { acme: [{ email: 'a@b.co', firstName: 'Ana' }] } },
      /account "acme" record 0.*firstName/,
    ],
    [
      'duplicate email',
      { subscribers: { acme: [{ email: 'a@b.co' }, { email: 'A@b.co' }] } },
      /record 1 field email: duplicate/,
    ],
    ['wrong top level', { people: [] }, /fixtures file/],
  ])('name the file, record and field when %s', (_name, content, message) => {
    const path = file(`bad-${_name.replace(/ /g, '-')}.json`, content)
    expect(() => loadFixtures(path)).toThrow(message)
    expect(() => loadFixtures(path)).toThrow(path)
  })

  it('stop the server from starting with one clear line', () => {
    const path = file('cli-bad.json', { subscribers: { acme: [{ email: 'nope' }] } })
    const result = spawnSync(process.execPath, [BIN, '--no-ui', '--port', '0', '--fixtures', path], {
      encoding: 'utf8',
      timeout: 10_000,
    })
    expect(result.status).toBe(2)
    expect(result.stderr).toMatch(new RegExp(`sendbox: fixtures file ${path}: account "acme" record 0 field email`))
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    const missing = spawnSync(process.execPath, [BIN, '--no-ui', '--port', '0', '--fixtures', join(dir, 'nope.json')], {
      encoding: 'utf8',
      timeout: 10_000,
    })
    expect(missing.status).toBe(2)
    expect(missing.stderr).toMatch(/cannot read fixtures file .*nope\.json: ENOENT/)
  })
})
