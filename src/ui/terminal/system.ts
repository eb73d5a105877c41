import { spawn } from 'node:child_process'

/**
 * What the UI does outside the terminal frame: open a URL in the browser, put text on the
 * clipboard. The App takes this as a prop, so tests pass a recording fake and nothing opens.
 */
export interface UiSystem {
  /** Opens `url` in the default browser; resolves false when no browser could be started. */
  openUrl(url: string): Promise<boolean>
  /** Puts `text` on the clipboard. */
  copy(text: string): void
}

/**
 * OSC 52 "set clipboard": the terminal puts the text on the system clipboard. It travels in the
 * output stream, so it works over SSH; tmux passes it on with `set -g set-clipboard on`.
 */
export function osc52(text: string): string {
  return `\u001B]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`
}

/** The platform's "open this URL" command, or null where none can show a browser (no display). */
export function browserCommand(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): [string, string[]] | null {
  if (platform === 'darwin') return ['open', []]
  // `start` goes through cmd.exe, which would read `&` in a URL as a command separator.
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler']]
  // Without a display (SSH, a container) xdg-open falls back to a text browser that would fight the UI for the terminal.
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null
  return ['xdg-open', []]
}

/**
 * Opens a URL with the platform command, detached, never through a shell: the URL (from a
 * client's message) is one argument. Only http(s) URLs are opened.
 */
export function openInBrowser(url: string, command = browserCommand()): Promise<boolean> {
  if (!/^https?:\/\//i.test(url) || command === null) return Promise.resolve(false)
  const [file, args] = command
  return new Promise((resolve) => {
    try {
      const child = spawn(file, [...args, url], { detached: true, stdio: 'ignore' })
      child.once('error', () => resolve(false))
      child.once('exit', (code) => resolve(code === 0))
      child.unref()
    } catch {
      resolve(false)
    }
  })
}

/** The real system: the platform's browser command, and OSC 52 written to the terminal. */
export function terminalSystem(stdout: NodeJS.WriteStream): UiSystem {
  return {
    openUrl: (url) => openInBrowser(url),
    copy(text) {
      // Invisible and moves no cursor, so Ink's frame bookkeeping is unaffected.
      stdout.write(osc52(text))
    },
  }
}
