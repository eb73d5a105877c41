import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CLI } from '../cli-child.js'

/**
 * The node flags of the starts sendbox makes itself (`npm start`, the container's ENTRYPOINT) are
 * one list, START_NODE_FLAGS in scripts/cli-loader.mjs (why: docs/decisions/start-flags.md). These
 * checks fail when package.json or the Dockerfile drifts from it, and when a start with them stops
 * sharing the bundle's code cache with a start without them.
 */
const root = new URL('../../', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root), 'utf8')

function startNodeFlags(): string[] {
  const declared = /^const START_NODE_FLAGS = (\[[^\]]*\])$/m.exec(read('scripts/cli-loader.mjs'))
  expect(declared, 'scripts/cli-loader.mjs declares START_NODE_FLAGS on one line').not.toBeNull()
  return JSON.parse(declared![1].replaceAll("'", '"')) as string[]
}

describe('the start flags: npm start and the image give node the loader’s START_NODE_FLAGS', () => {
  const flags = startNodeFlags()

  it('names at least one flag, each a node option', () => {
    expect(flags.length).toBeGreaterThan(0)
    for (const flag of flags) expect(flag).toMatch(/^--[a-z][a-z0-9-]*(=\S+)?$/)
  })

  it('npm start runs the CLI with them', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts
    expect(scripts.start).toBe(['node', ...flags, 'dist/bin/sendbox.js'].join(' '))
  })

  it('the container’s ENTRYPOINT runs the CLI with them', () => {
    const entrypoint = /^ENTRYPOINT (\[.*\])$/m.exec(read('Dockerfile'))
    expect(entrypoint, 'the Dockerfile has an exec-form ENTRYPOINT').not.toBeNull()
    expect(JSON.parse(entrypoint![1])).toEqual(['node', ...flags, '/app/dist/bin/sendbox.js'])
  })

  describe('a start with them reads the code cache of a start without them', () => {
    // A copy of the built bin/ folder: its cache is then written beside the copy, where only this test looks.
    const copy = mkdtempSync(join(tmpdir(), 'sendbox-start-flags-'))
    cpSync(join(CLI, '..'), join(copy, 'dist', 'bin'), { recursive: true })
    const bin = join(copy, 'dist', 'bin', 'sendbox.js')
    const cacheDir = join(copy, 'node_modules', '.cache', 'sendbox')
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SENDBOX_')))
    const version = (nodeFlags: string[]) =>
      execFileSync(process.execPath, [...nodeFlags, bin, '--version'], { cwd: copy, env, encoding: 'utf8' }).trim()
    const caches = () =>
      readdirSync(cacheDir)
        .filter((name) => name.endsWith('.v8cache'))
        .sort()
    afterAll(() => rmSync(copy, { recursive: true, force: true }))

    it('no cache of their own; another node flag gets one (what the key is for)', () => {
      const expected = version([])
      const plain = caches()
      expect(plain).toHaveLength(1)
      expect(version(flags)).toBe(expected)
      expect(caches()).toEqual(plain)
      // The control: a flag outside the list keys a cache of its own, so the check above can fail.
      expect(version(['--stack-trace-limit=20'])).toBe(expected)
      expect(caches()).toHaveLength(2)
    })
  })
})
