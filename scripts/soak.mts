/**
 * `npm run soak`: 1,000,000 mixed requests (sends, creates, reads, updates, lists, errors,
 * sandbox controls) against the built CLI as a child process, with keep-alive connections at a
 * fixed concurrency. Every answer is checked against the status (and error code) it must have;
 * the server's RSS (VmRSS from /proc) is sampled throughout. Prints the figures recorded in
 * docs/reliability.md; exits 1 on any unexpected answer or if the server dies.
 *
 * Before the mix, hostile shapes (issue 11): bodies of 1 MiB built to be slow to validate, each
 * sent 10 times while a probe keeps asking for /__sandbox/health; prints each shape's latency
 * and the probe's worst latency meanwhile (`--abuse-only` stops after that phase).
 *
 *   npm run soak -- --requests 200000 --concurrency 64
 *   npm run soak -- --abuse-only
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '1000000' },
    concurrency: { type: 'string', default: '32' },
    'sample-ms': { type: 'string', default: '2000' },
    'abuse-only': { type: 'boolean', default: false },
    /** 900 KB emails sent against the outbox byte budget in the hostile phase. */
    flood: { type: 'string', default: '1500' },
    /** Run bin/sendbox.ts through tsx instead of the built bundle (to measure a tree whose bundle is broken). */
    'from-source': { type: 'boolean', default: false },
  },
})
const TOTAL = Number(values.requests)
const CONCURRENCY = Number(values.concurrency)
const SAMPLE_MS = Number(values['sample-ms'])
const FLOOD = Number(values.flood)
/** Distinct emails the creates cycle through: the first pass creates them, later passes are duplicate_email. */
const EMAIL_POOL = 5_000

const cli = resolve(import.meta.dirname, '../dist/bin/sendbox.js')
const entry = values['from-source'] ? ['--import', 'tsx', resolve(import.meta.dirname, '../bin/sendbox.ts')] : [cli]
const child = spawn(
  process.execPath,
  [...entry, '--no-ui', '--port', '0', '--api-key', 'soak:enterprise', '--limit', 'enterprise=1000000'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
)
let banner = ''
const port = await new Promise<number>((done, fail) => {
  const onData = (chunk: Buffer) => {
    banner += chunk.toString()
    const match = /listening on http:\/\/[^:]+:(\d+)\/v1/.exec(banner)
    if (match) {
      child.stdout!.off('data', onData)
      child.stdout!.resume() // one log line per request: read and drop them
      done(Number(match[1]))
    }
  }
  child.stdout!.on('data', onData)
  child.once('exit', (code) => fail(new Error(`sendbox exited with ${code} before listening`)))
})
let serverDied = false
let shuttingDown = false
child.once('exit', (code, signal) => {
  if (!shuttingDown) {
    serverDied = true
    console.error(`sendbox died during the soak (code ${code}, signal ${signal})`)
  }
})

function rssMb(): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024)
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
const AUTH = { authorization: 'Bearer soak', 'content-type': 'application/json' }

interface Planned {
  kind: string
  method: string
  path: string
  headers: Record<string, string>
  body?: string
  status: number
  code?: string
}

const knownIds: string[] = []
let creates = 0

/** The i-th request of the mix, and the answer it must get. */
function plan(i: number): Planned {
  const slot = i % 100
  if (slot < 25)
    return {
      kind: 'email',
      method: 'POST',
      path: '/v1/email/send',
      headers: AUTH,
      body: JSON.stringify({
        to: `user${i % 997}@example.com`,
        subject: `Soak ${i}`,
        html: `<p>Message ${i}</p>`,
        from: { email: 'shop@example.com', name: 'Shop' },
      }),
      status: 200,
    }
  if (slot < 40)
    return {
      kind: 'sms',
      method: 'POST',
      path: '/v1/sms/send',
      headers: AUTH,
      body: JSON.stringify({
        to: i % 10 === 0 ? '+15005550001' : '+14155550123',
        message: `Your code is ${i % 10_000} ✓`,
        from: 'Shop',
      }),
      status: 200,
    }
  if (slot < 50)
    return {
      kind: 'whatsapp',
      method: 'POST',
      path: '/v1/whatsapp/send',
      headers: AUTH,
      body: JSON.stringify({
        to: '+14155550124',
        template: 'order_update',
        language: 'en_US',
        parameters: { order: String(i), name: 'Ana' },
      }),
      status: 200,
    }
  if (slot < 55) {
    const n = creates++
    const first = n < EMAIL_POOL
    return {
      kind: 'create',
      method: 'POST',
      path: '/v1/subscribers',
      headers: AUTH,
      body: JSON.stringify({
        email: `soak${n % EMAIL_POOL}@example.com`,
        first_name: 'Soak',
        tags: ['soak', `t${n % 7}`],
      }),
      status: first ? 200 : 400,
      code: first ? undefined : 'duplicate_email',
    }
  }
  if (slot < 65 && knownIds.length > 0)
    return {
      kind: 'get',
      method: 'GET',
      path: `/v1/subscribers/${knownIds[i % knownIds.length]}`,
      headers: AUTH,
      status: 200,
    }
  if (slot < 70 && knownIds.length > 0)
    return {
      kind: 'update',
      method: 'PUT',
      path: `/v1/subscribers/${knownIds[i % knownIds.length]}`,
      headers: AUTH,
      body: JSON.stringify({ first_name: `Name ${i}`, tags: ['soak', `u${i % 5}`] }),
      status: 200,
    }
  if (slot < 80)
    return {
      kind: 'list',
      method: 'GET',
      path: `/v1/subscribers?page=${1 + (i % 50)}&limit=${1 + (i % 100)}`,
      headers: AUTH,
      status: 200,
    }
  if (slot < 84)
    return {
      kind: 'error-not-found',
      method: 'GET',
      path: '/v1/subscribers/sub_doesnotexist',
      headers: AUTH,
      status: 404,
      code: 'not_found',
    }
  if (slot < 88)
    return {
      kind: 'error-email',
      method: 'POST',
      path: '/v1/email/send',
      headers: AUTH,
      body: JSON.stringify({ to: 'not-an-address', subject: 'x', html: 'x' }),
      status: 400,
      code: 'invalid_email',
    }
  if (slot < 90)
    return {
      kind: 'error-json',
      method: 'POST',
      path: '/v1/sms/send',
      headers: AUTH,
      body: '{"to": "+14155550123",',
      status: 400,
      code: 'invalid_json',
    }
  if (slot < 92)
    return {
      kind: 'error-auth',
      method: 'GET',
      path: '/v1/subscribers',
      headers: { authorization: 'Bearer nope' },
      status: 401,
      code: 'unauthorized',
    }
  if (slot < 94)
    return {
      kind: 'error-path',
      method: 'GET',
      path: '/v1/nothing/here',
      headers: AUTH,
      status: 404,
      code: 'not_found',
    }
  if (slot < 96)
    return {
      kind: 'error-query',
      method: 'GET',
      path: '/v1/subscribers?limit=0',
      headers: AUTH,
      status: 400,
      code: 'invalid_parameter',
    }
  if (slot < 97)
    return {
      kind: 'control-messages',
      method: 'GET',
      path: '/__sandbox/messages?limit=5&channel=email',
      headers: {},
      status: 200,
    }
  if (slot < 98)
    return { kind: 'control-requests', method: 'GET', path: '/__sandbox/requests?limit=5', headers: {}, status: 200 }
  if (slot < 99) return { kind: 'control-health', method: 'GET', path: '/__sandbox/health', headers: {}, status: 200 }
  return {
    kind: 'error-field',
    method: 'POST',
    path: '/v1/subscribers',
    headers: AUTH,
    body: JSON.stringify({ email: 'x@example.com', firstName: 'typo' }),
    status: 400,
    code: 'unknown_parameter',
  }
}

function send(request: Planned): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: request.method,
        path: request.path,
        headers:
          request.body === undefined
            ? request.headers
            : { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
        agent,
      },
      (res) => {
        const parts: Buffer[] = []
        res.on('data', (d: Buffer) => parts.push(d))
        res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }))
        res.on('error', fail)
      },
    )
    req.on('error', fail)
    req.end(request.body)
  })
}

/** One hostile body: what it is, where it goes, the answer it must get. */
interface Hostile {
  label: string
  path: string
  body: string
  status: number
  code?: string
}

const numbers = (count: number) => Array.from({ length: count }, (_, i) => i).join(',')
const keys = (count: number, value: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => `"k${i}":${value(i)}`).join(',')
const HOSTILE: Hostile[] = [
  {
    label: 'tags: 200,000 numbers (1 MiB)',
    path: '/v1/subscribers',
    body: `{"email":"a@example.com","tags":[${numbers(200_000)}]}`.slice(0, 1024 * 1024 - 2) + ']}',
    status: 400,
    code: 'invalid_parameter',
  },
  {
    label: 'tags: 300,000 empty strings',
    path: '/v1/subscribers',
    body: `{"email":"a@example.com","tags":[${Array.from({ length: 300_000 }, () => '""').join(',')}]}`,
    status: 400,
    code: 'invalid_parameter',
  },
  {
    label: 'tags: 200,000 valid strings',
    path: '/v1/subscribers',
    body: `{"email":"a@example.com","tags":[${Array.from({ length: 200_000 }, () => '"a"').join(',')}]}`,
    status: 400,
    code: 'invalid_parameter',
  },
  {
    label: 'nesting 100,000 deep',
    path: '/v1/subscribers',
    body: `{"email":"a@example.com","tags":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    status: 400,
    code: 'invalid_parameter',
  },
  {
    label: '50,000 unknown keys',
    path: '/v1/subscribers',
    body: `{${keys(50_000, (i) => String(i))}}`,
    status: 400,
    code: 'unknown_parameter',
  },
  {
    label: 'parameters: 50,000 numbers',
    path: '/v1/whatsapp/send',
    body: `{"to":"+14155550124","template":"t","language":"en","parameters":{${keys(50_000, (i) => String(i))}}}`,
    status: 400,
    code: 'invalid_parameter',
  },
  {
    label: 'to: 1 MiB string',
    path: '/v1/email/send',
    body: `{"to":"${'a'.repeat(1024 * 1024 - 40)}","subject":"s","html":"h"}`,
    status: 400,
    code: 'invalid_email',
  },
]

/** Sends each hostile shape 10 times while a probe polls /__sandbox/health; prints latencies. */
async function hostilePhase(): Promise<void> {
  console.log('hostile shapes (10 each, sequential; probe = /__sandbox/health polled meanwhile):')
  for (const shape of HOSTILE) {
    let probing = true
    let probeWorst = 0
    const probe = (async () => {
      while (probing) {
        const t = performance.now()
        await send({ kind: 'probe', method: 'GET', path: '/__sandbox/health', headers: {}, status: 200 })
        probeWorst = Math.max(probeWorst, performance.now() - t)
        await new Promise((r) => setTimeout(r, 2))
      }
    })()
    const times: number[] = []
    let wrong = ''
    for (let i = 0; i < 10; i++) {
      const t = performance.now()
      const answer = await send({
        kind: 'hostile',
        method: 'POST',
        path: shape.path,
        headers: AUTH,
        body: shape.body,
        status: shape.status,
      })
      times.push(performance.now() - t)
      if (answer.status !== shape.status || (shape.code && !answer.body.includes(`"code":"${shape.code}"`)))
        wrong = `${answer.status} ${answer.body.slice(0, 120)}`
    }
    probing = false
    await probe
    times.sort((a, b) => a - b)
    console.log(
      `  ${shape.label.padEnd(32)} ${(Buffer.byteLength(shape.body) / 1024).toFixed(0).padStart(5)} KiB  median ${times[5].toFixed(1).padStart(6)} ms  max ${times[9].toFixed(1).padStart(6)} ms  probe worst ${probeWorst.toFixed(1).padStart(6)} ms${wrong ? `  UNEXPECTED ${wrong}` : ''}`,
    )
    if (wrong) process.exitCode = 1
  }
  console.log(`  server RSS after the hostile shapes: ${rssMb()} MB`)
  // Issue 11: ~4,600 valid 900 KB emails ran the server out of heap; the outbox now has a byte budget (--max-outbox-mb, 256 by default).
  const html = `<p>${'x'.repeat(900 * 1024)}</p>`
  let worst = 0
  let sent = 0
  const flood = Array.from({ length: 8 }, async () => {
    while (sent < FLOOD && !serverDied) {
      const i = sent++
      let answer: { status: number; body: string }
      try {
        answer = await send({
          kind: 'big-email',
          method: 'POST',
          path: '/v1/email/send',
          headers: AUTH,
          body: JSON.stringify({ to: `big${i}@example.com`, subject: `Big ${i}`, html }),
          status: 200,
        })
      } catch (error) {
        answer = { status: 0, body: String(error) }
      }
      if (answer.status !== 200) {
        console.log(`  big email #${i}: UNEXPECTED ${answer.status} ${answer.body.slice(0, 120)}`)
        process.exitCode = 1
        return
      }
      if (i % 100 === 0) worst = Math.max(worst, rssMb())
    }
  })
  const floodStarted = performance.now()
  await Promise.all(flood)
  worst = Math.max(worst, rssMb())
  const listing = await send({
    kind: 'list',
    method: 'GET',
    path: '/__sandbox/messages?limit=100',
    headers: {},
    status: 200,
  })
  const health = JSON.parse(
    (await send({ kind: 'health', method: 'GET', path: '/__sandbox/health', headers: {}, status: 200 })).body,
  ) as Record<string, unknown>
  console.log(
    `  ${FLOOD.toLocaleString('en-US')} emails of 900 KB (${((FLOOD * 0.9) / 1024).toFixed(1)} GB) in ${((performance.now() - floodStarted) / 1000).toFixed(0)} s: server RSS max ${worst} MB, now ${rssMb()} MB; outbox ${health.messages} kept, ${health.messages_evicted} evicted; GET /__sandbox/messages?limit=100 → ${listing.status}, ${(Buffer.byteLength(listing.body) / 1024).toFixed(0)} KiB`,
  )
}

await hostilePhase()
if (values['abuse-only']) {
  shuttingDown = true
  child.kill('SIGTERM')
  agent.destroy()
  process.exit(process.exitCode ?? 0)
}

const statuses: Record<string, number> = {}
const unexpected: string[] = []
let unexpectedCount = 0
let next = 0
let done = 0
const samples: Array<{ atRequests: number; seconds: number; rssMb: number }> = []
const started = performance.now()

// Ids to read and update: the seeded subscribers, then every subscriber the soak creates.
const seeded = JSON.parse(
  (await send({ kind: 'setup', method: 'GET', path: '/v1/subscribers?limit=100', headers: AUTH, status: 200 })).body,
) as { data: Array<{ id: string }> }
knownIds.push(...seeded.data.map((s) => s.id))
samples.push({ atRequests: 0, seconds: 0, rssMb: rssMb() })
console.log(
  `soak: ${TOTAL.toLocaleString('en-US')} requests, concurrency ${CONCURRENCY}, server pid ${child.pid} on port ${port}, idle RSS ${samples[0].rssMb} MB`,
)

const sampler = setInterval(() => {
  if (serverDied) return
  samples.push({ atRequests: done, seconds: Math.round((performance.now() - started) / 100) / 10, rssMb: rssMb() })
}, SAMPLE_MS)
let nextReport = 100_000

async function worker(): Promise<void> {
  while (!serverDied) {
    const i = next++
    if (i >= TOTAL) return
    const request = plan(i)
    let answer: { status: number; body: string }
    try {
      answer = await send(request)
    } catch (error) {
      answer = { status: 0, body: String(error) }
    }
    done++
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
    let ok = answer.status === request.status
    if (ok && request.code) ok = answer.body.includes(`"code":"${request.code}"`)
    if (ok && request.kind === 'create' && request.status === 200)
      knownIds.push((JSON.parse(answer.body) as { id: string }).id)
    if (!ok) {
      unexpectedCount++
      if (unexpected.length < 10)
        unexpected.push(
          `#${i} ${request.kind} ${request.method} ${request.path} → ${answer.status} ${answer.body.slice(0, 200)} (expected ${request.status}${request.code ? ` ${request.code}` : ''})`,
        )
    }
    if (done >= nextReport) {
      nextReport += 100_000
      const seconds = (performance.now() - started) / 1000
      console.log(
        `  ${done.toLocaleString('en-US').padStart(9)} requests  ${seconds.toFixed(0).padStart(4)} s  ${Math.round(done / seconds)} req/s  server RSS ${rssMb()} MB  unexpected ${unexpectedCount}`,
      )
    }
  }
}

await Promise.all(Array.from({ length: CONCURRENCY }, worker))
clearInterval(sampler)
const seconds = (performance.now() - started) / 1000
const health = serverDied
  ? undefined
  : JSON.parse(
      (await send({ kind: 'health', method: 'GET', path: '/__sandbox/health', headers: {}, status: 200 })).body,
    )
const finalRss = serverDied ? 0 : rssMb()
samples.push({ atRequests: done, seconds: Math.round(seconds * 10) / 10, rssMb: finalRss })

// Shut it down with SIGTERM, as a user would, and see it leave cleanly.
shuttingDown = true
const exitCode = serverDied
  ? null
  : await new Promise<number | null>((resolveExit) => {
      child.once('exit', (code) => resolveExit(code))
      child.kill('SIGTERM')
    })
agent.destroy()

const at = (fraction: number) =>
  samples.reduce((best, s) =>
    Math.abs(s.atRequests - fraction * done) < Math.abs(best.atRequests - fraction * done) ? s : best,
  )
const secondHalf = samples.filter((s) => s.atRequests >= done / 2)
const rssValues = secondHalf.map((s) => s.rssMb)
console.log(
  `\nresult: ${done.toLocaleString('en-US')} requests in ${seconds.toFixed(1)} s (${Math.round(done / seconds)} req/s), concurrency ${CONCURRENCY}`,
)
console.log(`statuses: ${JSON.stringify(statuses)}`)
console.log(`unexpected answers: ${unexpectedCount}${unexpected.length ? `\n  ${unexpected.join('\n  ')}` : ''}`)
console.log(
  `subscribers created: ${Math.min(creates, EMAIL_POOL)} (then duplicate_email), ids read/updated: ${knownIds.length}`,
)
console.log(`server health at the end: ${JSON.stringify(health)}`)
console.log(
  `server RSS (MB): idle ${samples[0].rssMb}; at 10% ${at(0.1).rssMb}, 25% ${at(0.25).rssMb}, 50% ${at(0.5).rssMb}, 75% ${at(0.75).rssMb}, 100% ${finalRss}; max ${Math.max(...samples.map((s) => s.rssMb))}`,
)
console.log(
  `second half (${secondHalf.length} samples every ${SAMPLE_MS} ms): min ${Math.min(...rssValues)}, max ${Math.max(...rssValues)}, spread ${Math.max(...rssValues) - Math.min(...rssValues)} MB`,
)
console.log(
  `RSS samples (requests:MB): ${samples
    .filter((_, k) => k % Math.max(1, Math.floor(samples.length / 24)) === 0 || k === samples.length - 1)
    .map((s) => `${s.atRequests}:${s.rssMb}`)
    .join(' ')}`,
)
console.log(`SIGTERM → exit code ${exitCode}`)
if (unexpectedCount > 0 || serverDied || exitCode !== 0) process.exitCode = 1
