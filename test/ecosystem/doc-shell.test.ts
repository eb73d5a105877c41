import { execFile, spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { getResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/index.js'
import { CLI, startCli, type CliChild } from '../cli-child.js'
import {
  allBlocks,
  blocksOf,
  DOC_PAGES,
  OUTPUT_LANGUAGES,
  pattern,
  ROOT,
  RUN_LANGUAGES,
  where,
  type DocBlock,
} from './doc-blocks.js'
import { freePort } from '../free-port.js'

/**
 * The README and docs/*.md as a user follows them (issue 14 item 15, issue 33 item 2): every `sh`
 * block runs as written and prints what its `# →` lines say (`…` stands for anything); every JSON
 * block parses; every other block says why it is not run; no block holds a placeholder to edit.
 *
 * A `sh` block runs in bash (`set -euo pipefail`) in an empty directory, with `npx sendbox` the
 * built CLI, and `curl` failing on an HTTP error (`--fail-with-body`) unless the block is marked
 * `<!-- snippet: sh errors -->` (its error answers are the example). Its URLs
 * (`http://127.0.0.1:4010`, `localhost:4010`) name:
 * - by default, one sendbox started for this file (defaults: seeded subscribers, 1 s lifecycle
 *   steps), reset before each block;
 * - with `<!-- snippet: sh serve -->`, the sendbox the block's first command starts (the block's own
 *   flags, on a free port, on loopback, its output to a file), waited for before the next command
 *   and stopped after the block. `node22.13` among the flags skips the block on an older Node.
 */
const run = promisify(execFile)
const PLACEHOLDER = /REPLACE_ME|your-org|<url of|<your[ -]/i
const shellBlocks = allBlocks().filter((block) => block.lang === 'sh' && block.notRun === undefined)
const nodeAtLeast = (wanted: string) => {
  const [major, minor] = process.versions.node.split('.').map(Number)
  const [wantMajor, wantMinor] = wanted.split('.').map(Number)
  return major > wantMajor || (major === wantMajor && minor >= wantMinor)
}

interface Statement {
  command: string
  expected?: string
}

/** The block's commands (continuation lines joined), each with the `# →` line after it. */
function statements(code: string): Statement[] {
  const lines = code.split('\n')
  const found: Statement[] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const expected = /^# → (.*)$/.exec(line)?.[1]
    if (expected !== undefined) {
      expect(found.length, `a "# →" line before any command: ${line}`).toBeGreaterThan(0)
      found[found.length - 1].expected = expected
      continue
    }
    if (line.trim() === '' || line.trim().startsWith('#')) continue
    let command = line
    while (command.endsWith('\\')) command = `${command.slice(0, -1)} ${lines[++i].trim()}`
    found.push({ command })
  }
  return found
}

const MARK = '@@doc-block-statement-done@@'
const CURL_FAILS_ON_ERRORS = `curl() {
  local a
  for a in "$@"; do
    if [[ $a == --fail* ]] || [[ $a =~ ^-[a-zA-Z]*f[a-zA-Z]*$ ]]; then command curl "$@"; return; fi
  done
  command curl --fail-with-body "$@"
}`

/** The bash script for a block: its statements, each followed by a marker line on stdout. */
function script(
  block: DocBlock,
  origin: string,
  serve: boolean,
): { text: string; expectations: (string | undefined)[] } {
  const local = (command: string) =>
    command
      .replaceAll('http://127.0.0.1:4010', origin)
      .replaceAll('http://localhost:4010', origin)
      .replaceAll('npx sendbox', `node ${JSON.stringify(CLI)}`)
  const parts = ['set -euo pipefail', ...(block.args.includes('errors') ? [] : [CURL_FAILS_ON_ERRORS])]
  const expectations: (string | undefined)[] = []
  statements(block.code).forEach((statement, index) => {
    let command = local(statement.command)
    if (serve && index === 0) {
      const port = new URL(origin).port
      command = command
        .replace(`node ${JSON.stringify(CLI)}`, `node ${JSON.stringify(CLI)} --port ${port}`)
        .replace('--host 0.0.0.0', '--host 127.0.0.1')
      if (!/&\s*$/.test(command)) command = `${command} > sendbox-server.log 2>&1 &`
      command += `\nfor i in $(seq 1 300); do [ "$(command curl -s -o /dev/null -w '%{http_code}' ${origin}/__sandbox/health || true)" != 000 ] && break; sleep 0.1; done; kill -0 $! # the block's own server answered, not one that held the port`
    }
    parts.push(command, `printf '\\n${MARK}\\n'`)
    expectations.push(statement.expected)
  })
  return { text: parts.join('\n'), expectations }
}

/** Runs the block's script in its own process group (a server it starts goes with it). */
async function runBlock(block: DocBlock, origin: string, serve: boolean): Promise<void> {
  const { text, expectations } = script(block, origin, serve)
  const cwd = mkdtempSync(join(tmpdir(), 'sendbox-doc-block-'))
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SENDBOX_'))),
    NO_COLOR: '1',
  }
  const child = spawn('bash', ['-c', text], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (data: string) => (stdout += data))
  child.stderr.setEncoding('utf8').on('data', (data: string) => (stderr += data))
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
  try {
    process.kill(-child.pid!, 'SIGTERM')
  } catch {
    // nothing of the block's is left running
  }
  const outputs = stdout.split(`\n${MARK}\n`)
  const log = serve ? readFileSync(join(cwd, 'sendbox-server.log'), { encoding: 'utf8', flag: 'a+' }) : ''
  rmSync(cwd, { recursive: true, force: true })
  expect(
    code,
    `${where(block)}: command ${outputs.length} of ${expectations.length} failed.\nstdout: ${stdout.slice(-2000)}\nstderr: ${stderr.slice(-2000)}\n${log.slice(-2000)}`,
  ).toBe(0)
  expectations.forEach((expected, i) => {
    if (expected !== undefined)
      expect(outputs[i].trim(), `${where(block)}, command ${i + 1}`).toMatch(pattern(expected))
  })
}

describe('docs: every block runs, or says why not', () => {
  it('each tagged block is run by a docs test or carries <!-- not run: REASON -->', () => {
    const unexplained = allBlocks().filter(
      (block) =>
        !(RUN_LANGUAGES as readonly string[]).includes(block.lang) &&
        !OUTPUT_LANGUAGES.includes(block.lang) &&
        !block.notRun,
    )
    expect(unexplained.map((block) => `${where(block)} (${block.lang})`)).toEqual([])
    expect(
      allBlocks()
        .filter((block) => block.notRun === '')
        .map(where),
    ).toEqual([])
  })

  it('no block holds a placeholder a user must edit before it runs', () => {
    const offenders = allBlocks().filter((block) => PLACEHOLDER.test(block.code))
    expect(offenders.map((block) => `${where(block)}: ${PLACEHOLDER.exec(block.code)![0]}`)).toEqual([])
  })

  it('every JSON block parses', () => {
    for (const block of allBlocks().filter((b) => b.lang === 'json' && !b.notRun))
      expect(() => JSON.parse(block.code), where(block)).not.toThrow()
  })

  it('finds the shell blocks of the README and the pages', () => {
    expect(shellBlocks.filter((block) => block.page === 'README.md').length).toBeGreaterThanOrEqual(3)
    expect(new Set(shellBlocks.map((block) => block.page)).size).toBeGreaterThanOrEqual(8)
    expect(DOC_PAGES).toContain('docs/api.md')
  })
})

describe('docs: every sh block runs as written', () => {
  let cli: CliChild | undefined
  beforeAll(async () => {
    cli = await startCli(['--no-ui', '--port', '0'])
  }, 30_000)
  afterAll(() => cli?.kill())

  for (const block of shellBlocks) {
    const needs = block.args.find((arg) => /^node\d+\.\d+$/.test(arg))?.slice(4)
    it.skipIf(needs !== undefined && !nodeAtLeast(needs))(
      `${where(block)}${block.kind === 'sh' && block.args.length ? ` (${block.args.join(' ')})` : ''}`,
      async () => {
        if (block.args.includes('serve')) {
          await runBlock(block, `http://127.0.0.1:${await freePort()}`, true)
          return
        }
        const reset = await fetch(`${cli!.origin}/__sandbox/reset`, { method: 'POST' })
        expect(reset.status).toBe(200)
        await runBlock(block, cli!.origin, false)
      },
      60_000,
    )
  }
})

describe('docs/settings.md: Config file', () => {
  const work = mkdtempSync(join(tmpdir(), 'sendbox-readme-'))
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it('the example runs as written: `npx sendbox keys` beside it lists its keys and names the file', async () => {
    const page = readFileSync(join(ROOT, 'docs/settings.md'), 'utf8')
    const line = page.slice(0, page.indexOf('## Config file')).split('\n').length
    const config = blocksOf('docs/settings.md').find((block) => block.lang === 'json' && block.line > line)!.code
    writeFileSync(join(work, 'sendbox.config.json'), config)
    const fixtures = /"fixtures": "([^"]+)"/.exec(config)![1]
    // The file the example names ships with sendbox; a user copies it beside the config.
    mkdirSync(join(work, fixtures, '..'), { recursive: true })
    copyFileSync(join(ROOT, fixtures), join(work, fixtures))
    const { stdout } = await run(process.execPath, [CLI, 'keys'], {
      cwd: work,
      env: { ...process.env, SENDBOX_API_KEYS: '', SENDBOX_CONFIG: '' },
    })
    expect(stdout).toMatch(/acme_live\s+Pro\s+50\/min/)
    expect(stdout).toMatch(/acme_bulk\s+Enterprise\s+20,000\/min\s+acme/)
    expect(stdout).toContain(`settings from ${join(work, 'sendbox.config.json')}`)
  })
})

describe('docs: key masks', () => {
  it('the masks the pages show are what the journal and outbox show', async () => {
    const text = DOC_PAGES.map((page) => readFileSync(join(ROOT, page), 'utf8')).join('\n')
    const claims = [...text.matchAll(/`(test_[a-z]+)` (?:shows )?as `([^`]+)`/g)].map(([, key, mask]) => [key, mask])
    expect(claims.length).toBe(3)
    const sandbox = createSandbox()
    try {
      for (const [key] of claims)
        await getResponse(
          sandbox.handlers,
          new Request(`${sandbox.baseUrl}/subscribers`, { headers: { authorization: `Bearer ${key}` } }),
        )
      const shown = sandbox.journal
        .list()
        .reverse()
        .map((entry) => entry.key)
      expect(shown).toEqual(claims.map(([, mask]) => mask))
    } finally {
      sandbox.dispose()
    }
  })
})
