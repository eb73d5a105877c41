/**
 * Helpers for the `--data` tests: the built CLI under Node 24 (node:sqlite needs Node ≥ 22.13;
 * this suite runs on Node 20), a scratch directory, and small API calls.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeAll } from 'vitest'
import { startCli, type CliChild } from '../cli-child.js'

const ROOT = resolve(import.meta.dirname, '../..')

let node24: string | undefined

/** The Node 24 binary (installed once from the npm registry by scripts/node-bin.sh). */
export function nodeWithSqlite(): string {
  node24 ??= execFileSync(join(ROOT, 'scripts/node-bin.sh'), ['24'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim()
  return node24
}

export function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'sendbox-data-'))
}

/** `sendbox --port 0 --no-ui --data <file> …args` under Node 24. */
export function startWithData(file: string, args: string[] = [], env: Record<string, string> = {}): Promise<CliChild> {
  return startCli(['--port', '0', '--no-ui', '--data', file, ...args], { node: nodeWithSqlite(), env })
}

/** Runs the CLI to its exit (a refused start): exit code and output. */
export function runToExit(args: string[], node = nodeWithSqlite()): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(node, [join(ROOT, 'dist/bin/sendbox.js'), ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 15_000,
      env: { ...process.env, SENDBOX_DATA: '' },
    })
    return { code: 0, stdout, stderr: '' }
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string }
    return { code: failed.status, stdout: failed.stdout, stderr: failed.stderr }
  }
}

/** Runs a script under Node 24 (to make or read a store with node:sqlite directly). */
export function node24Script(source: string, args: string[] = []): string {
  return execFileSync(nodeWithSqlite(), ['--no-warnings', '--input-type=module', '-e', source, ...args], {
    encoding: 'utf8',
    cwd: ROOT,
  })
}

export const KEY = { authorization: 'Bearer test_pro', 'content-type': 'application/json' }

export async function sendEmail(api: string, subject: string, html = '<p>Your code is 123456</p>'): Promise<Response> {
  return fetch(`${api}/email/send`, {
    method: 'POST',
    headers: KEY,
    body: JSON.stringify({ to: 'ana@example.com', subject, html }),
  })
}

export async function json<T = any>(response: Response | Promise<Response>): Promise<T> {
  return (await (await response).json()) as T
}

/** Stops the child with SIGTERM and waits for its exit. */
export async function stop(cli: CliChild): Promise<void> {
  cli.child.kill('SIGTERM')
  await cli.exited
}

/**
 * A copy of a store a running sendbox holds (its exclusive lock keeps other readers out, issue 36
 * R4): the file and its WAL, which SQLite replays when the copy is opened.
 */
export function copyOfRunningStore(file: string): string {
  const copy = join(scratch(), 'copy.db')
  copyFileSync(file, copy)
  if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`)
  return copy
}

/**
 * `startWithData` for one test file: every server it starts is killed after each test, and Node 24
 * (for node:sqlite) is fetched once before the file's tests.
 */
export function dataServers(): typeof startWithData {
  const running: CliChild[] = []
  afterEach(() => {
    for (const cli of running.splice(0)) cli.kill()
  })
  beforeAll(() => {
    nodeWithSqlite()
  }, 120_000)
  return async (...args) => {
    const cli = await startWithData(...args)
    running.push(cli)
    return cli
  }
}

/** A file's SHA-256, to show a refused file was left byte for byte as it was. */
export const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')
