import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The package as a user gets it: `npm pack`, then an install of the tarball into an empty folder
 * (`--prefer-offline`: from the npm cache that `npm ci` filled, the registry only for what it
 * lacks), then the bin, an ESM consumer and a CommonJS consumer (`module: nodenext`) that type-check
 * `setupServer(...sandbox.handlers)` and run. One install serves both consumers: the CommonJS one is
 * a project of its own in a folder inside the ESM one (its package.json has no "type", so Node and
 * TypeScript take its files as CommonJS; `require` finds the packages one folder up, as Node's
 * resolution does). Slow-ish (an install): 10–30 s.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc')
const run = promisify(execFile)
const env = {
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  SENDBOX_API_KEYS: '',
  SENDBOX_PORT: '',
  SENDBOX_CONFIG: '',
}

const work = mkdtempSync(join(tmpdir(), 'sendbox-pack-'))
const app = join(work, 'app')
const cjs = join(app, 'cjs') // a CommonJS project using the install of the ESM one's folder
let tarball = ''
let files: string[] = []
let installError: string | undefined
/**
 * The listen option that makes an unhandled request fail, for the msw that npm picked for the peer
 * dependency (`^2.15 || ^3`): Node 20 gets msw 2 (`onUnhandledRequest`), Node 22+ msw 3, which
 * renamed it `onUnhandledFrame`.
 */
let strictListen = "{ onUnhandledRequest: 'error' }"

function installedMswMajor(dir: string): number {
  return Number(
    (JSON.parse(readFileSync(join(dir, 'node_modules/msw/package.json'), 'utf8')) as { version: string }).version.split(
      '.',
    )[0],
  )
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/bin/sendbox.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does) before this suite')
  // --ignore-scripts: `npm test` has just built dist/; the pack must not rebuild it under other suites.
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: ROOT,
    env,
  })
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>
  tarball = join(work, packed.filename)
  files = packed.files.map((f) => f.path)
  writeFileSync(join(work, 'package.json'), '{}') // keeps npm from walking up to the repository
  await run('mkdir', ['-p', app, cjs])
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  // No "type": a CommonJS project, the default of `npm init`.
  writeFileSync(join(cjs, 'package.json'), JSON.stringify({ name: 'consumer-cjs', private: true }))
  try {
    // msw is a peer dependency: npm installs it beside sendbox, one copy for both.
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
      cwd: app,
      env,
      timeout: 120_000,
    })
    if (installedMswMajor(app) >= 3) strictListen = "{ onUnhandledFrame: 'error' }"
  } catch (error) {
    installError =
      (error as { stderr?: string }).stderr?.split('\n').find((line) => /ENOTCACHED|ERR/.test(line)) ?? String(error)
    console.warn(
      `[sendbox] skipping the install checks: the install of the tarball failed (${installError}). Run \`npm ci\` once with network so the npm cache holds every dependency.`,
    )
  }
}, 240_000)

afterAll(() => rmSync(work, { recursive: true, force: true }), 60_000)

describe('npm pack', () => {
  it('ships the build, types, bin, fixtures and docs, and no sources or tests', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/bin/sendbox.js',
        'dist/THIRD-PARTY-NOTICES.txt',
        'dist/src/index.js',
        'dist/src/index.d.ts',
        'dist/src/transports/http-server.d.ts',
        'fixtures/sample.json',
      ]),
    )
    expect(
      files.filter(
        (f) => /\.test\.|^test\/|^examples\/|^scratch\/|^src\/|^handlers\/|\.ts$/.test(f) && !f.endsWith('.d.ts'),
      ),
    ).toEqual([])
  })

  it('has the metadata a registry and a resolver need', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, any>
    expect(manifest.engines.node).toBe('>=20.19')
    expect(manifest.license).toBe('MIT')
    expect(manifest.keywords.length).toBeGreaterThan(3)
    expect(manifest.bin.sendbox).toBe('dist/bin/sendbox.js')
    expect(readFileSync(join(ROOT, manifest.bin.sendbox), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/)
    expect(manifest.peerDependencies.msw).toBe('^2.15.0 || ^3.0.0')
    // `module: commonjs` (node10 resolution) ignores "exports": every subpath's types are named
    // again in "typesVersions", pointing at the same declarations as its `require` (or only) types.
    for (const [entry, target] of Object.entries(manifest.exports as Record<string, string | Record<string, any>>)) {
      if (entry === '.' || typeof target === 'string') continue
      const types = (target.require ?? target).types as string
      expect(manifest.typesVersions['*'][entry.slice(2)], `typesVersions for ${entry}`).toEqual([
        types.replace(/^\.\//, ''),
      ])
    }
    expect(manifest.dependencies.msw).toBeUndefined()
    for (const [entry, target] of Object.entries(
      manifest.exports as Record<string, string | Record<string, unknown>>,
    )) {
      if (typeof target === 'string') continue
      // Entry points whose types name msw's have a CommonJS twin (`require`), so a CommonJS project
      // sees msw's CommonJS declarations on both sides; others are one ESM declaration.
      const conditions = ['.', './server'].includes(entry) ? ['import', 'require'] : undefined
      if (conditions)
        expect(Object.keys(target), `exports["${entry}"]: import and require conditions`).toEqual(conditions)
      const variants = (conditions ? conditions.map((c) => [c, target[c]]) : [['default', target]]) as Array<
        [string, { types: string; default: string }]
      >
      for (const [condition, files_] of variants) {
        expect(Object.keys(files_)[0], `exports["${entry}"] (${condition}): "types" must come first`).toBe('types')
        expect(files, `exports["${entry}"] (${condition})`).toEqual(
          expect.arrayContaining([files_.types.replace(/^\.\//, ''), files_.default.replace(/^\.\//, '')]),
        )
      }
    }
  })
})

// Independent of one another once installed: side by side, to keep the suite short.
describe.concurrent('installed from the tarball into an empty folder', () => {
  it('runs `npx sendbox --help`', async (context) => {
    if (installError) context.skip()
    const { stdout } = await run('npx', ['--offline', 'sendbox', '--help'], { cwd: app, env })
    expect(stdout).toMatch(/^sendbox — /)
    expect(stdout).toContain('sendbox openapi')
  }, 60_000) // beside the two type-checks below: npm's start-up alone takes seconds on a busy machine

  it('serves with `npx sendbox --no-ui --port 0`', async (context) => {
    if (installError) context.skip()
    // Its own process group, so that npx and the node it starts stop together.
    const child = spawn('npx', ['--offline', 'sendbox', '--no-ui', '--port', '0'], {
      cwd: app,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      const firstLine = await new Promise<string>((resolve, reject) => {
        let out = ''
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk
          if (out.includes('\n')) resolve(out.split('\n')[0])
        })
        child.once('exit', (code) => reject(new Error(`sendbox exited with ${code} before listening`)))
      })
      const base = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(firstLine)?.[1]
      expect(base, firstLine).toBeDefined()
      const sent = await fetch(`${base}/email/send`, {
        method: 'POST',
        headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
        body: JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html: '<p>Hi</p>' }),
      })
      expect(sent.status).toBe(200)
      const doc = (await (await fetch(`${new URL(base!).origin}/__sandbox/openapi.json`)).json()) as { openapi: string }
      expect(doc.openapi).toBe('3.1.0')
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
    }
  }, 60_000)

  it('imports in-process (`import { createSandbox } from "sendbox"`) with setupServer and fetch, types included', async (context) => {
    if (installError) context.skip()
    const consumer = `
import { setupServer } from 'msw/node'
import { createSandbox, type CapturedMessage } from 'sendbox'
import { startServer } from 'sendbox/server'

const sandbox = createSandbox({ baseUrl: 'https://api.example.com/v1', apiKeys: { my_key: 'pro' } })
const server = setupServer(...sandbox.handlers)
server.listen(${strictListen})
const response = await fetch('https://api.example.com/v1/sms/send', {
  method: 'POST',
  headers: { authorization: 'Bearer my_key', 'content-type': 'application/json' },
  body: JSON.stringify({ to: '+14155550123', message: 'hello' }),
})
const captured: CapturedMessage[] = sandbox.outbox.list({ channel: 'sms' })
// @ts-expect-error the types are real (not any): baseUrl is a string
if (captured.length < 0) createSandbox({ baseUrl: 42 })
console.log(JSON.stringify({ status: response.status, captured: captured.length, startServer: typeof startServer }))
server.close()
sandbox.dispose()
`
    writeFileSync(join(app, 'consumer.ts'), consumer)
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          noEmit: true,
          strict: true,
          skipLibCheck: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2022', 'dom'],
          types: [],
        },
        files: ['consumer.ts'],
      }),
    )
    // The types resolve through the package's "exports" the way a NodeNext project resolves them.
    await run(process.execPath, [TSC, '-p', '.'], { cwd: app, env }).catch((error: { stdout?: string }) => {
      throw new Error(`the consumer does not type-check against the installed package:\n${error.stdout}`)
    })
    writeFileSync(
      join(app, 'consumer.mjs'),
      consumer
        .replace(', type CapturedMessage', '')
        .replace(': CapturedMessage[]', '')
        .replace(/^\/\/ @ts-expect-error.*\n.*\n/m, ''),
    )
    const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: app, env })
    expect(JSON.parse(stdout)).toEqual({ status: 200, captured: 1, startServer: 'function' })
  }, 120_000) // a tsc run beside three other processes: 60 s was not enough on a busy machine

  it('type-checks and runs in a CommonJS project (module nodenext): setupServer(...sandbox.handlers), startServer', async (context) => {
    if (installError) context.skip()
    // Before: TS2345 — msw's CommonJS HttpHandler (the consumer's) against its ESM one (ours).
    writeFileSync(
      join(cjs, 'consumer.ts'),
      `
import { setupServer } from 'msw/node'
import { createSandbox, type CapturedMessage } from 'sendbox'
import { startServer } from 'sendbox/server'

async function main(): Promise<void> {
  const sandbox = createSandbox({ baseUrl: 'https://api.example.com/v1' })
  const server = setupServer(...sandbox.handlers)
  server.listen(${strictListen})
  const response = await fetch('https://api.example.com/v1/sms/send', {
    method: 'POST',
    headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
    body: JSON.stringify({ to: '+14155550123', message: 'hello' }),
  })
  const captured: CapturedMessage[] = sandbox.outbox.list({ channel: 'sms' })
  server.close()
  const running = await startServer(sandbox, { port: 0 })
  const health = await fetch(running.url + '/__sandbox/health')
  await running.close()
  sandbox.dispose()
  console.log(JSON.stringify({ status: response.status, captured: captured.length, health: health.status }))
}
void main()
`,
    )
    writeFileSync(
      join(cjs, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          skipLibCheck: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2022', 'dom'],
          types: [],
          outDir: 'out',
        },
        files: ['consumer.ts'],
      }),
    )
    await run(process.execPath, [TSC, '-p', '.'], { cwd: cjs, env }).catch((error: { stdout?: string }) => {
      throw new Error(`the CommonJS consumer does not type-check against the installed package:\n${error.stdout}`)
    })
    expect(readFileSync(join(cjs, 'out/consumer.js'), 'utf8')).toMatch(/require\("sendbox"\)/)
    // Node ≥ 20.19 require()s the ES module.
    const { stdout } = await run(process.execPath, ['out/consumer.js'], { cwd: cjs, env })
    expect(JSON.parse(stdout)).toEqual({ status: 200, captured: 1, health: 200 })
  }, 120_000)
})
