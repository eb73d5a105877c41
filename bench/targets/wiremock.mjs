/**
 * WireMock 3 standalone (the jar the `wiremock` npm package ships) as a bench target: stubs
 * answering the same JSON texts as the sandbox for the same three requests, no request journal,
 * bound to loopback. Everything else is WireMock's default (Jetty's thread pool, no async
 * responses), as a user would start it.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

/** The jar inside node_modules/wiremock, or undefined when the package is not installed. */
function jarPath() {
  try {
    const require = createRequire(import.meta.url)
    const dir = join(require.resolve('wiremock/package.json'), '..')
    const { version } = require('wiremock/package.json')
    return join(dir, 'build', `wiremock-standalone-${version}.jar`)
  } catch {
    return undefined
  }
}

function javaVersion() {
  const r = spawnSync('java', ['-version'], { encoding: 'utf8' })
  if (r.error || r.status !== 0) return undefined
  return (r.stderr || r.stdout).split('\n')[0].trim()
}

/**
 * Finds Java 11+ (WireMock 3 needs it). Without it, as root on Debian, installs the distribution's
 * headless JRE with apt-get; otherwise returns the reason to skip WireMock.
 */
export function findJava(log) {
  let version = javaVersion()
  if (!version && process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).status === 0) {
    log('java not found: installing a headless JRE from Debian (apt-get install openjdk-17-jre-headless)…')
    spawnSync('apt-get', ['update'], { stdio: 'ignore' })
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'openjdk-17-jre-headless'], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
    version = javaVersion()
  }
  if (!version) return { skip: 'no java on PATH (and no apt-get as root to install a JRE): WireMock not measured' }
  const jar = jarPath()
  if (!jar) return { skip: 'the wiremock package is not installed (npm install): WireMock not measured' }
  return { version, jar }
}

/**
 * Writes WireMock's root directory (mappings/*.json) for the sandbox's answers captured at the
 * start of the run; `subscriberId` is the id the by-id request asks for.
 */
export function writeStubs(dir, answers, subscriberId) {
  const mappings = join(dir, 'mappings')
  mkdirSync(mappings, { recursive: true })
  const response = (body) => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body })
  const stubs = {
    'send.json': { request: { method: 'POST', urlPath: '/v1/email/send' }, response: response(answers.send) },
    'list.json': {
      request: { method: 'GET', urlPath: '/v1/subscribers', queryParameters: { limit: { matches: '\\d+' } } },
      response: response(answers.list),
    },
    'by-id.json': {
      request: { method: 'GET', urlPath: `/v1/subscribers/${subscriberId}` },
      response: response(answers.byId),
    },
  }
  for (const [name, stub] of Object.entries(stubs)) writeFileSync(join(mappings, name), JSON.stringify(stub))
}

/** `java …` arguments: the jar, the port, loopback only, no journal, no banner, the stubs' root. */
export function wiremockArgs(jar, rootDir, port) {
  return [
    '-jar',
    jar,
    '--port',
    String(port),
    '--bind-address',
    '127.0.0.1',
    '--no-request-journal',
    '--disable-banner',
    '--root-dir',
    rootDir,
  ]
}
