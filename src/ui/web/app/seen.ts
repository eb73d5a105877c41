/**
 * Which messages this browser has opened: kept in localStorage (bounded to the newest 10,000
 * ids, like the outbox), so a message stays marked unseen until opened, across reloads.
 */
const KEY = 'sendbox.seen'
const CAP = 10_000

let seen: Set<string> | null = null
const listeners = new Set<() => void>()

/** Calls `listener` when a message is marked seen (the list re-renders its row). */
export function onSeen(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

function load(): Set<string> {
  if (seen) return seen
  try {
    seen = new Set(JSON.parse(localStorage.getItem(KEY) ?? '[]') as string[])
  } catch {
    seen = new Set()
  }
  return seen
}

export function isSeen(id: string): boolean {
  return load().has(id)
}

export function markSeen(id: string): void {
  const ids = load()
  if (ids.has(id)) return
  ids.add(id)
  if (ids.size > CAP) ids.delete(ids.values().next().value as string)
  for (const listener of listeners) listener()
  try {
    localStorage.setItem(KEY, JSON.stringify([...ids]))
  } catch {
    // storage full or disabled: seen for this page only
  }
}
