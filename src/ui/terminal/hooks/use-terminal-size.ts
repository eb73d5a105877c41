import { useStdout } from 'ink'
import { useEffect, useState } from 'react'

/** Terminal size in cells. */
export interface TerminalSize {
  columns: number
  rows: number
}

/** The terminal's size as it is (80×24 when unknown); the App decides what fits. */
function read(stdout: NodeJS.WriteStream): TerminalSize {
  return {
    columns: Math.max(1, stdout.columns || 80),
    rows: Math.max(1, stdout.rows || 24),
  }
}

/**
 * The terminal's size, updated on `resize`. Ink only re-lays out the width on resize; the
 * height decides how many rows the lists render, so it has to be React state.
 */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout()
  const [size, setSize] = useState(() => read(stdout))
  useEffect(() => {
    const onResize = () => {
      const next = read(stdout)
      setSize((prev) => (prev.columns === next.columns && prev.rows === next.rows ? prev : next))
    }
    stdout.on('resize', onResize)
    onResize()
    return () => {
      stdout.off('resize', onResize)
    }
  }, [stdout])
  return size
}
