#!/usr/bin/env node
/**
 * Fan-out under attack (issue 27, N2/N4/N5): the built CLI as a child process, then
 * - waiters: N long-polls on `/__sandbox/messages/wait` (one filter for all, or an adversarial
 *   `q` each), then one 1 MiB email that every waiter matches;
 * - events: N event-stream clients that never read, then ten 1 MiB emails.
 * Prints, per scenario, the server's peak RSS (VmHWM) and the slowest `/__sandbox/health` answer
 * while it ran, as JSON lines. Targets: RSS peak ≤ 500 MB, health ≤ 100 ms.
 *
 *   node bench/fanout.mjs [--waiters 1000] [--clients 1000] [--only waiters,adversarial,events]
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { values: flags } = parseArgs({
  options: {
    waiters: { type: 'string', default: '1000' },
    clients: { type: 'string', default: '1000' },
    only: { type: 'string', default: 'waiters,adversarial,events' },
  },
})

async function startServer(extra = []) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SENDBOX_')))
  const child = spawn(
    process.execPath,
    [
      join(root, 'dist/bin/sendbox.js'),
      '--no-ui',
      '--port',
      '0',
      '--delivery-ms',
      '0',
      '--limit',
      'enterprise=1000000',
      ...extra,
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d))
  child.stderr.setEncoding('utf8').on('data', (d) => process.env.FANOUT_DEBUG && process.stderr.write(d))
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 15_000)
    child.stdout.on('data', () => {
      const found = /127\.0\.0\.1:(\d+)/.exec(out)
      if (found) {
        clearTimeout(timer)
        resolve(Number(found[1]))
      }
    })
  })
  return { child, port, origin: `http://127.0.0.1:${port}` }
}

const peakRssMb = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024

/**
 * Times /__sandbox/health every 20 ms from a process of its own (the clients here keep this
 * process busy) until stopped; resolves with the slowest answer, in ms.
 */
function watchHealth(origin) {
  const script = `let worst = 0; let on = true; process.on('message', () => { on = false });
    (async () => { while (on) { const t = performance.now(); await fetch('${origin}/__sandbox/health').then((r) => r.arrayBuffer()); worst = Math.max(worst, performance.now() - t); await new Promise((r) => setTimeout(r, 20)) } process.send(worst); process.disconnect() })()`
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const result = new Promise((resolve) => child.once('message', resolve))
  return async () => {
    child.send('stop')
    return result
  }
}

/** A GET whose answer is never read (paused socket); resolves when the headers came. */
function openSilent(url) {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.pause()
      resolve({ req, res })
    })
    req.on('error', () => resolve({ req }))
    req.end()
  })
}

function longPoll(url) {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode))
    })
    req.on('error', () => resolve(0))
    req.end()
  })
}

const bigEmail = (i) =>
  JSON.stringify({
    to: `fan${i}@example.com`,
    subject: `Big ${i}`,
    html: `<p>${'aaaaaaaaa '.repeat(100_000)}</p><a href="https://app.example.com/x${i}">x</a>`,
  })

async function send(origin, body) {
  const r = await fetch(`${origin}/v1/email/send`, {
    method: 'POST',
    headers: { Authorization: 'Bearer test_enterprise', 'Content-Type': 'application/json' },
    body,
  })
  return r.status
}

async function waiters(adversarial) {
  const n = Number(flags.waiters)
  const server = await startServer(process.env.FANOUT_NO_CAPS ? [] : ['--max-waiters', String(n)])
  try {
    const needle = (i) => (adversarial ? encodeURIComponent(`${'a'.repeat(1000 + (i % 20))}b`) : 'aaaa')
    const polls = Array.from({ length: n }, (_, i) =>
      longPoll(`${server.origin}/__sandbox/messages/wait?channel=email&q=${needle(i)}&timeout=20000`),
    )
    await new Promise((r) => setTimeout(r, 1500))
    const stop = watchHealth(server.origin)
    const status = await send(server.origin, bigEmail(0))
    const answered = adversarial ? [] : await Promise.all(polls)
    await new Promise((r) => setTimeout(r, 500))
    const health = await stop()
    const rss = peakRssMb(server.child.pid)
    return {
      scenario: adversarial ? `${n} waiters, adversarial q each, one 1 MiB email` : `${n} waiters, one 1 MiB email`,
      send: status,
      answered: answered.filter((s) => s === 200).length,
      rssPeakMb: Math.round(rss),
      healthWorstMs: Math.round(health),
    }
  } finally {
    server.child.kill()
  }
}

async function events() {
  const n = Number(flags.clients)
  const server = await startServer(process.env.FANOUT_NO_CAPS ? [] : ['--max-event-clients', String(n)])
  try {
    const clients = await Promise.all(Array.from({ length: n }, () => openSilent(`${server.origin}/__sandbox/events`)))
    const open = clients.filter((c) => c.res?.statusCode === 200).length
    const stop = watchHealth(server.origin)
    for (let i = 0; i < 10; i++) await send(server.origin, bigEmail(i))
    await new Promise((r) => setTimeout(r, 2000))
    const health = await stop()
    const rss = peakRssMb(server.child.pid)
    for (const c of clients) c.req.destroy()
    return {
      scenario: `${n} event clients that never read, ten 1 MiB emails`,
      open,
      rssPeakMb: Math.round(rss),
      healthWorstMs: Math.round(health),
    }
  } finally {
    server.child.kill()
  }
}

const only = new Set(flags.only.split(','))
const results = []
if (only.has('waiters')) results.push(await waiters(false))
if (only.has('adversarial')) results.push(await waiters(true))
if (only.has('events')) results.push(await events())
for (const result of results) console.log(JSON.stringify(result))
// The last line, for `npm run bench` (bench/run.mjs reads it).
console.log(JSON.stringify({ results }))
