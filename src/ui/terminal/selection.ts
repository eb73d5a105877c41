/**
 * Selection in a newest-first list, as plain data: on the top row it follows new arrivals (like
 * `tail -f`); anywhere else it stays on the same item, and that item on the same screen row, so
 * the list does not jump under the user's eyes.
 */
export interface Selection {
  /** Following the newest item: true while the selection sits on the top row. */
  follow: boolean
  /** The selected item's id when not following. */
  id: string | null
  /** Where the selection was, for when its item disappears (cleared, evicted, filtered out). */
  index: number
  /** The selected item's row on screen, kept stable while items arrive above it. */
  row: number
}

export const FOLLOW: Selection = { follow: true, id: null, index: 0, row: 0 }

/** Where a selection is in the current items: what a list renders, and what keys move from. */
export interface ListWindow {
  length: number
  /** Index of the selected item (0 when empty). */
  index: number
  /** Index of the first visible item. */
  top: number
  /** Rows the list shows. */
  rows: number
  /** The id of the item at an index. */
  idAt(index: number): string
}

/** The window a selection gives over `items` (found by id: O(n) only when not following). */
export function windowOf<T>(
  selection: Selection,
  items: readonly T[],
  idOf: (item: T) => string,
  height: number,
): ListWindow {
  const rows = Math.max(1, height)
  const last = Math.max(0, items.length - 1)
  let found = -1
  if (!selection.follow && selection.id !== null) {
    for (let i = 0; i < items.length; i++) {
      if (idOf(items[i]) === selection.id) {
        found = i
        break
      }
    }
  }
  const index = selection.follow ? 0 : Math.min(found >= 0 ? found : selection.index, last)
  const row = Math.min(selection.row, rows - 1, index)
  const top = Math.max(0, Math.min(index - row, Math.max(0, items.length - rows)))
  return { length: items.length, index, top, rows, idAt: (i) => idOf(items[i]) }
}

/** The selection after moving to `target` (clamped); the selected item keeps its screen row where it can. */
export function selectIndex(window: ListWindow, target: number): Selection {
  if (window.length === 0) return FOLLOW
  const next = Math.max(0, Math.min(target, window.length - 1))
  if (next === 0) return FOLLOW
  const row = Math.max(0, Math.min(window.index - window.top + (next - window.index), window.rows - 1))
  return { follow: false, id: window.idAt(next), index: next, row }
}
