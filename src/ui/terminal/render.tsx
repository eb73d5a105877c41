import { render } from 'ink'
import type { SandboxState } from '../../domain/sandbox.js'
import { App } from './app.js'
import { captureConsole } from './console-capture.js'

/** Options of {@link renderUi}. */
export interface RenderUiOptions {
  sandbox: SandboxState
  /** The base URL apps should point at, shown in the header. */
  apiUrl: string
  /** Called after the UI has left the screen when the user quits: shut the server down here. */
  onQuit: () => void
  /** Defaults to the process's streams; tests pass fakes. */
  stdout?: NodeJS.WriteStream
  stdin?: NodeJS.ReadStream
  stderr?: NodeJS.WriteStream
}

/** A mounted UI. */
export interface RunningUi {
  /** Leaves the screen as it was (idempotent). Does not call `onQuit`. */
  unmount(): void
  /** Resolves once the UI has been unmounted. */
  waitUntilExit(): Promise<void>
}

const ENTER_ALT_SCREEN = '\u001B[?1049h\u001B[H\u001B[2J'
const LEAVE_ALT_SCREEN = '\u001B[?1049l'

/**
 * Puts the terminal UI on screen for a running sandbox. It uses the terminal's alternate screen
 * (the shell's scrollback is back untouched on quit), diverts `console.*` so nothing tears through
 * Ink's frame, handles Ctrl-C itself (raw mode swallows SIGINT) and always restores the terminal,
 * even when the process exits some other way.
 *
 * @example
 * const ui = renderUi({ sandbox, apiUrl: running.url + '/v1', onQuit: shutdown })
 */
export function renderUi({
  sandbox,
  apiUrl,
  onQuit,
  stdout = process.stdout,
  stdin = process.stdin,
  stderr = process.stderr,
}: RenderUiOptions): RunningUi {
  const captured = captureConsole()
  stdout.write(ENTER_ALT_SCREEN)
  let mounted = true
  const leave = () => {
    if (!mounted) return
    mounted = false
    process.off('exit', leave)
    instance.unmount()
    stdout.write(LEAVE_ALT_SCREEN)
    const lines = captured.restore()
    if (lines.length > 0) {
      stderr.write(
        `sendbox: ${captured.count()} console message(s) while the UI ran${captured.count() > lines.length ? ` (last ${lines.length} kept)` : ''}:\n${lines.join('\n')}\n`,
      )
    }
  }
  const quit = () => {
    leave()
    onQuit()
  }
  const instance = render(<App sandbox={sandbox} apiUrl={apiUrl} onQuit={quit} console={captured} />, {
    stdout,
    stdin,
    stderr,
    exitOnCtrlC: false,
    patchConsole: false,
    // Not `incrementalRendering`: in Ink 6.8 it drifts one row down per redraw when the frame ends
    // with a newline (seen in tmux: stale header rows left above fresh ones).
  })
  // A signal (SIGTERM from a supervisor) ends the process without the UI's quit path.
  process.on('exit', leave)
  const exited = instance.waitUntilExit().then(
    () => undefined,
    () => undefined,
  )
  return { unmount: leave, waitUntilExit: () => exited }
}
