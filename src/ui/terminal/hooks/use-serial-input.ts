import { useInput, type Key } from 'ink'
import { useCallback, useLayoutEffect, useRef, useState } from 'react'

/** Keys waiting at most; a huge paste outside the search box is cut. */
const MAX_QUEUED_KEYS = 256

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
}

/** The input and key flags Ink would give for one character typed alone. */
function keyOf(char: string): [string, Key] {
  const code = char.codePointAt(0) ?? 0
  if (char === '\r' || char === '\n') return ['', { ...NO_KEY, return: true }]
  if (char === '\t') return ['', { ...NO_KEY, tab: true }]
  if (char === '\b') return ['', { ...NO_KEY, backspace: true }]
  if (char === '\u007f') return ['', { ...NO_KEY, delete: true }]
  if (char === '\u001b') return ['', { ...NO_KEY, escape: true, meta: true }]
  if (code >= 1 && code <= 26) return [String.fromCharCode(code + 96), { ...NO_KEY, ctrl: true }]
  return [char, { ...NO_KEY, shift: /[A-Z]/.test(char) }]
}

const isControl = (char: string) => char < ' ' || char === '\u007f'

/**
 * Turns one read from the terminal into the keys the user pressed. Ink hands several keys read
 * together (fast typing, a paste, `tmux send-keys`) over as one string, and Esc followed quickly
 * by a key as Alt+key (tmux waits 500 ms for that); nothing here is bound to Alt, so it is Esc, then the key.
 */
function keysOf(input: string, key: Key, typingText: boolean): Array<[string, Key]> {
  if (key.meta && !key.escape) {
    const next = key.tab ? '\t' : key.return ? '\r' : key.backspace ? '\b' : key.delete ? '\u007f' : input
    if (next !== '') return ['\u001b', ...next].map(keyOf)
  }
  // Ink strips the Esc of an Esc+control pair it does not know (Esc, Tab) and passes the bare character.
  if (input.length === 1 && input < ' ' && !key.ctrl && !key.tab && !key.return && !key.backspace) {
    return [keyOf('\u001b'), keyOf(input)]
  }
  const chars = [...input]
  if (chars.length <= 1) return [[input, key]]
  if (typingText) {
    // Pasted text goes into the search box whole, up to the first control key.
    const stop = chars.findIndex(isControl)
    const text = stop === -1 ? input : chars.slice(0, stop).join('')
    const rest = stop === -1 ? [] : chars.slice(stop).map(keyOf)
    return text ? [[text, NO_KEY], ...rest] : rest
  }
  return chars.map(keyOf)
}

/**
 * `useInput`, one key at a time: each key is handled only after React has committed what the
 * previous one did. Two keys in quick succession (Backspace, then g and Enter) otherwise both run
 * against the same stale render, and Enter opens the message the list showed before.
 * `typingText` says whether printable input is text (the search box) rather than commands.
 */
export function useSerialInput(onKey: (input: string, key: Key) => void, typingText: boolean): void {
  const onKeyRef = useRef(onKey)
  onKeyRef.current = onKey
  const typingRef = useRef(typingText)
  typingRef.current = typingText
  const queue = useRef<{ keys: Array<[string, Key]>; busy: boolean }>({ keys: [], busy: false })
  // Bumped with every key, so every key ends in a commit, even one that changes nothing.
  const [, setHandled] = useState(0)

  const pump = useCallback(() => {
    const state = queue.current
    if (state.busy) return
    const next = state.keys.shift()
    if (!next) return
    state.busy = true
    onKeyRef.current(...next)
    setHandled((n) => n + 1)
  }, [])

  // After the commit that rendered a key, its successor runs against the new state.
  useLayoutEffect(() => {
    const state = queue.current
    if (!state.busy) return
    state.busy = false
    if (state.keys.length > 0) queueMicrotask(pump)
  })

  useInput(
    useCallback(
      (input: string, key: Key) => {
        const state = queue.current
        const typing = typingRef.current && state.keys.length === 0 && !state.busy
        state.keys.push(...keysOf(input, key, typing))
        if (state.keys.length > MAX_QUEUED_KEYS) state.keys.splice(0, state.keys.length - MAX_QUEUED_KEYS)
        pump()
      },
      [pump],
    ),
  )
}
