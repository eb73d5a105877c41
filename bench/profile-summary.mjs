#!/usr/bin/env node
/**
 * Summarises a `node --cpu-prof` profile: self time and inclusive time per function, top N.
 * Used to find where a request's time goes without opening DevTools.
 *
 * Usage: node bench/profile-summary.mjs FILE.cpuprofile [N] [filter]
 */
import { readFileSync } from 'node:fs'

const [file, topArg = '30', filter = ''] = process.argv.slice(2)
if (!file) {
  console.error('usage: node bench/profile-summary.mjs FILE.cpuprofile [N] [filter]')
  process.exit(2)
}
const profile = JSON.parse(readFileSync(file, 'utf8'))
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const parent = new Map()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const selfTicks = new Map()
for (const id of profile.samples) selfTicks.set(id, (selfTicks.get(id) ?? 0) + 1)
const total = profile.samples.length
const label = (n) => {
  const f = n.callFrame
  const where = f.url
    ? f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(dist|src|handlers|bench)\//, '$1/')
    : ''
  return `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}`
}
const self = new Map()
const inclusive = new Map()
for (const [id, ticks] of selfTicks) {
  const node = byId.get(id)
  const name = label(node)
  self.set(name, (self.get(name) ?? 0) + ticks)
  const seen = new Set()
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const n = label(byId.get(cur))
    if (seen.has(n)) continue
    seen.add(n)
    inclusive.set(n, (inclusive.get(n) ?? 0) + ticks)
  }
}
const top = Number(topArg)
const show = (title, map) => {
  console.log(`\n${title} (of ${total} samples)`)
  const rows = [...map]
    .filter(([n]) => n.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
  for (const [name, ticks] of rows) console.log(`${((ticks / total) * 100).toFixed(1).padStart(5)}%  ${name}`)
}
show('self', self)
show('inclusive', inclusive)
