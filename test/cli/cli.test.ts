import { spawnSync } from 'node:child_process'
import { createServer } from 'node:net'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { startCli } from '../cli-child.js'

const BIN = new URL('../../dist/bin/sendbox.js', import.meta.url).pathname

function run(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    timeout: 15_000,
    env: { ...process.env, ...env },
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('sendbox CLI', () => {
  it('prints help generated from the flag table', () => {
    const { code, stdout } = run(['--help'])
    expect(code).toBe(0)
    for (const flag of [
      '--port',
      '--host',
      '--api-key',
      '--limit',
      '--no-ui',
      '--seed',
      '--subscribers',
      '--delivery-ms',
      'SENDBOX_PORT',
      'SENDBOX_API_KEYS',
    ]) {
      expect(stdout).toContain(flag)
    }
  })

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--port', 'abc'], /--port must be a whole number/],
    [['--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['--api-key', 'k:gold'], /unknown plan "gold"/],
    [['--api-key', 'justakey'], /expected KEY:PLAN/],
    [['--limit', 'pro=fast'], /bad --limit/],
    [['frobnicate'], /unknown command/],
  ])('rejects %j with one clear line and a non-zero exit', (args, message) => {
    const { code, stderr } = run(args)
    expect(code).not.toBe(0)
    expect(stderr).toMatch(message)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).not.toMatch(/\n\s+at /)
  })

  it('fails cleanly when the port is in use', async () => {
    const blocker = createServer().listen(0, '127.0.0.1')
    await once(blocker, 'listening')
    const port = (blocker.address() as { port: number }).port
    try {
      const { code, stderr } = run(['--no-ui', '--port', String(port)])
      expect(code).toBe(1)
      expect(stderr).toMatch(new RegExp(`port ${port} on 127.0.0.1 is already in use`))
      expect(stderr.trim().split('\n')).toHaveLength(1)
    } finally {
      blocker.close()
    }
  })

  it('prints the keys in force, from flags or the environment', () => {
    expect(run(['keys']).stdout).toMatch(/test_starter\s+Starter\s+100\/min/)
    const fromEnv = run(['keys'], { SENDBOX_API_KEYS: 'alpha:pro,beta:enterprise:shared' })
    expect(fromEnv.stdout).toMatch(/alpha\s+Pro\s+1,000\/min\s+acct_[0-9a-f]{12}/)
    expect(fromEnv.stdout).toMatch(/beta\s+Enterprise\s+10,000\/min\s+shared/)
    expect(fromEnv.stdout).not.toContain('test_pro')
    expect(run(['keys', '--api-key', 'k:starter', '--limit', 'starter=5']).stdout).toMatch(/k\s+Starter\s+5\/min/)
  })

  it('serves headless with one log line per request and exits cleanly on SIGTERM', async () => {
    const cli = await startCli(['--no-ui', '--port', '0', '--api-key', 'cli_key:pro'])
    const { child, apiUrl: base, stdout: output } = cli
    try {
      const res = await fetch(`${base}/subscribers?limit=2`, { headers: { authorization: 'Bearer cli_key' } })
      expect(res.status).toBe(200)
      expect((await res.json()).pagination.total).toBe(10) // 10 seeded subscribers by default
      await fetch(`${base}/nope`, { headers: { authorization: 'Bearer cli_key' } })
      // The log line is written after the answer: wait for it to come through the pipe.
      await expect.poll(output).toMatch(/GET \/v1\/nope 404 \d+\.\dms/)
      expect(output()).toMatch(/GET \/v1\/subscribers\?limit=2 200 \d+\.\dms/)
    } finally {
      child.kill('SIGTERM')
    }
    expect((await cli.exited).code).toBe(0)
  })

  it('--threads 2 serves through the worker-thread transport (same answers, same state) and exits cleanly on SIGTERM', async () => {
    const cli = await startCli(['--no-ui', '--port', '0', '--threads', '2', '--delivery-ms', '0'])
    const { child, apiUrl: base } = cli
    try {
      const sent = await fetch(`${base}/sms/send`, {
        method: 'POST',
        headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
        body: JSON.stringify({ to: '+14155550123', message: 'Your code is 482913' }),
      })
      expect(sent.status).toBe(200)
      expect(sent.headers.get('x-ratelimit-limit')).toBe('1000')
      const origin = new URL(base).origin
      const wait = await fetch(`${origin}/__sandbox/messages/wait?channel=sms&timeout=2000`)
      expect(await wait.json()).toMatchObject({ to: '+14155550123', codes: ['482913'] })
      expect((await fetch(`${base}/SMS/send`, { headers: { authorization: 'Bearer test_pro' } })).status).toBe(404)
    } finally {
      child.kill('SIGTERM')
    }
    expect((await cli.exited).code).toBe(0)
  })

  it('refuses --threads outside 1..2 with one clear line', async () => {
    const cli = await startCli(['--no-ui', '--port', '0', '--threads', '3']).catch((error: Error) => error)
    expect(String(cli)).toMatch(/--threads must be a whole number from 1 to 2/)
  })
})
