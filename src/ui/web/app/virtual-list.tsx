/** @jsxImportSource preact */
/**
 * A virtualised listbox: only the rows in view (plus a margin) are in the DOM, positioned inside
 * a spacer as tall as every row, so 10,000 rows scroll as smoothly as 10. The selection is the
 * listbox's active descendant; the owner handles the keys.
 */
import type { ComponentChildren } from 'preact'
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'

export interface VirtualListProps {
  id: string
  label: string
  count: number
  rowHeight: number
  selected: number
  /** Rows [start, end) are about to show: fetch what is missing. */
  onRange?(start: number, end: number): void
  onActivate(index: number): void
  row(index: number): ComponentChildren
  rowKey(index: number): string
  rowClass?(index: number): string
  empty: ComponentChildren
}

const OVERSCAN = 8

/** The element's height, followed as it resizes. */
function useHeight(ref: { current: HTMLDivElement | null }): number {
  const [height, setHeight] = useState(600)
  useLayoutEffect(() => {
    const element = ref.current
    if (!element) return
    const observer = new ResizeObserver(() => setHeight(element.clientHeight))
    observer.observe(element)
    setHeight(element.clientHeight)
    return () => observer.disconnect()
  }, [])
  return height
}

export function VirtualList(props: VirtualListProps) {
  const ref = useRef<HTMLDivElement>(null)
  const [scrollTop, setScrollTop] = useState(0)
  const height = useHeight(ref)

  // Keeps the selected row in view when the keyboard moves it.
  useEffect(() => {
    const element = ref.current
    if (!element || props.selected < 0) return
    const top = props.selected * props.rowHeight
    if (top < element.scrollTop) element.scrollTop = top
    else if (top + props.rowHeight > element.scrollTop + element.clientHeight)
      element.scrollTop = top + props.rowHeight - element.clientHeight
  }, [props.selected, props.rowHeight])

  const first = Math.max(0, Math.floor(scrollTop / props.rowHeight) - OVERSCAN)
  const last = Math.min(props.count, Math.ceil((scrollTop + height) / props.rowHeight) + OVERSCAN)
  useEffect(() => {
    props.onRange?.(first, last)
  }, [first, last, props.count])

  const rows = []
  for (let i = first; i < last; i++) rows.push(<Row key={props.rowKey(i)} list={props} index={i} />)
  return (
    <div
      ref={ref}
      id={props.id}
      class="virtual-list"
      role="listbox"
      tabIndex={0}
      aria-label={props.label}
      aria-activedescendant={
        props.selected >= first && props.selected < last ? `${props.id}-row-${props.selected}` : undefined
      }
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      {props.count === 0 ? <div class="empty">{props.empty}</div> : null}
      <div class="spacer" style={{ height: `${props.count * props.rowHeight}px` }}>
        {rows}
      </div>
    </div>
  )
}

/** One row, placed at its offset in the spacer. */
function Row({ list, index: i }: { list: VirtualListProps; index: number }) {
  const selected = i === list.selected
  return (
    <div
      id={`${list.id}-row-${i}`}
      role="option"
      aria-selected={selected}
      aria-posinset={i + 1}
      aria-setsize={list.count}
      class={`row${selected ? ' selected' : ''} ${list.rowClass?.(i) ?? ''}`}
      style={{ top: `${i * list.rowHeight}px`, height: `${list.rowHeight}px` }}
      onClick={() => list.onActivate(i)}
    >
      {list.row(i)}
    </div>
  )
}
