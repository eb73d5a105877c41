/**
 * The built CLI (`dist/bin/sendbox.js`) as a child process, for tests of what only a real process
 * shows: signals, exit codes, stdout/stderr, the bound address. `npm test` builds first.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/** The compiled CLI. */
export const CLI = resolve(import.meta.dirname, '../dist/bin/sendbox.js')

/** A running CLI child. */
export interface CliChild {
  child: ChildProcess
  /** The API base URL from the banner (`http://127.0.0.1:PORT/v1`). */
  apiUrl: string
  /** Origin of the server (`http://127.0.0.1:PORT`), for /__sandbox. */
  origin: string
  port: number
  stdout: () => string
  stderr: () => string
  /** Resolves with the exit code (or the signal) and when it came, in ms since start. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>
  /** Kills the child if it is still running. */
  kill: () => void
}

/**
 * Starts `sendbox` with `args` in an empty directory (no config file, unless `cwd` names one) and
 * an environment without SENDBOX_* variables (but `env`), under `node` (default: this Node) with
 * `nodeFlags` before the script; resolves once the banner names the URL.
 */
export function startCli(
  args: string[],
  {
    timeoutMs = 15_000,
    cwd,
    node = process.execPath,
    env: extraEnv = {},
    nodeFlags = [],
  }: { timeoutMs?: number; cwd?: string; node?: string; env?: Record<string, string>; nodeFlags?: string[] } = {},
): Promise<CliChild> {
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SENDBOX_'))),
    ...extraEnv,
  }
  const child = spawn(node, [...nodeFlags, CLI, ...args], {
    cwd: cwd ?? mkdtempSync(join(tmpdir(), 'sendbox-cli-')),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const started = performance.now()
  let out = ''
  let err = ''
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d))
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal, at: performance.now() - started })),
  )
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`sendbox did not start within ${timeoutMs} ms.\nstdout: ${out}\nstderr: ${err}`))
    }, timeoutMs)
    const check = () => {
      const match = /listening on (http:\/\/(\S+?):(\d+))\/v1/.exec(out)
      if (!match) return
      clearTimeout(timer)
      child.stdout!.off('data', check)
      // Reach it over loopback whatever it bound to.
      const port = Number(match[3])
      resolvePromise({
        child,
        apiUrl: `http://127.0.0.1:${port}/v1`,
        origin: `http://127.0.0.1:${port}`,
        port,
        stdout: () => out,
        stderr: () => err,
        exited,
        kill: () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
        },
      })
    }
    child.stdout!.on('data', check)
    void exited.then(({ code }) => {
      clearTimeout(timer)
      reject(new Error(`sendbox exited (${code}) before listening.\nstdout: ${out}\nstderr: ${err}`))
    })
  })
}
