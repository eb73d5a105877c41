import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CLI, startCli } from '../cli-child.js'

/**
 * The node flags of sendbox's process are one list, START_NODE_FLAGS in scripts/cli-loader.mjs
 * (why: docs/decisions/start-flags.md). `npm start` and the container's ENTRYPOINT give them to
 * node; any other start gets them from the loader, which executes node again in place with them
 * (docs/decisions/reexec-start-flags.md). These checks fail when package.json or the Dockerfile
 * drifts from the list, when a start without them keeps running without them where node can exec,
 * and when a start with them stops sharing the bundle's code cache with a start without them.
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

  // What node runs as, read from the kernel: the process's own command line, after any exec.
  const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
  const canExec = typeof (process as { execve?: unknown }).execve === 'function'

  describe.runIf(process.platform === 'linux')(
    'a start without them, as npx and node dist/bin/sendbox.js start it',
    () => {
      it(`runs with them, the same process (node ${canExec ? 'executed again in place' : 'without process.execve: as it is'})`, async () => {
        const cli = await startCli(['--no-ui', '--port', '0'])
        try {
          const line = commandLine(cli.child.pid!)
          for (const flag of flags) expect(line.filter((word) => word === flag)).toHaveLength(canExec ? 1 : 0)
          // The flags go before the script; its arguments stay as they were.
          expect(line.slice(line.indexOf(CLI))).toEqual([CLI, '--no-ui', '--port', '0'])
          const answer = await fetch(`${cli.apiUrl}/subscribers`, { headers: { authorization: 'Bearer test' } })
          expect(answer.status).toBe(401)
          expect(((await answer.json()) as { error: { code: string } }).error.code).toBeTypeOf('string')
          // Signals reach the server the parent started: SIGTERM stops it cleanly.
          cli.child.kill('SIGTERM')
          expect((await cli.exited).code).toBe(0)
        } finally {
          cli.kill()
        }
      })

      it('under a debugger (--inspect) it stays the process the debugger attached to', async () => {
        const cli = await startCli(['--no-ui', '--port', '0'], { nodeFlags: ['--inspect=127.0.0.1:0'] })
        try {
          const line = commandLine(cli.child.pid!)
          expect(line.slice(1, line.indexOf(CLI))).toEqual(['--inspect=127.0.0.1:0'])
        } finally {
          cli.kill()
        }
      })

      it('keeps node flags it was given, after them; a start that has them is not executed again', async () => {
        const cli = await startCli(['--no-ui', '--port', '0'], { nodeFlags: ['--stack-trace-limit=21', ...flags] })
        try {
          const line = commandLine(cli.child.pid!)
          expect(line.slice(1, line.indexOf(CLI))).toEqual(['--stack-trace-limit=21', ...flags])
        } finally {
          cli.kill()
        }
      })
    },
  )

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
