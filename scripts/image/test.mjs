#!/usr/bin/env node
/**
 * `npm run test:image`: builds the container image from the repo's Dockerfile with buildah (no
 * Docker daemon here: `--isolation chroot --storage-driver vfs`) on the stand-in base
 * (scripts/image/base.sh), then runs the image's own entrypoint and command with `buildah run`
 * (host network, a free port through SENDBOX_PORT, the image's /data volume) and checks over HTTP:
 * healthy, a send, the web inbox, /__sandbox refusing without the admin token and answering with
 * it, a clean SIGTERM with a request in flight, the data still there after a restart. Prints the
 * image's added size over the base and the start time; exits non-zero on any failure.
 *
 *   npm run test:image              build (layers cached) and test
 *   node scripts/image/test.mjs --no-build   test the image built last
 */
import { execFileSync, spawn } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const IMAGE = 'localhost/sendbox:test'
const BASE = 'docker.io/library/node:24-bookworm-slim'
const B = ['--storage-driver', 'vfs']
const TOKEN = 'adm_image_test_token_0123456789'
const started = performance.now()
const log = (line) => process.stderr.write(`image: ${line}\n`)
const buildah = (args, options = {}) =>
  execFileSync('buildah', [...B, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    ...options,
  }).trim()
let failures = 0
function check(name, ok, detail = '') {
  log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}`)
  if (!ok) failures++
}

for (const tool of process.argv.includes('--no-build') ? ['buildah'] : ['buildah', 'debootstrap']) {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' })
  } catch {
    log(
      `FAIL ${tool} is not installed: apt-get install buildah debootstrap (Debian's packages; .ci/run installs them as root)`,
    )
    process.exit(1)
  }
}

if (!process.argv.includes('--no-build')) {
  execFileSync(join(root, 'scripts/image/base.sh'), { stdio: 'inherit' })
  const t0 = performance.now()
  log('buildah bud . (the default Dockerfile, no -f)…')
  execFileSync(
    'buildah',
    [...B, 'bud', '--isolation', 'chroot', '--format', 'docker', '--pull=never', '--layers', '-t', IMAGE, '.'],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  )
  log(`built in ${Math.round((performance.now() - t0) / 1000)} s`)
}

// The added size: the image's size less the base's (buildah reports both in MB), and its own layers.
const inspect = (image) => JSON.parse(buildah(['inspect', '--type', 'image', image]))
const config = inspect(IMAGE).Docker.config
const baseLayers = new Set(inspect(BASE).OCIv1.rootfs.diff_ids)
const ownLayers = inspect(IMAGE).OCIv1.rootfs.diff_ids.filter((id) => !baseLayers.has(id)).length
const sizes = Object.fromEntries(
  JSON.parse(buildah(['images', '--json']))
    .filter((i) => i.names)
    .flatMap((i) => i.names.map((name) => [name, i.size])),
)
const megabytes = (text) => Number(/([0-9.]+)\s*MB/.exec(text)?.[1] ?? /([0-9.]+)\s*GB/.exec(text)?.[1] * 1000)
const sizeOf = (image) => megabytes(sizes[image])
const addedMb = Math.round((sizeOf(IMAGE) - sizeOf(BASE)) * 10) / 10
log(`base ${sizeOf(BASE)} MB, image ${sizeOf(IMAGE)} MB: ${addedMb} MB added in ${ownLayers} layer(s)`)
check('added size ≤ 40 MB', addedMb <= 40, `${addedMb} MB`)
check('runs as a non-root user', config.User === 'node', config.User)
check('exposes 4010', Object.keys(config.ExposedPorts ?? {}).includes('4010/tcp'))
check('has a HEALTHCHECK on /__sandbox/livez', JSON.stringify(config.Healthcheck ?? {}).includes('/__sandbox/livez'))
check('declares the /data volume', Object.keys(config.Volumes ?? {}).includes('/data'))

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

const container = buildah(['from', '--quiet', '--pull=never', IMAGE])

/** Runs the image's ENTRYPOINT + CMD as `docker run` would, with `env`; resolves once healthy. */
async function run(port, env) {
  const command = [...(config.Entrypoint ?? []), ...(config.Cmd ?? [])]
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`])
  // /data is the image's VOLUME: buildah gives the working container a volume of its own there,
  // kept from one `buildah run` to the next, as a named volume (`-v sendbox-data:/data`) is.
  const child = spawn(
    'buildah',
    [...B, 'run', '--isolation', 'chroot', '--network', 'host', ...envArgs, container, '--', ...command],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d))
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d))
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  const t0 = performance.now()
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the container exited (${child.exitCode}):\n${out}\n${err}`)
    if (performance.now() - t0 > 30_000) throw new Error(`not healthy in 30 s:\n${out}\n${err}`)
    const ok = await fetch(`http://127.0.0.1:${port}/__sandbox/readyz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) break
    await new Promise((r) => setTimeout(r, 20))
  }
  return { child, exited, startMs: Math.round(performance.now() - t0), out: () => out, err: () => err }
}

/**
 * The node process inside (PID 1 of a real container): what `docker stop` signals. The one run
 * with this `SENDBOX_PORT`: another run's container (one a failed run left behind) is not it.
 */
function nodePid(port) {
  const lines = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n')
  const pids = lines
    .map((l) => l.trim().split(/\s+/))
    .filter((parts) => /(^|\/)node$/.test(parts[1] ?? '') && parts.includes('/app/dist/bin/sendbox.js'))
    .map((parts) => parts[0])
  const ours = pids.find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`SENDBOX_PORT=${port}`)
    } catch {
      return false // another user's process, unreadable without root
    }
  })
  return ours ?? (pids.length === 1 ? pids[0] : undefined)
}

const KEY = { authorization: 'Bearer test_pro', 'content-type': 'application/json' }
// Every request on a connection of its own (`Connection: close`): a pooled keep-alive connection
// left idle while the machine is busy (CI runs this beside the consumer matrix) reached the
// server's keep-alive timeout just as the next request went out on it, and that fetch failed.
const pooledFetch = globalThis.fetch
globalThis.fetch = (url, init = {}) => pooledFetch(url, { ...init, headers: { ...init.headers, connection: 'close' } })
const ADMIN = { authorization: `Bearer ${TOKEN}` }
let exitCode = 1
let port
try {
  port = await freePort()
  // As the README's compose recipe runs it: the app calls http://sendbox:4010, so that name is allowed.
  const env = { SENDBOX_PORT: String(port), SENDBOX_ADMIN_TOKEN: TOKEN, SENDBOX_ALLOWED_HOSTS: 'sendbox' }
  const first = await run(port, env)
  log(`healthy ${first.startMs} ms after \`buildah run\``)
  const api = `http://127.0.0.1:${port}/v1`
  const sent = await fetch(`${api}/email/send`, {
    method: 'POST',
    headers: KEY,
    body: JSON.stringify({ to: 'ana@example.com', subject: 'From the container', html: '<p>Code 424242</p>' }),
  })
  const sentBody = await sent.json()
  check('POST /v1/email/send answers 200', sent.status === 200, JSON.stringify(sentBody))
  const subscriber = await (
    await fetch(`${api}/subscribers`, {
      method: 'POST',
      headers: KEY,
      body: JSON.stringify({ email: 'kept@example.com' }),
    })
  ).json()
  // A request as another container of the compose network sends it (Host: sendbox:PORT); any other name is refused.
  const withHost = (host) =>
    new Promise((resolve) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/v1/subscribers', headers: { host, authorization: KEY.authorization } },
        (res) => {
          res.resume()
          resolve(res.statusCode)
        },
      )
      req.on('error', () => resolve(0))
      req.end()
    })
  const [named, other] = [await withHost(`sendbox:${port}`), await withHost(`evil.test:${port}`)]
  check(
    'answers Host: sendbox (SENDBOX_ALLOWED_HOSTS), refuses another name',
    named === 200 && other === 403,
    `${named}, ${other}`,
  )
  const inbox = await fetch(`http://127.0.0.1:${port}/__sandbox/ui/`, { headers: ADMIN })
  check(
    'the web inbox serves its page',
    inbox.status === 200 && /<html/i.test(await inbox.text()),
    `${inbox.status} ${inbox.headers.get('content-type')}`,
  )
  const refused = await fetch(`http://127.0.0.1:${port}/__sandbox/messages`)
  check(
    '/__sandbox refuses without the admin token',
    refused.status === 401,
    `${refused.status} ${(await refused.text()).slice(0, 120)}`,
  )
  const listed = await (await fetch(`http://127.0.0.1:${port}/__sandbox/messages`, { headers: ADMIN })).json()
  check(
    '/__sandbox/messages with the token lists the send',
    listed.data?.some((m) => m.message_id === sentBody.message_id),
  )
  // The HEALTHCHECK's own command, run inside the image as an engine would (exit 0 = healthy).
  // With the admin token in its environment (200) and with a generated one it cannot know (401).
  const probe = config.Healthcheck?.Test ?? []
  const probeExit = (env) => {
    try {
      buildah(
        [
          'run',
          '--isolation',
          'chroot',
          '--network',
          'host',
          ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
          container,
          '--',
          ...probe.slice(1),
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      )
      return 0
    } catch (error) {
      return error.status ?? 1
    }
  }
  check(
    'the HEALTHCHECK command passes inside the image',
    probe[0] === 'CMD' &&
      probeExit({ SENDBOX_PORT: port, SENDBOX_ADMIN_TOKEN: TOKEN }) === 0 &&
      probeExit({ SENDBOX_PORT: port }) === 0,
    probe.slice(0, 3).join(' '),
  )
  check('the HEALTHCHECK command fails when nothing answers', probeExit({ SENDBOX_PORT: await freePort() }) !== 0)
  check(
    'logs one JSON line per request',
    first
      .out()
      .split('\n')
      .filter(Boolean)
      .some((l) => {
        try {
          return JSON.parse(l).path === '/v1/email/send'
        } catch {
          return false
        }
      }),
    first.out().split('\n')[0],
  )
  // SIGTERM to the node process (PID 1 in a real container) with a send in flight.
  const inFlight = fetch(`${api}/email/send`, {
    method: 'POST',
    headers: { ...KEY, prefer: 'delay=2500' },
    body: JSON.stringify({ to: 'ana@example.com', subject: 'In flight', html: '<p>x</p>' }),
  }).then(
    async (r) => ({ status: r.status, body: await r.json() }),
    (e) => ({ status: 0, body: String(e) }),
  )
  // In flight for sure: captured (the delay runs after the capture), not yet answered. A fixed
  // 100 ms wait, then a 1 s poll, raced a container slow under load (CI runs this beside the
  // consumer matrix: the first email, which loads the HTML tools, was not captured yet).
  const capturedBy = performance.now() + 20_000
  let captured = false
  while (!captured && performance.now() < capturedBy) {
    const listed = await (
      await fetch(`http://127.0.0.1:${port}/__sandbox/messages?q=flight`, { headers: ADMIN })
    ).json()
    captured = (listed.data ?? []).length > 0
    if (!captured) await new Promise((r) => setTimeout(r, 20))
  }
  check('the send in flight is captured before SIGTERM', captured, 'within 20 s')
  const pid = nodePid(port)
  check('found the node process', pid !== undefined)
  const t0 = performance.now()
  if (pid) process.kill(Number(pid), 'SIGTERM')
  const answer = await inFlight
  const stopped = await first.exited
  check(
    'the request in flight at SIGTERM is answered',
    answer.status === 200,
    JSON.stringify(answer.body).slice(0, 120),
  )
  check(
    'SIGTERM stops it cleanly',
    stopped.code === 0,
    `${JSON.stringify(stopped)} in ${Math.round(performance.now() - t0)} ms`,
  )
  // Restart on the same /data.
  const second = await run(port, env)
  log(`restarted, healthy ${second.startMs} ms after \`buildah run\``)
  const kept = await (await fetch(`http://127.0.0.1:${port}/__sandbox/messages`, { headers: ADMIN })).json()
  const subjects = (kept.data ?? []).map((m) => m.email?.subject)
  check(
    'the messages are there after the restart',
    subjects.includes('From the container') && subjects.includes('In flight'),
    subjects.join(', '),
  )
  const again = await fetch(`${api}/subscribers/${subscriber.id}`, { headers: KEY })
  check('the subscriber is there after the restart', again.status === 200)
  const secondPid = nodePid(port)
  if (secondPid) process.kill(Number(secondPid), 'SIGTERM')
  await second.exited
  console.log(
    JSON.stringify({
      addedMb,
      baseMb: sizeOf(BASE),
      imageMb: sizeOf(IMAGE),
      startMs: first.startMs,
      restartMs: second.startMs,
      failures,
      seconds: Math.round((performance.now() - started) / 1000),
    }),
  )
  exitCode = failures === 0 ? 0 : 1
} catch (error) {
  log(`FAIL ${error.message}`)
} finally {
  // A run that failed midway leaves no server behind (a later run would find and signal it).
  const left = port === undefined ? undefined : nodePid(port)
  if (left) process.kill(Number(left), 'SIGKILL')
  try {
    buildah(['rm', container])
  } catch {
    // gone already
  }
}
log(failures === 0 && exitCode === 0 ? 'all checks passed' : `${failures} check(s) failed`)
process.exit(exitCode)
