import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { ROOT, shippedSources } from './sources.js'

/**
 * The import graph of the shipped sources (src, bin, fixtures; tests excluded), read
 * with TypeScript's own pre-processor: static, dynamic and type-only imports all count. Two rules
 * (STYLE.md, issue 28): no import cycle, and dependencies point one way — the contract
 * (`src/contract`) and the domain never import what sits above them.
 */

/** Each source file's relative imports, resolved to files (`./x.js` → `./x.ts`, `./x.tsx`, `./x/index.ts`). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of shippedSources()) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const targets = importedFiles
      .filter(({ fileName }) => fileName.startsWith('.'))
      .map(({ fileName }) => {
        const base = resolve(dirname(file), fileName).replace(/\.js$/, '')
        return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => existsSync(candidate))
      })
      .filter((target): target is string => target !== undefined)
    graph.set(
      relative(ROOT, file),
      targets.map((target) => relative(ROOT, target)),
    )
  }
  return graph
}

/** Strongly connected components of more than one file (Tarjan): each is an import cycle. */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (node: string) => {
    index.set(node, next)
    low.set(node, next++)
    stack.push(node)
    onStack.add(node)
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(node, Math.min(low.get(node)!, low.get(target)!))
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    const selfLoop = (graph.get(node) ?? []).includes(node)
    if (component.length > 1 || selfLoop) cycles.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return cycles
}

/**
 * The layers, bottom up (docs/decisions/layers.md): the contract (`src/contract`, and
 * `src/version.ts`, which imports nothing), the domain (`src/domain`), its storage adapter
 * (`src/storage`), HTTP semantics (`src/http`: the route table, guards, msw handlers, the OpenAPI
 * document), the transports (`src/transports`, and `src/index.ts`, the package's entry, which
 * assembles the sandbox from the layers below and the transports' worker pool and webhook poster),
 * and at the top the UIs, the CLI, the Playwright fixture and the matchers (`src/matchers.ts` and its two parts).
 * `fixtures/` holds data only. Each folder must not import the ones listed (what sits above it).
 */
const TOP = [
  'src/ui/terminal/',
  'src/ui/web/',
  'src/cli/',
  'src/playwright/',
  'src/matchers.ts',
  'src/matchers-client.ts',
  'src/matchers-checks.ts',
  'bin/',
]
/** The protocols the sandbox is spoken in: HTTP (the route table), MCP, and the HTTP client's interface. */
const PROTOCOLS = ['src/http/', 'src/mcp/', 'src/client/']
const TRANSPORTS = ['src/transports/', 'src/index.ts']
const BELOW: Array<[layer: string, mustNotImport: string[]]> = [
  ['src/version.ts', ['src/']],
  ['src/contract/', ['src/domain/', 'src/storage/', ...PROTOCOLS, ...TRANSPORTS, ...TOP]],
  ['src/domain/', ['src/storage/', ...PROTOCOLS, ...TRANSPORTS, ...TOP]],
  ['src/storage/', [...PROTOCOLS, ...TRANSPORTS, ...TOP]],
  ...PROTOCOLS.map((layer): [string, string[]] => [layer, [...TRANSPORTS, 'src/storage/', ...TOP]]),
  ...TRANSPORTS.map((layer): [string, string[]] => [layer, TOP]),
  // The web inbox runs in a browser: the contract and pure domain helpers (bundled), nothing of the server, nor the terminal UI.
  [
    'src/ui/web/',
    [
      'src/http/',
      'src/mcp/',
      'src/transports/',
      'src/index.ts',
      'src/storage/',
      'src/cli/',
      'src/ui/terminal/',
      'bin/',
    ],
  ],
  // The terminal UI does not reach into the web inbox either.
  ['src/ui/terminal/', ['src/ui/web/']],
]
/** Every place a shipped source may sit: a file outside all of them (a new root file, code in `fixtures/`) fails. */
const PLACED = ['src/version.ts', 'src/contract/', 'src/domain/', 'src/storage/', ...PROTOCOLS, ...TRANSPORTS, ...TOP]

describe('the import graph of the sources', () => {
  const graph = importGraph()

  it('is read from the files (a sanity check on the reader)', () => {
    expect(graph.size).toBeGreaterThan(80)
    expect(graph.get('src/http/index.ts')).toContain('src/http/guard.ts')
  })

  it('has no import cycle', () => {
    expect(cyclesOf(graph)).toEqual([])
  })

  it('places every shipped source in a layer of the table (root files included; fixtures/ is data)', () => {
    const unplaced = [...graph.keys()].filter((file) => !PLACED.some((layer) => file.startsWith(layer)))
    expect(unplaced, 'add the file to a layer in docs/decisions/layers.md and PLACED here, or move it').toEqual([])
  })

  it('has no cycle between layers: a root file counts as its layer', () => {
    const layerOf = (file: string) => PLACED.find((layer) => file.startsWith(layer)) ?? file
    const folders = new Map<string, string[]>()
    for (const [file, targets] of graph) {
      const from = layerOf(file)
      folders.set(from, [...new Set([...(folders.get(from) ?? []), ...targets.map(layerOf).filter((t) => t !== from)])])
    }
    const tiers = [['src/version.ts', 'src/contract/'], ['src/domain/'], ['src/storage/'], PROTOCOLS, TRANSPORTS, TOP]
    const tier = (layer: string) => tiers.findIndex((members) => members.includes(layer))
    // Within a tier (the protocols, the transports and the entry) folders may import each other; across tiers, cycles are arrows up.
    const across = new Map([...folders].map(([from, to]) => [from, to.filter((t) => tier(t) !== tier(from))]))
    expect(cyclesOf(across)).toEqual([])
  })

  it('points one way: no layer imports one above it', () => {
    const upward: string[] = []
    for (const [file, targets] of graph) {
      for (const [layer, forbidden] of BELOW) {
        if (!file.startsWith(layer)) continue
        for (const target of targets)
          if (forbidden.some((above) => target.startsWith(above))) upward.push(`${file} → ${target}`)
      }
    }
    expect(upward).toEqual([])
  })
})

describe('cyclesOf', () => {
  it('finds a two-file cycle and a longer one, and nothing in a chain', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['g']],
      ['g', []],
    ])
    expect(cyclesOf(graph)).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ])
  })
})
