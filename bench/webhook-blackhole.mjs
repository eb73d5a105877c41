#!/usr/bin/env node
/**
 * Issue 27 N7: webhook attempts go through a bounded queue. Starts the built CLI with its
 * webhook URL on (1) a black-hole receiver that accepts connections and never answers, and
 * (2) a receiver that answers every post with 10 MB; sends 1,000 SMS through the API and
 * measures the most sockets open to the receiver at once (the receiver runs in a process of its
 * own), the slowest /__sandbox/health answer meanwhile, and the server's RSS. Targets: <= 64 sockets, health <= 100 ms, RSS flat.
 * Prints one JSON object (bench/run.mjs --only webhooks reads it). `npm run build` first.
 */
import { fork, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

const SENDS = Number(process.argv[2]) || 1_000
const CLI = new URL('../dist/bin/sendbox.js', import.meta.url).pathname

/** A receiver in its own process (bench/lib/webhook-receiver.mjs): `mode` is blackhole or flood. */
async function receiver(mode) {
  const child = fork(new URL('./lib/webhook-receiver.mjs', import.meta.url), [mode], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const { port } = await new Promise((resolve) => child.once('message', resolve))
  const stats = () =>
    new Promise((resolve) => {
      child.once('message', resolve)
      child.send('stats')
    })
  return { port, stats, close: () => child.kill() }
}

async function startSandbox(hookPort) {
  const hook =
    hookPort === undefined
      ? []
      : [
          '--webhook-url',
          `http://127.0.0.1:${hookPort}/hooks`,
          '--webhook-secret',
          'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        ]
  const child = spawn(process.execPath, [CLI, '--port', '0', '--no-ui', '--delivery-ms', '0', ...hook], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.setEncoding('utf8')
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d
      const match = /listening on (http:\/\/[^/\s]+)\/v1/.exec(out)
      if (match) resolve(match[1])
    })
    child.on('exit', (code) => reject(new Error(`sendbox exited with ${code}`)))
  })
  // Drain the request log so the pipe never fills.
  child.stdout.resume()
  return { child, url }
}

function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024
}

async function scenario(name, answer) {
  const hook =
    answer === undefined
      ? { port: undefined, stats: async () => ({ maxOpen: 0, total: 0 }), close() {} }
      : await receiver(answer)
  const { child, url } = await startSandbox(hook.port)
  const rssBefore = rssOf(child.pid)
  let slowestHealth = 0
  let slowestAfter = 0
  let sending = true
  let sampling = true
  const sampler = (async () => {
    while (sampling) {
      const started = performance.now()
      await (await fetch(`${url}/__sandbox/health`)).text()
      const took = performance.now() - started
      if (sending) slowestHealth = Math.max(slowestHealth, took)
      else slowestAfter = Math.max(slowestAfter, took)
      await new Promise((r) => setTimeout(r, 25))
    }
  })()
  const body = JSON.stringify({ to: '+14155550123', message: 'hello' })
  const headers = { authorization: 'Bearer test_enterprise', 'content-type': 'application/json' }
  let next = 0
  const worker = async () => {
    while (next < SENDS) {
      next++
      await (await fetch(`${url}/v1/sms/send`, { method: 'POST', headers, body })).text()
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: 50 }, worker))
  const sendMs = performance.now() - started
  sending = false
  // Let the queue work a while (timeouts are 5 s each): sockets and memory must stay bounded.
  let peakRss = rssOf(child.pid)
  for (let i = 0; i < 24; i++) {
    await new Promise((r) => setTimeout(r, 500))
    peakRss = Math.max(peakRss, rssOf(child.pid))
  }
  sampling = false
  await sampler
  const stats = await hook.stats()
  child.kill('SIGKILL')
  hook.close()
  return {
    scenario: name,
    sends: SENDS,
    send_ms: Math.round(sendMs),
    max_open_sockets: stats.maxOpen,
    connections: stats.total,
    slowest_health_during_sends_ms: Math.round(slowestHealth * 10) / 10,
    slowest_health_after_sends_ms: Math.round(slowestAfter * 10) / 10,
    rss_before_mb: Math.round(rssBefore),
    rss_peak_mb: Math.round(peakRss),
  }
}

const results = [
  await scenario('no webhook (baseline)', undefined),
  await scenario('black hole (reads, never answers)', 'blackhole'),
  await scenario('10 MB answer', 'flood'),
]
process.stdout.write(`${JSON.stringify({ results, targets: { max_open_sockets: 64, slowest_health_ms: 100 } })}\n`)
