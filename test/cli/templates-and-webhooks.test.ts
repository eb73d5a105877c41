import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { startCli } from '../cli-child.js'

const BIN = new URL('../../dist/bin/sendbox.js', import.meta.url).pathname
const dir = mkdtempSync(join(tmpdir(), 'sendbox-templates-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function file(name: string, content: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

async function run(args: string[]) {
  const options = {
    cwd: dir,
    encoding: 'utf8' as const,
    timeout: 15_000,
    env: { ...process.env, SENDBOX_API_KEYS: '', SENDBOX_PORT: '', SENDBOX_CONFIG: '' },
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

describe('sendbox --templates', () => {
  const bad: Array<[string, unknown, RegExp]> = [
    [
      'duplicate.json',
      {
        templates: [
          { name: 'a', language: 'en', body: 'x' },
          { name: 'a', language: 'en', body: 'y' },
        ],
      },
      /duplicate\.json: template "a" \(en\): `language` repeats "en"/,
    ],
    [
      'syntax.json',
      { templates: [{ name: 'otp', language: 'en', body: 'Code {{ code-1 }}' }] },
      /syntax\.json: template "otp" \(en\): `body` has an unknown placeholder "\{\{ code-1 \}\}"/,
    ],
    [
      'body.json',
      { templates: [{ name: 'otp', language: 'en', body: 42 }] },
      /body\.json: template "otp" \(en\): `body` must be a non-empty string/,
    ],
  ]
  for (const [name, content, message] of bad) {
    it(`stops with one line naming the file, the template and the field (${name})`, async () => {
      const result = await run(['--port', '0', '--no-ui', '--templates', file(name, content)])
      expect(result.code).toBe(2)
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
      expect(result.stderr).toMatch(message)
    })
  }

  it('serves the templates, and prints the generated webhook secret', async () => {
    const templates = file('ok.json', {
      templates: [{ name: 'otp_login', language: 'en', body: 'Your code is {{1}}' }],
    })
    const cli = await startCli([
      '--port',
      '0',
      '--no-ui',
      '--templates',
      templates,
      '--webhook-url',
      'http://127.0.0.1:9/hooks',
    ])
    try {
      const listed = (await (await fetch(`${cli.origin}/__sandbox/templates`)).json()) as {
        data: Array<{ name: string }>
      }
      expect(listed.data.map((t) => t.name)).toEqual(['otp_login'])
      expect(cli.stderr()).toMatch(/signed with the generated secret whsec_[A-Za-z0-9+/=]{32}/)
    } finally {
      cli.kill()
    }
  })
})
