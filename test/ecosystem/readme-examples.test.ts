import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { getResponse } from 'msw'
import { afterAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { CLI, startCli, type CliChild } from '../cli-child.js'

/**
 * The README as a new user follows it (issue 14 item 15): its commands run as written and print
 * what it says they print.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
const run = promisify(execFile)

/** The fenced block of `lang` that follows `heading`. */
function block(heading: string, lang: string): string {
  const start = README.indexOf(heading)
  expect(start, heading).toBeGreaterThanOrEqual(0)
  const open = README.indexOf('```' + lang + '\n', start)
  return README.slice(open + lang.length + 4, README.indexOf('\n```', open))
}

/** `…` in a README output comment stands for anything. */
function pattern(expected: string): RegExp {
  return new RegExp(`^${expected.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*')}$`)
}

describe('README: Try every endpoint', () => {
  let cli: CliChild | undefined
  afterAll(() => cli?.kill())

  it('every curl answers what its `# →` line says (the list total included)', async () => {
    cli = await startCli(['--no-ui', '--port', '0'])
    const lines = block('## Try every endpoint', 'sh').split('\n')
    const setup = lines.filter((line) => /^[A-Z]+=/.test(line)).map((line) => line.replace('http://127.0.0.1:4010/v1', cli!.apiUrl))
    let checked = 0
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i].startsWith('curl ')) continue
      let command = lines[i]
      while (command.endsWith('\\')) command = `${command.slice(0, -1)} ${lines[++i].trim()}`
      const { stdout } = await run('bash', ['-c', [...setup, command].join('\n')])
      const expected = /^# → (.*)$/.exec(lines[i + 1] ?? '')?.[1]
      if (expected === undefined) continue
      expect(stdout, command).toMatch(pattern(expected))
      checked++
    }
    expect(checked).toBeGreaterThanOrEqual(3)
  }, 30_000)
})

describe('README: Config file', () => {
  const work = mkdtempSync(join(tmpdir(), 'sendbox-readme-'))
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it('the example runs as written: `npx sendbox keys` beside it lists its keys and names the file', async () => {
    writeFileSync(join(work, 'sendbox.config.json'), block('## Config file', 'json'))
    const fixtures = /"fixtures": "([^"]+)"/.exec(block('## Config file', 'json'))![1]
    // The file the example names ships with sendbox; a user copies it beside the config.
    mkdirSync(join(work, fixtures, '..'), { recursive: true })
    copyFileSync(join(ROOT, fixtures), join(work, fixtures))
    const { stdout } = await run(process.execPath, [CLI, 'keys'], { cwd: work, env: { ...process.env, SENDBOX_API_KEYS: '', SENDBOX_CONFIG: '' } })
    expect(stdout).toMatch(/acme_live\s+Pro\s+50\/min/)
    expect(stdout).toMatch(/acme_bulk\s+Enterprise\s+20,000\/min\s+acme/)
    expect(stdout).toContain(`settings from ${join(work, 'sendbox.config.json')}`)
  })
})

describe('README: key masks', () => {
  it('the masks it shows are what the journal and outbox show', async () => {
    const claims = [...README.matchAll(/`(test_[a-z]+)` (?:shows )?as `([^`]+)`/g)].map(([, key, mask]) => [key, mask])
    expect(claims.length).toBe(3)
    const sandbox = createSandbox()
    try {
      for (const [key] of claims) await getResponse(sandbox.handlers, new Request(`${sandbox.baseUrl}/subscribers`, { headers: { authorization: `Bearer ${key}` } }))
      const shown = sandbox.journal.list().reverse().map((entry) => entry.key)
      expect(shown).toEqual(claims.map(([, mask]) => mask))
    } finally {
      sandbox.dispose()
    }
  })
})
