import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CheckReport } from '../../src/contract/checks.js'
import { CLI } from '../cli-child.js'
import { json, sendEmail, startWithData, stop } from '../persistence/helpers.js'
import { BAD_EMAIL, CLEAN_EMAIL } from './fixtures.js'

/** `sendbox check` as a child process of the built CLI: its output and exit code. */
function check(args: string[], input?: string) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SENDBOX_')))
  const run = spawnSync(process.execPath, [CLI, 'check', ...args], { input, encoding: 'utf8', env, timeout: 30_000 })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

describe('sendbox check', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'sendbox-check-'))
  const bad = join(dir, 'bad.html')
  const clean = join(dir, 'clean.html')
  writeFileSync(bad, BAD_EMAIL)
  writeFileSync(clean, CLEAN_EMAIL)

  it('exits 1 on the bad file, printing the report, and 0 on a clean one', () => {
    const failed = check([bad])
    expect(failed.code).toBe(1)
    expect(failed.stdout).toMatch(/bad\.html: score \d+\/100 — 1 error/)
    expect(failed.stdout).toMatch(/error\s+links\.javascript 4:1/)
    expect(check([clean])).toMatchObject({ code: 0 })
  })

  it('reads stdin with -, is stricter with --fail-on warning, and prints JSON with --json', () => {
    expect(check(['-'], BAD_EMAIL).code).toBe(1)
    const strict = check(
      ['--fail-on', 'warning', '-'],
      '<html lang="en"><a href="http://example.com/">Offer</a></html>',
    )
    expect(strict.code).toBe(1)
    const report = JSON.parse(check(['--json', clean]).stdout) as CheckReport
    expect(report).toMatchObject({ channel: 'email', counts: { error: 0 } })
  })

  it('checks an SMS text, and an alphanumeric sender to +1 is an error', () => {
    const sms = check(['--channel', 'sms', '--text', 'It’s ready', '--json'])
    expect(sms.code).toBe(0)
    expect((JSON.parse(sms.stdout) as CheckReport).checks[0]).toMatchObject({
      id: 'sms.ucs2-character',
      character: '’',
    })
    expect(check(['--channel', 'sms', '--text', 'Hi', '--from', 'ACME', '--to', '+14155550123']).code).toBe(1)
  })

  it('exits 2 on a usage error', () => {
    expect(check([]).code).toBe(2)
    expect(check(['--fail-on', 'info', clean]).code).toBe(2)
    expect(check([join(dir, 'missing.html')])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('cannot read'),
    })
    expect(check(['--bogus', clean]).code).toBe(2)
  })
})

describe('check reports with --data', () => {
  it('are kept across a restart (the same report, not computed again)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sendbox-check-data-')), 'store.db')
    let cli = await startWithData(file)
    const { message_id: id } = await json<{ message_id: string }>(sendEmail(cli.apiUrl, 'Hi', BAD_EMAIL))
    const first = await json<CheckReport>(fetch(`${cli.origin}/__sandbox/messages/${id}/checks`))
    expect(first.checks.map((c) => c.id)).toContain('links.javascript')
    await stop(cli)
    cli = await startWithData(file)
    try {
      expect(await json<CheckReport>(fetch(`${cli.origin}/__sandbox/messages/${id}/checks`))).toEqual(first)
      const again = await json<CheckReport>(fetch(`${cli.origin}/__sandbox/messages/${id}/checks?refresh=1`))
      expect(again.checks).toEqual(first.checks)
    } finally {
      await stop(cli)
    }
  }, 60_000)
})
