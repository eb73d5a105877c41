import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const hasTmux = spawnSync('tmux', ['-V']).status === 0

/**
 * One pane of a private tmux server, on a socket in a temporary directory: it never touches the
 * user's sessions, and `close()` removes the server and the directory. The directory is made on
 * first use (`dir`, `start`), so a suite that is skipped leaves nothing behind.
 */
export function tmuxPane(session: string) {
  let made: string | undefined
  const dir = () => (made ??= mkdtempSync(join(tmpdir(), `sendbox-${session}-`)))
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-S', join(dir(), 'tmux.sock'), ...args], { encoding: 'utf8' })
  const screen = () => tmux('capture-pane', '-p', '-t', session)
  return {
    /** The pane's temporary directory (the tmux socket's; a test may keep its own files there). */
    dir,
    tmux,
    screen,
    start(command: string, columns: number, rows: number) {
      tmux('new-session', '-d', '-s', session, '-x', String(columns), '-y', String(rows), 'sh', '-c', command)
    },
    keys(...names: string[]) {
      for (const name of names) tmux('send-keys', '-t', session, name)
    },
    /**
     * The screen once `check` holds and the frame has settled: two captures 50 ms apart are the
     * same. tmux can be read while the UI's frame is half written (CI once saw a detail's header
     * without its body), so a check that finds one line does not vouch for the rest.
     */
    async until(check: (text: string) => boolean, what: string, timeoutMs = 8_000): Promise<string> {
      const deadline = Date.now() + timeoutMs
      let last: string | undefined
      for (;;) {
        const text = screen()
        const holds = check(text)
        if (holds && text === last) return text
        if (Date.now() > deadline) {
          if (holds) return text
          throw new Error(`timed out waiting for ${what}; the screen shows:\n${text}`)
        }
        last = holds ? text : undefined
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    close() {
      if (made === undefined) return
      spawnSync('tmux', ['-S', join(made, 'tmux.sock'), 'kill-server'])
      rmSync(made, { recursive: true, force: true })
    },
  }
}
