import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli, type CliChild } from '../cli-child.js'
import { blocksOf, pattern, where } from '../ecosystem/doc-blocks.js'
import { MCP_TOOLS } from './mcp-harness.js'

/**
 * Issue 33 item 4: the Agent Skill `skills/sendbox/SKILL.md` teaches the workflow (trigger the
 * app, wait, read the code or link, assert, check the message). Its front matter is what the
 * Agent Skills format asks (`name` as its folder, lowercase and hyphens, ≤ 64 characters; a
 * `description` of at most 1,024), every tool it names exists, and every `sh` block runs as
 * written against a started sandbox, printing what its `# →` lines say (`…` stands for anything).
 */
const PAGE = 'skills/sendbox/SKILL.md'
const text = readFileSync(resolve(import.meta.dirname, '../..', PAGE), 'utf8')
const MARK = '@@skill-statement-done@@'

/** The block's commands (continuation lines joined), each with the `# →` line after it. */
function statements(code: string): Array<{ command: string; expected?: string }> {
  const lines = code.split('\n')
  const found: Array<{ command: string; expected?: string }> = []
  for (let i = 0; i < lines.length; i++) {
    const expected = /^# → (.*)$/.exec(lines[i])?.[1]
    if (expected !== undefined) found[found.length - 1].expected = expected
    if (expected !== undefined || lines[i].trim() === '' || lines[i].trim().startsWith('#')) continue
    let command = lines[i]
    while (command.endsWith('\\')) command = `${command.slice(0, -1)} ${lines[++i].trim()}`
    found.push({ command })
  }
  return found
}

/** Runs a block in bash (`set -euo pipefail`, curl failing on an HTTP error) against `origin`. */
async function runBlock(
  code: string,
  origin: string,
): Promise<{ status: number | null; outputs: string[]; stderr: string; expected: (string | undefined)[] }> {
  const list = statements(code)
  const script = [
    'set -euo pipefail',
    'curl() { command curl --fail-with-body "$@"; }',
    ...list.flatMap((s) => [s.command.replaceAll('http://127.0.0.1:4010', origin), `printf '\\n${MARK}\\n'`]),
  ].join('\n')
  const cwd = mkdtempSync(join(tmpdir(), 'sendbox-skill-'))
  const child = spawn('bash', ['-c', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const status = await new Promise<number | null>((done) => child.once('close', done))
  rmSync(cwd, { recursive: true, force: true })
  return { status, outputs: stdout.split(`\n${MARK}\n`), stderr, expected: list.map((s) => s.expected) }
}

describe('the Agent Skill skills/sendbox/SKILL.md', () => {
  it('has the Agent Skills front matter: name as its folder, a description of at most 1,024 characters', () => {
    const front = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1]
    expect(front).toBeDefined()
    const fields = Object.fromEntries(front!.split('\n').map((line) => /^(\w+): (.*)$/.exec(line)!.slice(1, 3)))
    expect(Object.keys(fields).sort()).toEqual(['description', 'name'])
    expect(fields.name).toBe('sendbox')
    expect(fields.name).toMatch(/^(?!-)(?!.*--)[a-z0-9-]{1,64}(?<!-)$/)
    expect(fields.description.length).toBeGreaterThan(20)
    expect(fields.description.length).toBeLessThanOrEqual(1024)
    expect(fields.description).toMatch(/Use when/)
  })

  it('teaches the workflow and names only tools the server has', () => {
    for (const step of ['Trigger the app', 'Wait', 'Read the code or the link', 'Assert', 'Check the message'])
      expect(text).toContain(`**${step}`)
    const named = [...new Set([...text.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)].map((m) => m[1]))].filter((name) =>
      /^(?:list|get|wait|simulate|replay|add|clear|advance|reset|check)_/.test(name),
    )
    expect(named.length).toBeGreaterThanOrEqual(12)
    expect(named.filter((name) => !MCP_TOOLS.includes(name))).toEqual([])
    expect(text).toContain('untrusted data')
  })

  describe('every sh block runs as written', () => {
    let cli: CliChild
    beforeAll(async () => {
      cli = await startCli(['--no-ui', '--port', '0'])
    }, 30_000)
    afterAll(() => cli?.kill())

    const blocks = blocksOf(PAGE).filter((block) => block.lang === 'sh')
    it('has the blocks', () => expect(blocks.length).toBeGreaterThanOrEqual(4))
    for (const block of blocks) {
      it(
        where(block),
        async () => {
          expect((await fetch(`${cli.origin}/__sandbox/reset`, { method: 'POST' })).status).toBe(200)
          const { status, outputs, stderr, expected } = await runBlock(block.code, cli.origin)
          expect(status, `${where(block)}\nstdout: ${outputs.join('|')}\nstderr: ${stderr}`).toBe(0)
          expected.forEach((want, i) => {
            if (want !== undefined)
              expect(outputs[i].trim(), `${where(block)}, command ${i + 1}`).toMatch(pattern(want))
          })
        },
        60_000,
      )
    }
  })
})
