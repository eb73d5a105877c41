import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { parseCli, UsageError } from '../../src/cli/options.js'
import { startCli } from '../cli-child.js'

const BIN = new URL('../../dist/bin/sendbox.js', import.meta.url).pathname
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A fresh working directory, with `sendbox.config.json` holding `config` when given. */
function workdir(config?: unknown, name = 'sendbox.config.json'): string {
  const dir = mkdtempSync(join(tmpdir(), 'sendbox-config-'))
  dirs.push(dir)
  if (config !== undefined) writeFileSync(join(dir, name), typeof config === 'string' ? config : JSON.stringify(config))
  return dir
}

/** Runs the built CLI in `cwd`; resolves with its exit code and output (never rejects). */
async function run(args: string[], cwd: string, env: Record<string, string> = {}) {
  const options = {
    cwd,
    encoding: 'utf8' as const,
    timeout: 15_000,
    env: { ...process.env, SENDBOX_API_KEYS: '', SENDBOX_PORT: '', SENDBOX_CONFIG: '', ...env },
  }
  return promisify(execFile)(process.execPath, [BIN, ...args], options).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  )
}

describe('sendbox.config.json', () => {
  it('is read from the working directory; flags beat the environment, which beats the file, which beats defaults', () => {
    const cwd = workdir({ port: 4100, host: '127.0.0.2', seed: 7, deliveryMs: 0 })
    expect(parseCli([], {}, workdir())).toMatchObject({
      port: 4010,
      host: '127.0.0.1',
      seed: 1,
      deliveryMs: 1000,
      configFile: undefined,
    })
    expect(parseCli([], {}, cwd)).toMatchObject({
      port: 4100,
      host: '127.0.0.2',
      seed: 7,
      deliveryMs: 0,
      configFile: join(cwd, 'sendbox.config.json'),
    })
    expect(parseCli([], { SENDBOX_PORT: '4200' }, cwd)).toMatchObject({ port: 4200, seed: 7 })
    expect(parseCli(['--port', '4300'], { SENDBOX_PORT: '4200' }, cwd)).toMatchObject({ port: 4300, seed: 7 })
    expect(parseCli(['--seed', '9'], {}, cwd)).toMatchObject({ port: 4100, seed: 9 })
  })

  it('can be named with --config, -c or SENDBOX_CONFIG instead', () => {
    const cwd = workdir({ port: 4100 })
    const other = workdir({ port: 4500 }, 'ci.json')
    expect(parseCli(['--config', join(other, 'ci.json')], {}, cwd).port).toBe(4500)
    expect(parseCli(['-c', join(other, 'ci.json')], {}, cwd).port).toBe(4500)
    expect(parseCli([], { SENDBOX_CONFIG: join(other, 'ci.json') }, cwd).port).toBe(4500)
    expect(() => parseCli(['--config', 'missing.json'], {}, cwd)).toThrow(
      /config file .*missing\.json not found; check the --config path/,
    )
  })

  it('takes keys as a list or an object; --api-key or SENDBOX_API_KEYS replace them; limits merge per plan', () => {
    const cwd = workdir({ apiKeys: ['k_one:pro', 'k_two:enterprise:shared'], limits: { pro: 50, enterprise: 20_000 } })
    const settings = parseCli([], {}, cwd)
    expect(settings.apiKeys).toEqual([
      { key: 'k_one', plan: 'pro', account: expect.any(String) },
      { key: 'k_two', plan: 'enterprise', account: 'shared' },
    ])
    expect(settings.limits).toEqual({ pro: 50, enterprise: 20_000 })
    expect(parseCli(['--limit', 'pro=5'], {}, cwd).limits).toEqual({ pro: 5, enterprise: 20_000 })
    expect(parseCli([], { SENDBOX_API_KEYS: 'env_key:starter' }, cwd).apiKeys).toEqual([
      { key: 'env_key', plan: 'starter', account: expect.any(String) },
    ])
    expect(
      parseCli(['--api-key', 'flag_key:pro'], { SENDBOX_API_KEYS: 'env_key:starter' }, cwd).apiKeys?.map((k) => k.key),
    ).toEqual(['flag_key'])
    expect(parseCli([], {}, workdir({ apiKeys: { obj_key: 'pro:team' } })).apiKeys).toEqual([
      { key: 'obj_key', plan: 'pro', account: 'team' },
    ])
  })

  it("resolves fixtures against the file's own directory, and `ui: false` means headless", () => {
    const cwd = workdir({ fixtures: 'data/subscribers.json', ui: false })
    expect(parseCli([], {}, join(cwd))).toMatchObject({ fixtures: join(cwd, 'data/subscribers.json'), ui: false })
    mkdirSync(join(cwd, 'sub'))
    expect(parseCli(['--config', '../sendbox.config.json'], {}, join(cwd, 'sub')).fixtures).toBe(
      join(cwd, 'data/subscribers.json'),
    )
  })

  it.each([
    [{ prot: 4011 }, /unknown field `prot` in the top level; known fields: port, host, apiKeys/],
    [{ port: 70000 }, /`port` must be a whole number from 0 to 65535 \(got 70000\)/],
    [{ port: '4011' }, /`port` must be a whole number from 0 to 65535 \(got "4011"\)/],
    [{ limits: { gold: 5 } }, /unknown field `gold` in `limits`; known fields: starter, pro, enterprise/],
    [{ limits: { pro: 0 } }, /`limits\.pro` must be a whole number from 1 to 1000000/],
    [{ apiKeys: { k: 'gold' } }, /`apiKeys\.k` must be a plan \(starter, pro, enterprise\)/],
    [{ apiKeys: ['k:pro', 7] }, /`apiKeys\[1\]` must be a string \(got 7\)/],
    [{ apiKeys: ['justakey'] }, /`apiKeys`: bad API key spec "justakey": expected KEY:PLAN/],
    [{ apiKeys: ['k:pro', 'k:starter'] }, /API key "k" is given twice in .*sendbox\.config\.json/],
    [{ webhookUrl: 'ftp://x' }, /`webhookUrl` must be an http\(s\) URL/],
    [{ ui: 'no' }, /`ui` must be true or false/],
    ['{"port": 4011,}', /is not valid JSON .*trailing commas/],
    ['[]', /must hold a JSON object/],
  ])('refuses %j with an error naming the file and the field', (config, message) => {
    const cwd = workdir(config)
    let error: unknown
    try {
      parseCli([], {}, cwd)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(UsageError)
    expect((error as Error).message).toMatch(message)
    expect((error as Error).message).toContain('sendbox.config.json')
  })
})

// Each of these starts the built CLI (a second or so under load): they run side by side.
describe.concurrent('the CLI with a config file', () => {
  it('`sendbox keys` prints the keys, plans and limits in force, and where they came from', async () => {
    const cwd = workdir({ apiKeys: { acme_live: 'pro', acme_bulk: 'enterprise:acme' }, limits: { pro: 50 } })
    const { code, stdout } = await run(['keys'], cwd)
    expect(code).toBe(0)
    expect(stdout).toMatch(/acme_live\s+Pro\s+50\/min/)
    expect(stdout).toMatch(/acme_bulk\s+Enterprise\s+10,000\/min\s+acme/)
    expect(stdout).not.toContain('test_pro')
    expect(stdout).toContain(`(settings from ${join(cwd, 'sendbox.config.json')})`)
  })

  it('fails with one line for a bad file, but --help still works', async () => {
    const cwd = workdir({ port: 'high' })
    const bad = await run(['keys'], cwd)
    expect(bad.code).toBe(2)
    expect(bad.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^sendbox: .*sendbox\.config\.json: `port` must be a whole number/),
    ])
    expect(parseCli(['--help'], {}, cwd).command).toBe('help')
    expect(parseCli(['--version'], {}, cwd).command).toBe('version')
  })

  it('`sendbox openapi` describes the server the config file sets up', async () => {
    const { code, stdout } = await run(['openapi'], workdir({ port: 4321 }))
    expect(code).toBe(0)
    const doc = JSON.parse(stdout) as { openapi: string; servers: Array<{ url: string }> }
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.servers[0].url).toBe('http://127.0.0.1:4321/v1')
  })

  it("serves with the file's keys and settings", async () => {
    const cwd = workdir({ port: 0, apiKeys: ['file_key:starter'], limits: { starter: 2 }, subscribers: 3, ui: true })
    const cli = await startCli([], { cwd })
    const base = cli.apiUrl
    try {
      const headers = { authorization: 'Bearer file_key' }
      const first = await fetch(`${base}/subscribers`, { headers })
      expect(first.status).toBe(200)
      expect(first.headers.get('x-ratelimit-limit')).toBe('2')
      expect(((await first.json()) as { pagination: { total: number } }).pagination.total).toBe(3)
      expect((await fetch(`${base}/subscribers`, { headers: { authorization: 'Bearer test_pro' } })).status).toBe(401)
    } finally {
      cli.child.kill('SIGTERM')
    }
    await cli.exited
  })
})
