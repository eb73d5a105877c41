/**
 * Child processes for the benchmark: start a server, wait for its first 2xx, read its RSS,
 * stop it. Everything on loopback, every port picked by the OS.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'

/** A free loopback port (the OS picks it; the probe socket closes before the server binds it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

/** One GET on loopback with a fresh connection; resolves to the status, or 0 when the connect fails. */
export function probe(port, path, headers = {}) {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
      res.on('error', () => resolve(0))
    })
    req.on('error', () => resolve(0))
    req.end()
  })
}

/** A GET on loopback that returns status and body text (for fetching sample answers). */
export function getText(port, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** A POST on loopback that returns status and body text. */
export function postText(port, path, headers, body) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers, agent: false }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Resident set size of a process in MB (Linux /proc; `ps` elsewhere). */
export async function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1])
    if (Number.isFinite(kb)) return kb / 1024
  } catch {
    // not Linux: fall through to ps
  }
  const { execFileSync } = await import('node:child_process')
  const kb = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim())
  return kb / 1024
}

/**
 * CPU seconds (user + system) a process has used so far, from Linux /proc (clock ticks of
 * 1/100 s); undefined elsewhere. CPU per request is steadier than requests/s on a busy machine.
 */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return undefined
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Spawns `node ...args` (or `command ...args`; stdout and stderr discarded, as a headless server
 * in the background would run) and polls `readyPath` on `port` until a 2xx. Resolves with the child and the
 * milliseconds from spawn to the first 2xx. Rejects after `timeoutMs` or if the child exits.
 */
export async function startTarget({
  command = process.execPath,
  args,
  port,
  readyPath,
  readyHeaders = {},
  timeoutMs = 20_000,
  env = process.env,
}) {
  const t0 = performance.now()
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env })
  let stderr = ''
  child.stderr.on('data', (chunk) => {
    if (stderr.length < 4000) stderr += chunk
  })
  let exited = false
  child.once('exit', () => {
    exited = true
  })
  let lastStatus = 0
  for (;;) {
    lastStatus = await probe(port, readyPath, readyHeaders)
    if (lastStatus >= 200 && lastStatus < 300) break
    if (exited) throw new Error(`target exited before answering: node ${args.join(' ')}\n${stderr}`)
    if (performance.now() - t0 > timeoutMs) {
      child.kill('SIGKILL')
      throw new Error(
        `no 2xx from ${readyPath} within ${timeoutMs} ms (last status ${lastStatus}): node ${args.join(' ')}\n${stderr}`,
      )
    }
    await sleep(lastStatus === 0 ? 2 : 5)
  }
  return { child, startMs: performance.now() - t0, stderr: () => stderr }
}

/** Stops a child started by {@link startTarget} and waits for it to exit. */
export function stopTarget(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const force = setTimeout(() => child.kill('SIGKILL'), 3_000)
    child.once('exit', () => {
      clearTimeout(force)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

/** Median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Runs a node script and resolves with its stdout parsed as JSON (the last line). */
export function runJsonScript(args, { timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.once('exit', (code) => {
      clearTimeout(timer)
      const last = out.trim().split('\n').pop() ?? ''
      try {
        if (code !== 0) throw new Error(`exit code ${code}`)
        resolve(JSON.parse(last))
      } catch (error) {
        reject(new Error(`node ${args.join(' ')} failed (${error.message}):\n${out.slice(-2000)}`))
      }
    })
  })
}
