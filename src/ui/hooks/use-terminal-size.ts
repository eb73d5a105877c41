import { useStdout } from 'ink'
import { useEffect, useState } from 'react'

/** Terminal size in cells. */
export interface TerminalSize {
  columns: number
  rows: number
}

/** The smallest size the layout is designed for; smaller terminals get this and are cut. */
export const MIN_SIZE: TerminalSize = { columns: 40, rows: 12 }

function read(stdout: NodeJS.WriteStream): TerminalSize {
  return {
    columns: Math.max(MIN_SIZE.columns, stdout.columns || 80),
    rows: Math.max(MIN_SIZE.rows, stdout.rows || 24),
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
