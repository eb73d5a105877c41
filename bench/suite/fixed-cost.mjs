#!/usr/bin/env node
/**
 * What a test file pays once, outside vitest: fresh processes in the suite's consumer projects
 * (bench/suite/consumer.mjs), interleaved, medians.
 *
 * - `import`: `await import('msw'); await import('msw/node')` (what a hand-written file loads)
 *   against `await import('sendbox'); await import('msw/node')`.
 * - `createSandbox`: `createSandbox(...)` + `await sandbox.ready`, the suite's options.
 * - the first email, SMS and WhatsApp send through `fetch` + `outbox.waitFor`, then `reset()`;
 * - the first subscriber write: `fetch` POST /subscribers (and, in another process, the store's
 *   own `subscribers.create`).
 *
 *   node bench/suite/fixed-cost.mjs [--configs node24-msw3,node20-msw2] [--samples 9] [--build HEAD=.] [--json]
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { CONFIGS, consumer } from './consumer.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const { values: flags } = parseArgs({
  options: {
    configs: { type: 'string', default: 'node24-msw3,node20-msw2' },
    samples: { type: 'string', default: '9' },
    build: { type: 'string', multiple: true, default: [`HEAD=${root}`] },
    json: { type: 'boolean', default: false },
  },
})
const samples = Math.max(1, Number(flags.samples) || 9)
const builds = flags.build.map((spec) => {
  const [id, dir] = spec.split('=')
  return { id, dir: resolve(root, dir) }
})

const mswChild = `
const t0 = performance.now()
await import('msw')
await import('msw/node')
console.log(JSON.stringify({ import: performance.now() - t0 }))
`
const OPTIONS = `{ baseUrl: 'https://api.messaging.example/v1', apiKeys: { key_suite: 'enterprise' }, limits: { enterprise: 1_000_000 } }`
const sendboxChild = `
const out = {}
let t = performance.now()
const lap = (name) => { const now = performance.now(); out[name] = now - t; t = now }
const { createSandbox } = await import('sendbox')
const { setupServer } = await import('msw/node')
lap('import')
const sandbox = createSandbox(${OPTIONS})
await sandbox.ready
lap('createSandbox')
const server = setupServer(...sandbox.handlers)
server.listen({ onUnhandledRequest: 'error' })
lap('listen')
const headers = { authorization: 'Bearer key_suite', 'content-type': 'application/json' }
const post = async (path, body) => {
  const response = await fetch('https://api.messaging.example/v1' + path, { method: 'POST', headers, body: JSON.stringify(body) })
  if (response.status !== 200) throw new Error(path + ' answered ' + response.status + ' ' + await response.text())
  return response.json()
}
await post('/email/send', { to: 'ana@example.com', subject: 'Confirm', html: '<p><a href="https://app.acme.example/verify?token=t1">Confirm</a></p>' })
if ((await sandbox.outbox.waitFor({ channel: 'email', to: 'ana@example.com' })).links[0] !== 'https://app.acme.example/verify?token=t1') throw new Error('link')
lap('firstEmail')
await post('/sms/send', { to: '+14155550100', message: 'Your code is 123456' })
if ((await sandbox.outbox.waitFor({ channel: 'sms', to: '+14155550100' })).codes[0] !== '123456') throw new Error('code')
lap('firstSms')
await post('/whatsapp/send', { to: '+14155550101', template: 'otp_login', language: 'en', parameters: { 1: '654321' } })
if ((await sandbox.outbox.waitFor({ channel: 'whatsapp', to: '+14155550101' })).codes[0] !== '654321') throw new Error('code')
lap('firstWhatsapp')
await sandbox.reset()
lap('reset')
await post('/subscribers', { email: 'bo@example.com', tags: ['beta'] })
lap('firstSubscriberHttp')
await post('/email/send', { to: 'cy@example.com', subject: 'Confirm', html: '<p><a href="https://app.acme.example/verify?token=t2">Confirm</a></p>' })
await sandbox.outbox.waitFor({ channel: 'email', to: 'cy@example.com' })
await sandbox.reset()
lap('secondEmailAndReset')
server.close()
sandbox.dispose()
console.log(JSON.stringify(out))
`
// The store's own first write, alone in a process (nothing loaded before it but the sandbox).
const storeChild = `
const { createSandbox } = await import('sendbox')
const sandbox = createSandbox(${OPTIONS})
await sandbox.ready
const t0 = performance.now()
await sandbox.subscribers.create(sandbox.accountOf('key_suite'), { email: 'ana@example.com' })
const firstSubscriberStore = performance.now() - t0
sandbox.dispose()
console.log(JSON.stringify({ firstSubscriberStore }))
`

function once(node, cwd, source) {
  const r = spawnSync(node, ['--input-type=module', '-e', source], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  })
  if (r.status !== 0) throw new Error(`child failed in ${cwd}: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').pop())
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

const results = []
for (const configId of flags.configs.split(',')) {
  const config = CONFIGS[configId]()
  if (config.skip) continue
  const version = execFileSync(config.node, ['--version'], { encoding: 'utf8' }).trim()
  const dirs = builds.map((build) => ({ build, dir: consumer(configId, build, config.msw) }))
  const msw = []
  const runs = Object.fromEntries(builds.map((b) => [b.id, []]))
  once(config.node, dirs[0].dir, mswChild) // file system cache
  for (const { dir } of dirs) once(config.node, dir, sendboxChild)
  for (let i = 0; i < samples; i++) {
    msw.push(once(config.node, dirs[0].dir, mswChild))
    for (const { build, dir } of dirs)
      runs[build.id].push({ ...once(config.node, dir, sendboxChild), ...once(config.node, dir, storeChild) })
  }
  const mswImport = median(msw.map((r) => r.import))
  for (const { build } of dirs) {
    const fields = Object.keys(runs[build.id][0])
    const row = { config: configId, node: version, build: build.id, mswImport }
    for (const field of fields) row[field] = median(runs[build.id].map((r) => r[field]))
    row.importRatio = row.import / mswImport
    results.push(row)
  }
}

if (flags.json) process.stdout.write(`${JSON.stringify(results)}\n`)
else {
  const f = (n) => (n >= 10 ? n.toFixed(0) : n.toFixed(1))
  const fields = [
    'import',
    'createSandbox',
    'listen',
    'firstEmail',
    'firstSms',
    'firstWhatsapp',
    'reset',
    'firstSubscriberHttp',
    'firstSubscriberStore',
    'secondEmailAndReset',
  ]
  const lines = [
    `# What a test file pays once (ms, medians of ${samples} fresh processes, interleaved)`,
    '',
    `| configuration | build | msw + msw/node | ${fields.join(' | ')} | import ÷ msw |`,
    `|---|---|${'---:|'.repeat(fields.length + 2)}`,
    ...results.map(
      (r) =>
        `| ${r.config} (${r.node}) | ${r.build} | ${f(r.mswImport)} | ${fields.map((k) => f(r[k])).join(' | ')} | ${r.importRatio.toFixed(2)}× |`,
    ),
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}
