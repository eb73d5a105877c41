/**
 * The CLI side of issue 11: `--cors-origin`, `--allowed-host`, `--max-outbox-mb`, and admin
 * tokens that would open every control (empty or blank) refused from the flag, the environment
 * and the config file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { helpText, parseCli, UsageError } from '../../src/cli/options.js'
import { startCli } from '../cli-child.js'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function workdir(config?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'sendbox-sec-'))
  dirs.push(dir)
  if (config !== undefined) writeFileSync(join(dir, 'sendbox.config.json'), JSON.stringify(config))
  return dir
}

function usageError(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return (error as Error).message
  }
  throw new Error('expected a usage error')
}

describe('admin tokens that would open every control are refused', () => {
  it('from the flag, the environment (even empty) and the config file', () => {
    const empty = workdir()
    expect(usageError(() => parseCli(['--admin-token', ''], {}, empty))).toMatch(
      /^--admin-token: the admin token is empty/,
    )
    expect(usageError(() => parseCli(['--admin-token', '   '], {}, empty))).toMatch(
      /^--admin-token: the admin token is empty/,
    )
    expect(usageError(() => parseCli([], { SENDBOX_ADMIN_TOKEN: '' }, empty))).toMatch(
      /^SENDBOX_ADMIN_TOKEN: the admin token is empty/,
    )
    expect(usageError(() => parseCli([], { SENDBOX_ADMIN_TOKEN: ' \t' }, empty))).toMatch(/^SENDBOX_ADMIN_TOKEN/)
    expect(usageError(() => parseCli([], {}, workdir({ adminToken: '  ' })))).toMatch(
      /`adminToken` must be a non-blank token/,
    )
    expect(usageError(() => parseCli([], {}, workdir({ adminToken: '' })))).toMatch(
      /`adminToken` must be a non-blank token/,
    )
    expect(parseCli(['--admin-token', 'adm_ok'], {}, empty).adminToken).toBe('adm_ok')
    expect(parseCli([], {}, empty).adminToken).toBeUndefined()
  })
})

describe('--cors-origin, --allowed-host, --max-outbox-mb', () => {
  it('are listed in --help', () => {
    for (const flag of [
      '--cors-origin ORIGIN',
      '--allowed-host HOST',
      '--max-outbox-mb MB',
      'SENDBOX_CORS_ORIGINS',
      'SENDBOX_ALLOWED_HOSTS',
    ])
      expect(helpText()).toContain(flag)
  })

  it('parse from flags (repeatable), the environment (comma-separated) or the file, checked', () => {
    const empty = workdir()
    expect(
      parseCli(
        ['--cors-origin', 'http://app.test:3000/', '--cors-origin', '*', '--allowed-host', 'My-Box.lan'],
        {},
        empty,
      ),
    ).toMatchObject({
      corsOrigins: ['http://app.test:3000', '*'],
      allowedHosts: ['my-box.lan'],
      maxOutboxMb: 256,
    })
    expect(
      parseCli(
        [],
        { SENDBOX_CORS_ORIGINS: 'https://a.test, https://b.test', SENDBOX_ALLOWED_HOSTS: '.dev.test' },
        empty,
      ),
    ).toMatchObject({ corsOrigins: ['https://a.test', 'https://b.test'], allowedHosts: ['.dev.test'] })
    expect(
      parseCli([], {}, workdir({ corsOrigin: ['https://c.test'], allowedHost: 'box.lan', maxOutboxMb: 64 })),
    ).toMatchObject({ corsOrigins: ['https://c.test'], allowedHosts: ['box.lan'], maxOutboxMb: 64 })
    expect(parseCli([], {}, empty)).toMatchObject({ corsOrigins: [], allowedHosts: [] })
    expect(usageError(() => parseCli(['--cors-origin', 'app.test'], {}, empty))).toMatch(
      /--cors-origin must be an origin/,
    )
    expect(usageError(() => parseCli(['--allowed-host', 'http://box'], {}, empty))).toMatch(
      /--allowed-host must be a host name/,
    )
    expect(usageError(() => parseCli(['--max-outbox-mb', '0'], {}, empty))).toMatch(
      /--max-outbox-mb must be a whole number from 1/,
    )
  })

  it('the running CLI checks Host and Origin as told, and warns on --cors-origin *', async () => {
    const cli = await startCli(['--no-ui', '--port', '0', '--allowed-host', 'box.lan', '--cors-origin', '*'])
    try {
      const get = (host: string) =>
        new Promise<number>((resolve, reject) => {
          http
            .get({ host: '127.0.0.1', port: cli.port, path: '/__sandbox/health', headers: { host } }, (res) => {
              res.resume()
              resolve(res.statusCode!)
            })
            .on('error', reject)
        })
      expect(await get(`box.lan:${cli.port}`)).toBe(200)
      expect(await get('evil.test')).toBe(403)
      expect(cli.stderr()).toMatch(/warning: --cors-origin \* lets any web page/)
    } finally {
      cli.kill()
    }
  })
})

describe('the running CLI stays up', () => {
  it('when the reader of its log goes away (EPIPE on stdout)', async () => {
    const cli = await startCli(['--no-ui', '--port', '0'])
    try {
      cli.child.stdout!.destroy()
      for (let i = 0; i < 20; i++) {
        const answer = await fetch(`${cli.apiUrl}/subscribers?limit=1`, {
          headers: { authorization: 'Bearer test_pro' },
        })
        expect(answer.status).toBe(200)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(cli.child.exitCode).toBeNull()
      expect((await fetch(`${cli.origin}/__sandbox/health`)).status).toBe(200)
    } finally {
      cli.kill()
    }
  })
})

describe('--team-token', () => {
  it('comes from the flags, SENDBOX_TEAM_TOKENS (semicolon-separated) or the config file, and refuses what cannot be used', () => {
    const dir = workdir()
    expect(
      parseCli(
        ['--team-token', 'qa:tok_qa_12345678:acct_a,acct_b', '--team-token', 'ops:tok:with:colons:acct_c'],
        {},
        dir,
      ).teamTokens,
    ).toEqual([
      { name: 'qa', token: 'tok_qa_12345678', accounts: ['acct_a', 'acct_b'] },
      { name: 'ops', token: 'tok:with:colons', accounts: ['acct_c'] },
    ])
    expect(
      parseCli(
        [],
        { SENDBOX_TEAM_TOKENS: 'qa:tok_qa_12345678:acct_a; ops:tok_ops_12345678:acct_b,acct_c' },
        dir,
      ).teamTokens.map((t) => t.accounts),
    ).toEqual([['acct_a'], ['acct_b', 'acct_c']])
    const fromFile = parseCli(
      [],
      {},
      workdir({
        teamToken: ['qa:tok_qa_12345678:acct_a', { name: 'ops', token: 'tok_ops_12345678', accounts: ['acct_b'] }],
      }),
    ).teamTokens
    expect(fromFile.map((t) => t.name)).toEqual(['qa', 'ops'])
    expect(usageError(() => parseCli(['--team-token', 'qa:tok_qa_12345678'], {}, dir))).toMatch(
      /^--team-token: .*expected NAME:TOKEN:ACCOUNT/,
    )
    expect(usageError(() => parseCli(['--team-token', 'qa:short:acct'], {}, dir))).toMatch(/shorter than 8/)
    expect(usageError(() => parseCli(['--team-token', 'qa:tok_qa_12345678:'], {}, dir))).toMatch(/blank/)
    expect(usageError(() => parseCli(['--team-token', 'q a:tok_qa_12345678:acct'], {}, dir))).toMatch(/name/)
    expect(
      usageError(() =>
        parseCli(['--team-token', 'qa:tok_qa_12345678:a', '--team-token', 'qa:tok_qb_12345678:b'], {}, dir),
      ),
    ).toMatch(/"qa" is given twice/)
    expect(
      usageError(() =>
        parseCli(['--team-token', 'qa:tok_qa_12345678:a', '--team-token', 'ops:tok_qa_12345678:b'], {}, dir),
      ),
    ).toMatch(/another team's token/)
    expect(
      usageError(() => parseCli(['--admin-token', 'tok_qa_12345678', '--team-token', 'qa:tok_qa_12345678:a'], {}, dir)),
    ).toMatch(/also the admin token/)
    expect(usageError(() => parseCli([], { SENDBOX_TEAM_TOKENS: 'nonsense' }, dir))).toMatch(/^SENDBOX_TEAM_TOKENS: /)
    expect(usageError(() => parseCli([], {}, workdir({ teamToken: 'qa:tok_qa_12345678:a' })))).toMatch(/teamToken/)
    // The secret never appears in the message of a malformed spec.
    expect(usageError(() => parseCli(['--team-token', 'qa:supersecretvalue'], {}, dir))).not.toContain(
      'supersecretvalue',
    )
  })

  it('on a served sandbox (both thread models): an admin token is generated, a team token sees its account only', async () => {
    for (const threads of ['1', '2']) {
      const cli = await startCli(
        ['--port', '0', '--no-ui', '--threads', threads, '--api-key', 'ka:pro:acct_a', '--api-key', 'kb:pro:acct_b'],
        { env: { SENDBOX_TEAM_TOKENS: 'qa:tok_qa_12345678:acct_a' } },
      )
      try {
        await new Promise((r) => setTimeout(r, 50))
        const admin = /admin token (adm_\S+)/.exec(cli.stderr())?.[1]
        expect(cli.stderr()).toMatch(/team tokens qa \(acct_a\) open \/__sandbox for their accounts only/)
        expect(admin).toBeDefined()
        for (const [key, to] of [
          ['ka', 'a@a.test'],
          ['kb', 'b@b.test'],
        ]) {
          const sent = await fetch(`${cli.apiUrl}/email/send`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ to, subject: 's', html: '<p>x</p>' }),
          })
          expect(sent.status).toBe(200)
        }
        expect((await fetch(`${cli.origin}/__sandbox/messages`)).status).toBe(401)
        const team = await (
          await fetch(`${cli.origin}/__sandbox/messages`, { headers: { authorization: 'Bearer tok_qa_12345678' } })
        ).json()
        expect(team.data.map((m: { to: string }) => m.to)).toEqual(['a@a.test'])
        const all = await (
          await fetch(`${cli.origin}/__sandbox/messages`, { headers: { authorization: `Bearer ${admin}` } })
        ).json()
        expect(all.data).toHaveLength(2)
      } finally {
        cli.kill()
      }
    }
  })
})
