import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { freePort } from '../free-port.js'

/**
 * Debian's SpamAssassin `spamd` for the tests (issue 35): started on a free loopback port with the
 * rules the package ships (`-L`: no network tests), ready once `spamc -K` answers. Without spamd
 * installed, `skip` says why (CI installs `spamassassin spamc spamd`, see .ci/run).
 */
export interface Spamd {
  host: string
  port: number
  stop(): Promise<void>
}

function installed(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0
}

/** Why spamd cannot run here, or undefined when it can. */
export function spamdSkipReason(): string | undefined {
  if (!installed('spamd') || !installed('spamc'))
    return 'spamd/spamc not installed (Debian: apt-get install --no-install-recommends spamassassin spamc spamd)'
  return undefined
}

export async function startSpamd(readyWithinMs = 60_000): Promise<Spamd> {
  const port = await freePort()
  const child: ChildProcess = spawn(
    'spamd',
    ['--listen', `127.0.0.1:${port}`, '--allowed-ips', '127.0.0.1', '-u', 'nobody', '-x', '-L', '-s', 'stderr'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let log = ''
  child.stderr!.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000)
  })
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
  const deadline = Date.now() + readyWithinMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`spamd exited (${child.exitCode}): ${log}`)
    if (
      spawnSync('spamc', ['-d', '127.0.0.1', '-p', String(port), '-x', '-K'], { stdio: 'ignore', timeout: 5000 })
        .status === 0
    )
      return { host: '127.0.0.1', port, stop }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  await stop()
  throw new Error(`spamd did not answer within ${readyWithinMs} ms: ${log}`)
}
