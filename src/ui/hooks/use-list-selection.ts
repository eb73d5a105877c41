import { useCallback, useMemo, useRef, useState } from 'react'

interface SelectionState {
  /** Following the newest item (`tail -f`): true while the selection sits on the top row. */
  follow: boolean
  /** The selected item's id when not following; the selection stays on it as others arrive. */
  id: string | null
  /** Where the selection was, for when its item disappears (cleared, evicted, filtered out). */
  index: number
  /** The selected item's row on screen, kept stable while items arrive above it. */
  row: number
}

/** What a list view renders: the visible window and where the selection is in it. */
export interface ListSelection<T> {
  /** Index of the selected item in `items` (0 when empty). */
  index: number
  selected: T | undefined
  /** Index of the first visible item. */
  top: number
  /** Only the rows that fit: a list of 10,000 renders `height` rows. */
  visible: readonly T[]
  /** Moves the selection by `delta` items (negative is up, towards newer). */
  move(delta: number): void
  /** Back to the newest item, following arrivals again. */
  toTop(): void
  toBottom(): void
}

const INITIAL: SelectionState = { follow: true, id: null, index: 0, row: 0 }

/**
 * Selection and scrolling of a newest-first list. On the top row the selection follows new
 * arrivals; anywhere else it stays on the same item, and that item stays on the same screen row,
 * so the list does not jump under the user's eyes.
 */
export function useListSelection<T>(items: readonly T[], idOf: (item: T) => string, height: number): ListSelection<T> {
  const [state, setState] = useState<SelectionState>(INITIAL)
  const rows = Math.max(1, height)
  const last = Math.max(0, items.length - 1)

  const found = useMemo(() => {
    if (state.follow || state.id === null) return -1
    for (let i = 0; i < items.length; i++) if (idOf(items[i]) === state.id) return i
    return -1
  }, [items, idOf, state.follow, state.id])

  const index = state.follow ? 0 : Math.min(found >= 0 ? found : state.index, last)
  const row = Math.min(state.row, rows - 1, index)
  const top = Math.max(0, Math.min(index - row, Math.max(0, items.length - rows)))
  const visible = useMemo(() => items.slice(top, top + rows), [items, top, rows])

  // Handlers read the latest render's values; a ref keeps them current between key presses.
  const current = useRef({ items, index, top, rows, idOf })
  current.current = { items, index, top, rows, idOf }

  const select = useCallback((target: number) => {
    const { items, index, top, rows, idOf } = current.current
    if (items.length === 0) {
      setState(INITIAL)
      return
    }
    const next = Math.max(0, Math.min(target, items.length - 1))
    const screenRow = Math.max(0, Math.min(index - top + (next - index), rows - 1))
    setState(next === 0 ? INITIAL : { follow: false, id: idOf(items[next]), index: next, row: screenRow })
  }, [])

  const move = useCallback((delta: number) => select(current.current.index + delta), [select])
  const toTop = useCallback(() => select(0), [select])
  const toBottom = useCallback(() => select(current.current.items.length - 1), [select])

  return { index, selected: items[index], top, visible, move, toTop, toBottom }
}
